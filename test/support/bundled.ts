/**
 * A TypeScript entry (a handler worker, the sandbox's or the checker's command line) bundled into one
 * ES module that plain `node` runs. Started through tsx, each such process spent about 0.5 CPU-seconds
 * before its first line (tsx's loader thread and a hook call per module); the bundle starts in about
 * 0.1, and the tests start some sixty of them. The code is the same, in one file instead of many (as a
 * user's `npx wallet-pay-sandbox` runs the built one); every dependency is left to node's resolution
 * from the repository's node_modules.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the repository, so the bundle's imports of dependencies resolve from its node_modules. */
const OUT = join(ROOT, 'node_modules', '.cache', 'wallet-pay-button-tests');

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
/** Every package the repository installs stays external; only the repository's own modules are bundled. */
const external = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {}));

const built = new Map<string, Promise<string>>();

/** The path of `entry` bundled (once per process and entry); run it as `node --enable-source-maps <path> ...args`. */
export function bundled(entry: string | URL): Promise<string> {
  const file = entry instanceof URL ? fileURLToPath(entry) : entry;
  let path = built.get(file);
  if (!path) {
    path = (async () => {
      mkdirSync(OUT, { recursive: true });
      const name = file.slice(ROOT.length).replace(/[^\w.-]+/g, '_').replace(/\.ts$/, '');
      // One file per process and entry: two test files bundling the same entry at once never share one.
      const outfile = join(OUT, `${name}.${process.pid}.${built.size}.mjs`);
      await build({
        entryPoints: [file],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        external: [...external, ...external.map((name) => `${name}/*`)],
        sourcemap: 'inline',
        logLevel: 'silent',
      });
      // The processes started from it have read it by then: nothing is left behind.
      process.once('exit', () => rmSync(outfile, { force: true }));
      return outfile;
    })();
    built.set(file, path);
  }
  return path;
}
