// The Node suite's files compiled to JavaScript once, so each test process runs plain `node` instead
// of loading tsx: through tsx a test process spent about 0.4 CPU-seconds more before and while loading
// its modules (tsx's loader thread and a hook call per module), and `npm run test:node` starts some
// 240 of them on two cores, where the suite is CPU-bound.
//
// The copy mirrors the repository under test-results/compiled/: every TypeScript file of the folders
// below is compiled beside a link to itself (a test that hands a `.ts` path to a worker or to tsx
// still finds it), every other file and every other top-level entry (node_modules, docs, examples,
// dist, package.json, ...) is a symbolic link to the original. So `import.meta.url` paths, fixtures
// and the imports of `.js` names that mean `.ts` files all resolve as in the repository. Each file is
// compiled on its own, as tsx does (the tsconfig's isolatedModules says that is enough).
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const COMPILED = join(ROOT, 'test-results', 'compiled');

/** The folders whose TypeScript the Node tests load. */
export const COMPILED_FOLDERS = ['src', 'test', 'bench', 'demo', 'scripts'];
/** Never walked: scratch folders the tests make and remove while others run. */
const SKIPPED = new Set(['node_modules', '.playground-data']);

/** Every file below `folder` (relative to ROOT), without the skipped folders and the scratch ones. */
function filesOf(folder) {
  const out = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name) && !entry.name.startsWith('.')) out.push(...filesOf(path));
    } else out.push(path);
  }
  return out;
}

const link = (from, to) => {
  mkdirSync(dirname(to), { recursive: true });
  symlinkSync(from, to);
};

/** The compiled path of a repository path (`test/node/a.test.ts` → `<out>/test/node/a.test.js`). */
export const compiledPath = (path, out = COMPILED) => join(out, relative(ROOT, join(ROOT, path)).replace(/\.ts$/, '.js'));

/** Builds the mirror afresh in `out` (default test-results/compiled/); resolves with the count of files compiled. */
export async function compileTests(out = COMPILED) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const compiled = new Set(COMPILED_FOLDERS);
  const typescript = [];
  for (const entry of readdirSync(ROOT)) {
    if (compiled.has(entry) || entry === 'test-results') continue;
    link(join(ROOT, entry), join(out, entry));
    // vite.config.ts: the e2e support and the build benches import it.
    if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) typescript.push(join(ROOT, entry));
  }
  // dist/ is built beside the Node suite: linked even before it exists.
  if (!existsSync(join(out, 'dist'))) link(join(ROOT, 'dist'), join(out, 'dist'));
  for (const path of COMPILED_FOLDERS.filter((folder) => existsSync(join(ROOT, folder))).flatMap(filesOf)) {
    link(join(ROOT, path), join(out, path));
    if (path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.endsWith('.d.mts')) typescript.push(join(ROOT, path));
  }
  await build({
    entryPoints: typescript,
    outdir: out,
    outbase: ROOT,
    bundle: false,
    format: 'esm',
    platform: 'node',
    // Node 20.10 and later keep `with { type: 'json' }` (vite.config.ts imports package.json so).
    target: 'node20.10',
    sourcemap: 'linked',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  return typescript.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const count = await compileTests();
  console.log(`compiled ${count} TypeScript files into ${relative(ROOT, COMPILED)}/ in ${Math.round(performance.now() - started)} ms`);
}
