// `npm run test:node` and `npm run test:e2e`: each suite's files in one `node --test` run, the slow
// ones first. node:test starts files in the order given, so a long file listed last runs on alone at
// the end while the other slots sit idle; started first, it runs beside the short files instead.
// `node scripts/test-files.mjs SUITE [NODE ARGS...]`: the arguments go to node before the files (e.g.
// `--test-reporter=tap`, which replaces the spec reporter).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';

/**
 * Each suite: its folders (every *.test.ts below them), how many files run at once, a test's time
 * limit, and path prefixes slowest first (files that start real database servers, wait out leases
 * and outages, drive the checker against whole example servers, or walk many browser journeys).
 * Files that match no prefix follow, in name order.
 */
export const SUITES = {
  node: {
    folders: ['bench', 'test/node'],
    concurrency: 3,
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
    concurrency: 2,
    timeoutMs: 600_000,
    slowFirst: ['test/e2e/inapp.', 'test/e2e/faults.', 'test/e2e/journeys.', 'test/e2e/screenshots.', 'test/e2e/restart.', 'test/e2e/handoff-journeys.'],
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const [suite, ...extra] = process.argv.slice(2);
  if (!Object.hasOwn(SUITES, suite ?? '')) {
    console.error(`usage: node scripts/test-files.mjs ${Object.keys(SUITES).join('|')} [NODE ARGS...]`);
    process.exit(2);
  }
  const { concurrency, timeoutMs } = SUITES[suite];
  const reporter = extra.some((arg) => arg.startsWith('--test-reporter')) ? [] : ['--test-reporter=spec'];
  const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, `--test-timeout=${timeoutMs}`, ...reporter, ...extra, ...suiteFiles(suite)];
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
