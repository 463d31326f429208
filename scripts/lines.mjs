// `node scripts/lines.mjs`: lines of TypeScript under src/, per folder (each folder's own files, not
// its subfolders'), then the whole, the providers' folders and the rest. The providers' folders hold
// one provider's code each: its kit adapter (src/providers/<name>/), its sandbox emulation
// (src/sandbox/<name>/) and its checker steps (src/check/<name>/); the rest is what every provider
// shares, and its size is the measure of issue 45's "the weight where it belongs".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The providers' folders' parents: each subfolder of these is one provider's. */
export const PROVIDER_PARENTS = ['src/providers', 'src/sandbox', 'src/check'];

/** Lines of a text as `wc -l` counts them: its newlines. */
export function lineCount(text) {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Whether a folder (relative to the root, `/`-separated) is a provider's folder or lies in one. */
export function isProviderFolder(folder) {
  return PROVIDER_PARENTS.some((parent) => folder.startsWith(`${parent}/`));
}

/**
 * The lines per folder of `files` (`[path, lines]` pairs, paths relative to the root), and the totals:
 * `all`, `providers` (in the providers' folders) and `outside` (the rest).
 */
export function tally(files) {
  const folders = new Map();
  let all = 0;
  let providers = 0;
  for (const [path, lines] of files) {
    const folder = dirname(path);
    folders.set(folder, (folders.get(folder) ?? 0) + lines);
    all += lines;
    if (isProviderFolder(folder)) providers += lines;
  }
  return { folders: new Map([...folders].sort(([a], [b]) => a.localeCompare(b))), all, providers, outside: all - providers };
}

/** The `.ts` files under `dir` (absolute), with their line counts, paths relative to `root`. */
export function readTree(dir, root = ROOT) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return readTree(path, root);
    return name.endsWith('.ts') ? [[relative(root, path).split('\\').join('/'), lineCount(readFileSync(path, 'utf8'))]] : [];
  });
}

/** The report's lines: one per folder, a mark on the providers' folders, then the three totals. */
export function report({ folders, all, providers, outside }) {
  const width = Math.max(...[...folders.keys()].map((folder) => folder.length), 32);
  const row = (name, lines) => `${name.padEnd(width)} ${String(lines).padStart(6)}`;
  return [
    ...[...folders].map(([folder, lines]) => `${row(folder, lines)}${isProviderFolder(folder) ? '  (provider)' : ''}`),
    '',
    row('all of src', all),
    row("in the providers' folders", providers),
    row("outside the providers' folders", outside),
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const line of report(tally(readTree(join(ROOT, 'src'))))) console.log(line);
}
