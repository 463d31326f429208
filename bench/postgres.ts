/**
 * Server figures with the PostgreSQL store, on a throwaway local PostgreSQL server (scripts/postgres.mjs):
 * the database round trips a booking costs (counted by a counting pool around the real pg Pool), the
 * handler's added latency over calling the sandbox directly (p50, p99), and bookings per second with
 * the PostgreSQL store against the memory store, both handlers in the benchmark's own process, 8
 * clients at a time, measured round by round against one shared sandbox; and the round trips of a
 * new booking made through each provider (bench/round-trips.ts).
 */
import pg from 'pg';
import { startPostgres } from '../scripts/postgres.mjs';
import { startSandbox } from '../src/sandbox/index.js';
import { createMemoryStore } from '../src/server/memory-store.js';
import { createPostgresStore } from '../src/server/postgres.js';
import { countingPostgres } from '../test/support/counting.js';
import { listen, type Loopback } from '../test/node/server/helpers.js';
import { BENCH_ACCESS_KEY, BENCH_PRODUCT_CODE, startMerchant, withPayRoutes, type Merchant } from './merchant.js';
import { providerRoundTrips, type ProviderRoundTrips } from './round-trips.js';
import { bookThroughHandler, measureLatency } from './server.js';
import { repeat, summarize, type Summary } from './stats.js';

/** How much work each measure does. */
export interface PostgresBenchOptions {
  latencyPairsPerRound: number;
  warmupRounds: number;
  rounds: number;
  /** Clients booking at once in the throughput comparison. */
  concurrentClients: number;
  bookingsPerClient: number;
  throughputRounds: number;
  /** Bookings per client, {@link concurrentClients} at a time, each provider makes for its round-trip count. */
  roundTripBookingsPerClient: number;
}

export const POSTGRES_DEFAULTS: PostgresBenchOptions = {
  latencyPairsPerRound: 400,
  warmupRounds: 1,
  rounds: 5,
  concurrentClients: 8,
  // Short rounds, many of them: on a shared machine, load drifts within seconds, and each round's
  // ratio compares the two stores under the same drift.
  bookingsPerClient: 15,
  throughputRounds: 31,
  roundTripBookingsPerClient: 5,
};

/** The PostgreSQL figures. */
export interface PostgresResults {
  /**
   * Database round trips (queries and connects) per new booking, over every booking of the throughput
   * rounds, without the renewals of order leases (those come on top, once a second, for a book that
   * takes longer than a second: {@link renewalsPerBooking}).
   */
  roundTripsPerBooking: number;
  /** Order lease renewals per booking: slow books only (on a loaded machine, some are). */
  renewalsPerBooking: number;
  /** Bookings the round trips were counted over. */
  postgresBookings: number;
  /** Per round: handler p50 (p99) minus direct p50 (p99), in ms, with the PostgreSQL store. */
  addedP50Ms: Summary;
  addedP99Ms: Summary;
  directP50Ms: Summary;
  handlerP50Ms: Summary;
  concurrentClients: number;
  /** Bookings per second with the PostgreSQL store. */
  postgresPerSecond: Summary;
  /** Bookings per second with the memory store, in the same process and the same rounds. */
  memoryPerSecond: Summary;
  /** Per round: the PostgreSQL rate over the memory store's rate. */
  ratio: Summary;
  bookingErrors: number;
  bookingsAttempted: number;
  /** Round trips per new booking through each provider on this store. */
  providers: ProviderRoundTrips[];
}

/** `clients` concurrent clients book through `url`, each `perClient` times; the seconds it took. */
async function timedLoad(url: string, clients: number, perClient: number, counts: { attempted: number; errors: number }): Promise<number> {
  const start = performance.now();
  const client = async () => {
    for (let i = 0; i < perClient; i++) {
      counts.attempted++;
      await bookThroughHandler(url).catch(() => {
        counts.errors++;
      });
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return (performance.now() - start) / 1000;
}

/** What one store of a {@link pairedRound} is: where its handler listens, and what to do around each of its slices. */
export interface RoundSide {
  url: string;
  /** Called before each slice of this side's (to reset a round-trip counter, say). */
  before?(): void;
  /** Called after each slice with the bookings it made. */
  after?(bookings: number): void;
}

/**
 * One throughput round of two stores on the same clients: each books half its share, then the other
 * twice its half, then the first again (A B B A; B A A B on `flip`), so a load that drifts within the
 * round weighs on both alike (a plain A then B pair lets the machine's drift decide the ratio). Each
 * rate is the bookings of its two slices over their time.
 */
export async function pairedRound(a: RoundSide, b: RoundSide, o: PostgresBenchOptions, counts: { attempted: number; errors: number }, flip: boolean): Promise<{ a: number; b: number }> {
  const half = Math.ceil(o.bookingsPerClient / 2);
  const seconds = { a: 0, b: 0 };
  const order: Array<'a' | 'b'> = flip ? ['b', 'a', 'a', 'b'] : ['a', 'b', 'b', 'a'];
  for (const which of order) {
    const side = which === 'a' ? a : b;
    side.before?.();
    seconds[which] += await timedLoad(side.url, o.concurrentClients, half, counts);
    side.after?.(o.concurrentClients * half);
  }
  const bookings = 2 * o.concurrentClients * half;
  return { a: bookings / seconds.a, b: bookings / seconds.b };
}

/** A merchant handler on its own loopback server. */
export async function serve(merchantOf: () => Merchant | undefined): Promise<Loopback> {
  return listen((request, response) => {
    const merchant = merchantOf();
    if (!merchant) response.writeHead(503).end();
    else withPayRoutes(merchant, (_req, res) => res.writeHead(404).end())(request, response);
  });
}

/** Runs the PostgreSQL measures on a throwaway server. */
export async function benchPostgres(options: PostgresBenchOptions = POSTGRES_DEFAULTS): Promise<PostgresResults> {
  const o = options;
  const server = await startPostgres();
  const pool = new pg.Pool({ connectionString: server.url, max: 10 });
  // An idle client told of the server's shutdown emits 'error' on the pool (node-postgres' docs: handle it).
  pool.on('error', () => {});
  const counting = countingPostgres(pool);
  const merchants: { postgres?: Merchant; memory?: Merchant } = {};
  const postgresKit = await serve(() => merchants.postgres);
  const memoryKit = await serve(() => merchants.memory);
  const sandbox = await startSandbox({ accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE });
  try {
    const store = createPostgresStore(counting.db);
    await store.ready();
    merchants.postgres = await startMerchant(postgresKit.url, { store, sandbox });
    merchants.memory = await startMerchant(memoryKit.url, { store: createMemoryStore({ maxEntries: 1_000_000 }), sandbox });
    const latency = await measureLatency(merchants.postgres, postgresKit.url, o);

    const counts = { attempted: 0, errors: 0 };
    let postgresBookings = 0;
    let postgresRoundTrips = 0;
    let renewals = 0;
    let round = 0;
    const rounds = await repeat(o.warmupRounds, o.throughputRounds, async () => {
      const memory: RoundSide = { url: memoryKit.url };
      const postgres: RoundSide = {
        url: postgresKit.url,
        before: () => counting.reset(),
        after(bookings) {
          // A renewal is the lease statement on its own (renewLease); a book's first statement is the function.
          const renewed = counting.statements.filter((text) => /^UPDATE \w*leases/.test(text)).length;
          renewals += renewed;
          postgresRoundTrips += counting.count - renewed;
          postgresBookings += bookings;
        },
      };
      const rate = await pairedRound(memory, postgres, o, counts, round++ % 2 === 1);
      return { memory: rate.a, postgres: rate.b };
    });
    const providers = await providerRoundTrips(store, counting, sandbox, { concurrentClients: o.concurrentClients, bookingsPerClient: o.roundTripBookingsPerClient });

    return {
      roundTripsPerBooking: postgresRoundTrips / postgresBookings,
      renewalsPerBooking: renewals / postgresBookings,
      postgresBookings,
      addedP50Ms: summarize(latency.map((r) => r.handler.median - r.direct.median)),
      addedP99Ms: summarize(latency.map((r) => r.handler.p99 - r.direct.p99)),
      directP50Ms: summarize(latency.map((r) => r.direct.median)),
      handlerP50Ms: summarize(latency.map((r) => r.handler.median)),
      concurrentClients: o.concurrentClients,
      postgresPerSecond: summarize(rounds.map((r) => r.postgres)),
      memoryPerSecond: summarize(rounds.map((r) => r.memory)),
      ratio: summarize(rounds.map((r) => r.postgres / r.memory)),
      bookingErrors: counts.errors + merchants.postgres.errors.length + merchants.memory.errors.length,
      bookingsAttempted: counts.attempted,
      providers,
    };
  } finally {
    await pool.end();
    await merchants.postgres?.close();
    await merchants.memory?.close();
    await sandbox.close();
    await postgresKit.close();
    await memoryKit.close();
    await server.stop();
  }
}
