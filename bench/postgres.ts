/**
 * Server figures with the PostgreSQL store, on a throwaway local PostgreSQL server (scripts/postgres.mjs):
 * the handler's added latency over calling the sandbox directly (p50, p99), and bookings per second
 * across four handler processes on one database against one process with the memory store, measured
 * in the same run, round by round, against one shared sandbox. Run as a child process with
 * `BENCH_MERCHANT_WORKER=1`, this file is one merchant server process of that comparison.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgres } from '../scripts/postgres.mjs';
import { startSandbox } from '../src/sandbox/index.js';
import { createPostgresStore } from '../src/server/postgres.js';
import { createMemoryStore } from '../src/server/store.js';
import { listen } from '../test/node/server/helpers.js';
import { BENCH_ACCESS_KEY, BENCH_PRODUCT_CODE, startMerchant, withPayRoutes, type Merchant } from './merchant.js';
import { bookThroughHandler, measureLatency } from './server.js';
import { repeat, summarize, type Summary } from './stats.js';

/** How much work each measure does. */
export interface PostgresBenchOptions {
  latencyPairsPerRound: number;
  warmupRounds: number;
  rounds: number;
  /** Handler processes sharing the database in the throughput comparison. */
  processes: number;
  concurrentClients: number;
  bookingsPerClient: number;
  throughputRounds: number;
}

export const POSTGRES_DEFAULTS: PostgresBenchOptions = {
  latencyPairsPerRound: 400,
  warmupRounds: 1,
  rounds: 5,
  processes: 4,
  concurrentClients: 50,
  bookingsPerClient: 20,
  throughputRounds: 3,
};

/** The PostgreSQL figures. */
export interface PostgresResults {
  /** Per round: handler p50 (p99) minus direct p50 (p99), in ms, with the PostgreSQL store. */
  addedP50Ms: Summary;
  addedP99Ms: Summary;
  directP50Ms: Summary;
  handlerP50Ms: Summary;
  processes: number;
  concurrentClients: number;
  /** Bookings per second: `processes` handler processes on one PostgreSQL database. */
  postgresPerSecond: Summary;
  /** Bookings per second: one handler process with the memory store, in the same rounds. */
  memoryPerSecond: Summary;
  /** Per round: PostgreSQL processes' rate over the memory process's rate. */
  ratio: Summary;
  bookingErrors: number;
  bookingsAttempted: number;
}

interface WorkerHandle {
  child: ChildProcess;
  url: string;
}

/** Starts one merchant server process (this file as a worker); `databaseUrl` undefined means the memory store. */
async function startWorker(serviceUrl: string, databaseUrl: string | undefined): Promise<WorkerHandle> {
  const child = fork(fileURLToPath(import.meta.url), {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    env: { ...process.env, BENCH_MERCHANT_WORKER: '1', BENCH_SERVICE_URL: serviceUrl, BENCH_DATABASE_URL: databaseUrl ?? '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve(message.url));
    child.once('exit', (code) => reject(new Error(`a merchant worker exited (${code}) before it was ready`)));
  });
  return { child, url };
}

/** `clients` concurrent clients book through `urls` (client i always uses the same one); bookings per second. */
async function load(urls: string[], o: PostgresBenchOptions, counts: { attempted: number; errors: number }): Promise<number> {
  const start = performance.now();
  const client = async (index: number) => {
    const url = urls[index % urls.length]!;
    for (let i = 0; i < o.bookingsPerClient; i++) {
      counts.attempted++;
      await bookThroughHandler(url).catch(() => {
        counts.errors++;
      });
    }
  };
  await Promise.all(Array.from({ length: o.concurrentClients }, (_, index) => client(index)));
  return (o.concurrentClients * o.bookingsPerClient) / ((performance.now() - start) / 1000);
}

/** Runs the PostgreSQL measures on a throwaway server. */
export async function benchPostgres(options: PostgresBenchOptions = POSTGRES_DEFAULTS): Promise<PostgresResults> {
  const o = options;
  const server = await startPostgres();
  const pools: pg.Pool[] = [];
  const workers: WorkerHandle[] = [];
  let merchant: Merchant | undefined;
  const kit = await listen((request, response) => {
    if (!merchant) {
      response.writeHead(503).end();
      return;
    }
    withPayRoutes(merchant, (_req, res) => res.writeHead(404).end())(request, response);
  });
  const sandbox = await startSandbox({ accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE });
  try {
    const pool = new pg.Pool({ connectionString: server.url, max: 10 });
    pool.on('error', () => {});
    pools.push(pool);
    const store = createPostgresStore(pool);
    await store.ready();
    merchant = await startMerchant(kit.url, { store, sandbox });
    const latency = await measureLatency(merchant, kit.url, o);

    // A database of its own for the processes, so their tables start empty.
    await pool.query('CREATE DATABASE bench_processes');
    const processesUrl = server.url.replace(/\/postgres$/, '/bench_processes');
    const memoryWorker = await startWorker(sandbox.baseUrl, undefined);
    workers.push(memoryWorker);
    // Started one after the other: the first creates the tables, the rest find them.
    for (let i = 0; i < o.processes; i++) workers.push(await startWorker(sandbox.baseUrl, processesUrl));
    const postgresUrls = workers.slice(1).map((w) => w.url);

    const counts = { attempted: 0, errors: 0 };
    const rounds = await repeat(o.warmupRounds, o.throughputRounds, async () => {
      // Each round measures both, in alternating order, so drift hits both alike.
      const order = counts.attempted % 2 === 0 ? ['memory', 'postgres'] : ['postgres', 'memory'];
      const rate: Record<string, number> = {};
      for (const which of order) rate[which] = await load(which === 'memory' ? [memoryWorker.url] : postgresUrls, o, counts);
      return { memory: rate.memory!, postgres: rate.postgres! };
    });

    return {
      addedP50Ms: summarize(latency.map((r) => r.handler.median - r.direct.median)),
      addedP99Ms: summarize(latency.map((r) => r.handler.p99 - r.direct.p99)),
      directP50Ms: summarize(latency.map((r) => r.direct.median)),
      handlerP50Ms: summarize(latency.map((r) => r.handler.median)),
      processes: o.processes,
      concurrentClients: o.concurrentClients,
      postgresPerSecond: summarize(rounds.map((r) => r.postgres)),
      memoryPerSecond: summarize(rounds.map((r) => r.memory)),
      ratio: summarize(rounds.map((r) => r.postgres / r.memory)),
      bookingErrors: counts.errors + merchant.errors.length,
      bookingsAttempted: counts.attempted,
    };
  } finally {
    for (const worker of workers) worker.child.kill();
    await Promise.all(workers.map((w) => (w.child.exitCode === null && w.child.signalCode === null ? new Promise((r) => w.child.once('exit', r)) : undefined)));
    await Promise.all(pools.map((p) => p.end()));
    await merchant?.close();
    await sandbox.close();
    await kit.close();
    await server.stop();
  }
}

/** One merchant server process: the handler (PostgreSQL store when a database URL is given) on node:http. */
async function worker(): Promise<void> {
  const serviceUrl = process.env.BENCH_SERVICE_URL!;
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  let store;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    pool.on('error', () => {});
    store = createPostgresStore(pool);
    await store.ready();
  } else {
    store = createMemoryStore({ maxEntries: 1_000_000 });
  }
  const running: { merchant?: Merchant } = {};
  const server = createServer((request, response) => {
    if (!running.merchant) response.writeHead(503).end();
    else withPayRoutes(running.merchant, (_req, res) => res.writeHead(404).end())(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The parent runs the sandbox; the handler needs only its URL.
  const sandbox = { baseUrl: serviceUrl } as Merchant['sandbox'];
  running.merchant = await startMerchant(origin, { store, sandbox });
  process.send?.({ url: origin });
  process.on('disconnect', () => process.exit(0));
}

if (process.env.BENCH_MERCHANT_WORKER === '1') {
  worker().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
