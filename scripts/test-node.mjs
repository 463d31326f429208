// `npm run test:node`: every bench/*.test.ts and test/node/**/*.test.ts in one `node --test` run, three
// files at a time, the slow folders first. node:test starts files in the order given, so a long file
// listed last (the database servers' files sort late) runs on alone at the end while the other slots
// sit idle; started first, it runs beside the many short files instead. Arguments are passed on to
// node before the files (e.g. `-- --test-reporter=tap`, which replaces the spec reporter).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';

/**
 * Path prefixes, slowest first (each a folder whose files start real database servers, wait out
 * leases and outages, or drive the checker against whole example servers). Files that match none
 * follow, in name order.
 */
export const SLOW_FIRST = [
  'test/node/server/postgres/',
  'test/node/server/mysql/',
  'test/node/check/',
  'bench/soak',
  'test/node/server/redis/',
  'test/node/sandbox/',
  'test/node/model/',
  'test/node/server/',
];

/** The test files of `test:node`, relative to `root`, in the order they are to start. */
export function nodeTestFiles(root = '.') {
  const files = [
    ...readdirSync(`${root}/bench`).filter((name) => name.endsWith('.test.ts')).map((name) => `bench/${name}`),
    ...readdirSync(`${root}/test/node`, { recursive: true })
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `test/node/${name.split('\\').join('/')}`),
  ].sort();
  const rank = (file) => {
    const index = SLOW_FIRST.findIndex((prefix) => file.startsWith(prefix));
    return index === -1 ? SLOW_FIRST.length : index;
  };
  // Array.prototype.sort is stable: name order within a rank.
  return files.sort((a, b) => rank(a) - rank(b));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const extra = process.argv.slice(2);
  const reporter = extra.some((arg) => arg.startsWith('--test-reporter')) ? [] : ['--test-reporter=spec'];
  const args = ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-timeout=300000', ...reporter, ...extra, ...nodeTestFiles()];
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
