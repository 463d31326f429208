/**
 * `npm run bench`: builds what it needs, measures bytes, render cost, tap-to-navigation overhead and
 * the server (a row per provider), prints every figure beside its goal and writes bench/results.md.
 *
 * The PostgreSQL, MySQL and Redis figures need their servers' binaries: scripts/postgres.mjs,
 * scripts/mariadb.mjs and scripts/redis.mjs find them or install Debian's packages, as `npm test` does.
 *
 * Options: `--quick` takes fewer samples (a smoke run; its figures are noisier); `--no-write` prints
 * without touching bench/results.md; `--postgres` runs only the PostgreSQL store's figures, `--stores` those of
 * the PostgreSQL, MySQL and Redis stores in one run (printed, never written). A missed timing goal is reported, not turned into a failure:
 * timings depend on the machine. Failed bookings, a new booking that costs more than 2 database round
 * trips on any store with any provider (the intent service, ePay v2, Khalti), or a crash exit non-zero.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { join } from 'node:path';
import { benchBrowser, benchCheckout, BROWSER_DEFAULTS, CHECKOUT_DEFAULTS, MIN_RENDER_ROUNDS, type BrowserBenchOptions } from './browser.js';
import { buildBenchPage, buildMinimalCdn, buildPackage, ROOT } from './build.js';
import { cdnPieces } from '../scripts/size.mjs';
import { benchBytes } from './bytes.js';
import { benchFirstPaint, FIRST_PAINT_DEFAULTS } from './first-paint.js';
import { consoleReport, markdownReport, postgresReport, roundTripFailures, storesReport, type BenchResults, type RunInfo } from './report.js';
import { benchPostgres, POSTGRES_DEFAULTS, type PostgresBenchOptions, type PostgresResults } from './postgres.js';
import { MAX_ROUND_TRIPS } from './round-trips.js';
import { benchServer, SERVER_DEFAULTS, type ServerBenchOptions } from './server.js';
import { benchStores, type StoreBenchResults } from './stores.js';

const QUICK_BROWSER: BrowserBenchOptions = { elements: 1000, renderWarmup: 1, renderRuns: 5, tapWarmup: 2, tapRuns: 10 };
const QUICK_SERVER: ServerBenchOptions = {
  ...SERVER_DEFAULTS,
  signaturesPerRound: 500,
  latencyPairsPerRound: 100,
  bookingsPerClient: 10,
  rounds: 3,
  throughputRounds: 2,
};
const QUICK_POSTGRES: PostgresBenchOptions = { ...POSTGRES_DEFAULTS, latencyPairsPerRound: 100, bookingsPerClient: 30, rounds: 3, throughputRounds: 3, roundTripBookingsPerClient: 3 };

/** A mistake in the command line: reported by its message alone. */
class UsageError extends Error {}

function parseArgs(argv: readonly string[]): { quick: boolean; write: boolean; postgresOnly: boolean; storesOnly: boolean } {
  const known = new Set(['--quick', '--no-write', '--postgres', '--stores']);
  const unknown = argv.filter((arg) => !known.has(arg));
  if (unknown.length > 0) throw new UsageError(`Unknown option ${unknown.join(' ')}; use --quick, --no-write, --postgres and/or --stores.`);
  return { quick: argv.includes('--quick'), write: !argv.includes('--no-write'), postgresOnly: argv.includes('--postgres'), storesOnly: argv.includes('--stores') };
}

function commit(): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${hash} (with uncommitted changes)` : hash;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

const step = (text: string) => console.error(`bench: ${text}`);

/**
 * Fails the run, loudly, when a new booking cost more round trips than allowed on any store with any
 * provider (or bookings failed while they were counted): a regression of the stores, not of the machine.
 */
function failOnRoundTrips(postgres: PostgresResults | undefined, stores: StoreBenchResults[] = []): void {
  const failures = roundTripFailures(postgres, stores);
  if (failures.length === 0) return;
  console.error(`bench: FAILED: database round trips per new booking (at most ${MAX_ROUND_TRIPS}):`);
  for (const failure of failures) console.error(`bench:   ${failure}`);
  process.exitCode = 1;
}

/** `--postgres`: the PostgreSQL store's rows alone, for working on the store without the browsers. */
async function postgresOnly(quick: boolean): Promise<void> {
  step(`server with the PostgreSQL store: round trips, added latency, PostgreSQL against the memory store (load ${(loadavg()[0] ?? 0).toFixed(2)})...`);
  const postgres = await benchPostgres(quick ? QUICK_POSTGRES : POSTGRES_DEFAULTS);
  console.log(postgresReport(postgres));
  failOnRoundTrips(postgres);
  if (postgres.bookingErrors > 0) {
    console.error(`bench: ${postgres.bookingErrors} booking(s) failed under load; the throughput figures are not valid.`);
    process.exitCode = 1;
  }
}

/** The failed bookings of the store rounds, reported; true when there were any. */
function storeFailures(stores: StoreBenchResults[]): boolean {
  const failed = stores.reduce((sum, r) => sum + r.bookingErrors, 0);
  if (failed > 0) console.error(`bench: ${failed} booking(s) failed under load with the MySQL or Redis store; those figures are not valid.`);
  return failed > 0;
}

/** `--stores`: the PostgreSQL, MySQL and Redis stores' rows alone, in one run. */
async function storesOnly(quick: boolean): Promise<void> {
  step(`server with the PostgreSQL, MySQL and Redis stores: round trips, added latency, each against the memory store (load ${(loadavg()[0] ?? 0).toFixed(2)})...`);
  const postgres = await benchPostgres(quick ? QUICK_POSTGRES : POSTGRES_DEFAULTS);
  const stores = await benchStores(quick ? QUICK_POSTGRES : POSTGRES_DEFAULTS);
  console.log(storesReport(postgres, stores));
  failOnRoundTrips(postgres, stores);
  if (storeFailures(stores) || postgres.bookingErrors > 0) process.exitCode = 1;
}

async function main(): Promise<void> {
  const { quick, write, postgresOnly: onlyPostgres, storesOnly: onlyStores } = parseArgs(process.argv.slice(2));
  if (onlyStores) return storesOnly(quick);
  if (onlyPostgres) return postgresOnly(quick);
  const loadAverage = loadavg()[0] ?? 0;
  const started = performance.now();

  step('building the package (npm run build)...');
  buildPackage();
  step('measuring bytes...');
  const bytes = await benchBytes();

  step('building the benchmark page...');
  const page = await buildBenchPage();
  let browser;
  try {
    step('render and tap-to-navigation in headless Chromium...');
    browser = await benchBrowser(page, quick ? QUICK_BROWSER : BROWSER_DEFAULTS);
  } finally {
    page.dispose();
  }

  step('checkout page, cold, on a slow phone (CDN files; one wallet and two, minimal Lit button page beside them)...');
  const minimal = await buildMinimalCdn();
  let checkout;
  try {
    const pieces = await cdnPieces();
    checkout = await benchCheckout(minimal, pieces.payment.length > 0, quick ? { rounds: 3, renderRounds: MIN_RENDER_ROUNDS } : CHECKOUT_DEFAULTS);
  } finally {
    minimal.dispose();
  }

  step('first paint to button on screen, three ways (script only, :not(:defined), server-rendered)...');
  const firstPaint = await benchFirstPaint(quick ? { rounds: 3 } : FIRST_PAINT_DEFAULTS);

  step('server: signatures; per provider (intent service, ePay v2, Khalti) handler latency and 50 concurrent clients...');
  const server = await benchServer(quick ? QUICK_SERVER : SERVER_DEFAULTS);
  step('server with the PostgreSQL store: round trips (per provider), added latency, PostgreSQL against the memory store in one process...');
  const postgres = await benchPostgres(quick ? QUICK_POSTGRES : POSTGRES_DEFAULTS);
  step('server with the MySQL and Redis stores: the same measures on a throwaway MariaDB and Redis server...');
  const stores = await benchStores(quick ? QUICK_POSTGRES : POSTGRES_DEFAULTS);

  const info: RunInfo = {
    date: new Date().toISOString(),
    commit: commit(),
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    loadAverage,
    node: process.version,
    chromium: browser.chromiumVersion,
    platform: `${platform()} ${release()}`,
    quick,
  };
  const results: BenchResults = { info, bytes, checkout, firstPaint, browser, server, postgres, stores };
  console.log(consoleReport(results));
  if (write) {
    writeFileSync(join(ROOT, 'bench/results.md'), markdownReport(results));
    step('wrote bench/results.md');
  }
  step(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const serverErrors = server.providers.reduce((sum, p) => sum + p.bookingErrors, 0);
  if (serverErrors > 0 || postgres.bookingErrors > 0) {
    console.error(`bench: ${serverErrors + postgres.bookingErrors} booking(s) failed under load; the throughput figures are not valid.`);
    process.exitCode = 1;
  }
  if (storeFailures(stores)) process.exitCode = 1;
  failOnRoundTrips(postgres, stores);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`bench: ${error.message}`);
  else console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
