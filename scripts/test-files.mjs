// `npm run test:node`, `test:e2e` and `test:built`: each suite's files in one node:test run, the slow ones
// first. node:test starts files in the order given, so a long file listed last runs on alone at
// the end while the other slots sit idle; started first, it runs beside the short files instead.
// `node scripts/test-files.mjs SUITE [--test-reporter=NAME]`: NAME is one of node's reporters (spec,
// the default; tap; dot) or the path of a reporter module.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { run } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledPath, compileTests } from './compiled-tests.mjs';

/**
 * Each suite: its folders (every *.test.ts below them), how many files run at once, a test's time
 * limit, and path prefixes slowest first (files that start real database servers, wait out leases
 * and outages, drive the checker against whole example servers, or walk many browser journeys).
 * Files that match no prefix follow, in name order.
 */
export const SUITES = {
  node: {
    folders: ['bench', 'test/node'],
    // Run from the compiled copy with plain node (scripts/compiled-tests.mjs): a quarter less CPU.
    compiled: true,
    // Six at once: the suite waits more than it computes (servers starting, leases and outages waited
    // out), and compiled it has the CPU for it: 165 s against 182 s with four, alone on two cores.
    concurrency: 6,
    timeoutMs: 300_000,
    slowFirst: [
      'test/node/server/postgres/',
      'test/node/server/mysql/',
      'test/node/check/',
      'bench/soak',
      'test/node/server/redis/',
      'test/node/sandbox/',
      'test/node/model/',
      'test/node/server/',
    ],
  },
  e2e: {
    folders: ['test/e2e'],
    compiled: true,
    concurrency: 2,
    timeoutMs: 600_000,
    slowFirst: ['test/e2e/inapp.', 'test/e2e/faults.', 'test/e2e/journeys.', 'test/e2e/screenshots.', 'test/e2e/restart.', 'test/e2e/handoff-journeys.'],
  },
  // The built package (run `npm run build` first, and within test/support/with-packed-package.mjs):
  // its own tests and the example servers, which install it.
  built: {
    folders: ['test/package', 'test/examples'],
    concurrency: 2,
    timeoutMs: 600_000,
    slowFirst: ['test/examples/nextjs.'],
  },
};

/** The test files of a suite (a key of SUITES), relative to `root`, in the order they are to start. */
export function suiteFiles(suite, root = '.') {
  const { folders, slowFirst } = SUITES[suite];
  const files = folders
    .flatMap((folder) => readdirSync(`${root}/${folder}`, { recursive: true }).map((name) => `${folder}/${String(name).split('\\').join('/')}`))
    .filter((file) => file.endsWith('.test.ts'))
    .sort();
  const rank = (file) => {
    const index = slowFirst.findIndex((prefix) => file.startsWith(prefix));
    return index === -1 ? slowFirst.length : index;
  };
  // Array.prototype.sort is stable: name order within a rank.
  return files.sort((a, b) => rank(a) - rank(b));
}

/** The reporter named by `--test-reporter=NAME` (node's own, or a module's path), spec by default. */
async function reporterFrom(args) {
  const name = args.find((arg) => arg.startsWith('--test-reporter='))?.slice('--test-reporter='.length) ?? 'spec';
  const builtIn = await import('node:test/reporters');
  if (Object.hasOwn(builtIn, name)) return builtIn[name];
  return (await import(pathToFileURL(resolve(name)).href)).default;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [suite, ...extra] = process.argv.slice(2);
  if (!Object.hasOwn(SUITES, suite ?? '')) {
    console.error(`usage: node scripts/test-files.mjs ${Object.keys(SUITES).join('|')} [--test-reporter=NAME]`);
    process.exit(2);
  }
  const { concurrency, timeoutMs, compiled } = SUITES[suite];
  const timeout = `--test-timeout=${timeoutMs}`;
  if (!process.execArgv.includes(timeout)) {
    // `node --test FILES` sorts the files by name; run() keeps the order given. Its test processes
    // take this process's node options: start again with the suite's time limit, and with tsx unless
    // the suite runs compiled (then with source maps, so a failure names the TypeScript line).
    if (compiled) await compileTests();
    const loader = compiled ? ['--enable-source-maps'] : ['--import', 'tsx'];
    const child = spawn(process.execPath, [...loader, timeout, fileURLToPath(import.meta.url), suite, ...extra], { stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  } else {
    const files = suiteFiles(suite).map((file) => (compiled ? compiledPath(file) : resolve(file)));
    const stream = run({ files, concurrency });
    stream.on('test:fail', () => (process.exitCode = 1));
    stream.compose(await reporterFrom(extra)).pipe(process.stdout);
  }
}
