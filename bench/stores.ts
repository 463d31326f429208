/**
 * Server figures with the MySQL and Redis stores, each on a throwaway local server (scripts/mariadb.mjs,
 * scripts/redis.mjs, the latter with the durable settings docs/server.md names): the round trips a
 * booking costs (every query or CALL, every EVALSHA or EVAL, counted by a counting client), the
 * handler's added latency over calling the sandbox directly, and bookings per second against the
 * memory store, measured as bench/postgres.ts measures the PostgreSQL store; and the round trips of a
 * new booking made through each provider (bench/round-trips.ts).
 */
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { startMariadb } from '../scripts/mariadb.mjs';
import { startRedis } from '../scripts/redis.mjs';
import { startSandbox } from '../src/sandbox/index.js';
import { createMemoryStore } from '../src/server/memory-store.js';
import { createMysqlStore } from '../src/server/mysql.js';
import { createRedisStore } from '../src/server/redis.js';
import type { PaymentStore } from '../src/server/store.js';
import { countingMysql, countingRedis } from '../test/support/counting.js';
import { BENCH_ACCESS_KEY, BENCH_PRODUCT_CODE, startMerchant, type Merchant } from './merchant.js';
import { pairedRound, POSTGRES_DEFAULTS, serve, type PostgresBenchOptions, type RoundSide } from './postgres.js';
import { providerRoundTrips, type ProviderRoundTrips, type RoundTripCounter } from './round-trips.js';
import { measureLatency } from './server.js';
import { repeat, summarize, type Summary } from './stats.js';

/** The stores measured here. */
export type BenchedStore = 'mysql' | 'redis';

/** One store's figures. */
export interface StoreBenchResults {
  store: BenchedStore;
  /** Round trips per new booking over every booking of the throughput rounds, lease renewals apart. */
  roundTripsPerBooking: number;
  /** Order lease renewals per booking (books slower than 1 s renew once a second). */
  renewalsPerBooking: number;
  bookings: number;
  /** Per round: handler p50 (p99) minus direct p50 (p99), in ms. */
  addedP50Ms: Summary;
  addedP99Ms: Summary;
  handlerP50Ms: Summary;
  concurrentClients: number;
  storePerSecond: Summary;
  memoryPerSecond: Summary;
  /** Per round: this store's rate over the memory store's. */
  ratio: Summary;
  bookingErrors: number;
  bookingsAttempted: number;
  /** Round trips per new booking through each provider on this store. */
  providers: ProviderRoundTrips[];
}

interface Opened {
  store: PaymentStore & { ready(): Promise<void> };
  counting: RoundTripCounter;
  close(): Promise<void>;
}

async function open(kind: BenchedStore): Promise<Opened> {
  if (kind === 'mysql') {
    const server = await startMariadb();
    const pool = mysql.createPool({ uri: server.uri, connectionLimit: 10 });
    await pool.query('CREATE DATABASE bench');
    await pool.end();
    const benchPool = mysql.createPool({ uri: `${server.uri}bench`, connectionLimit: 10 });
    const counting = countingMysql(benchPool);
    return {
      store: createMysqlStore(counting.db),
      counting,
      async close() {
        await benchPool.end();
        await server.stop();
      },
    };
  }
  const server = await startRedis();
  const client = new Redis(server.url);
  const counting = countingRedis(client);
  return {
    store: createRedisStore(counting.db),
    counting,
    async close() {
      client.disconnect();
      await server.stop();
    },
  };
}

/** Runs one store's measures on a throwaway server of its own. */
export async function benchStore(kind: BenchedStore, options: PostgresBenchOptions = POSTGRES_DEFAULTS): Promise<StoreBenchResults> {
  const o = options;
  const opened = await open(kind);
  const merchants: { store?: Merchant; memory?: Merchant } = {};
  const storeKit = await serve(() => merchants.store);
  const memoryKit = await serve(() => merchants.memory);
  const sandbox = await startSandbox({ accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE });
  try {
    await opened.store.ready();
    let renewals = 0;
    // Renewals counted at the store: each is one round trip of its own, beside the booking's.
    const store = Object.assign(Object.create(opened.store) as PaymentStore, {
      renewLease: (renewal: Parameters<PaymentStore['renewLease']>[0]) => {
        renewals++;
        return opened.store.renewLease(renewal);
      },
    });
    merchants.store = await startMerchant(storeKit.url, { store, sandbox });
    merchants.memory = await startMerchant(memoryKit.url, { store: createMemoryStore({ maxEntries: 1_000_000 }), sandbox });
    const latency = await measureLatency(merchants.store, storeKit.url, o);

    const counts = { attempted: 0, errors: 0 };
    let bookings = 0;
    let roundTrips = 0;
    let renewed = 0;
    let round = 0;
    const rounds = await repeat(o.warmupRounds, o.throughputRounds, async () => {
      const memory: RoundSide = { url: memoryKit.url };
      const measured: RoundSide = {
        url: storeKit.url,
        before() {
          opened.counting.reset();
          renewals = 0;
        },
        after(made) {
          renewed += renewals;
          roundTrips += opened.counting.count - renewals;
          bookings += made;
        },
      };
      const rate = await pairedRound(memory, measured, o, counts, round++ % 2 === 1);
      return { memory: rate.a, store: rate.b };
    });
    const providers = await providerRoundTrips(opened.store, opened.counting, sandbox, { concurrentClients: o.concurrentClients, bookingsPerClient: o.roundTripBookingsPerClient });

    return {
      store: kind,
      roundTripsPerBooking: roundTrips / bookings,
      renewalsPerBooking: renewed / bookings,
      bookings,
      addedP50Ms: summarize(latency.map((r) => r.handler.median - r.direct.median)),
      addedP99Ms: summarize(latency.map((r) => r.handler.p99 - r.direct.p99)),
      handlerP50Ms: summarize(latency.map((r) => r.handler.median)),
      concurrentClients: o.concurrentClients,
      storePerSecond: summarize(rounds.map((r) => r.store)),
      memoryPerSecond: summarize(rounds.map((r) => r.memory)),
      ratio: summarize(rounds.map((r) => r.store / r.memory)),
      bookingErrors: counts.errors + merchants.store.errors.length + merchants.memory.errors.length,
      bookingsAttempted: counts.attempted,
      providers,
    };
  } finally {
    await merchants.store?.close();
    await merchants.memory?.close();
    await sandbox.close();
    await storeKit.close();
    await memoryKit.close();
    await opened.close();
  }
}

/** The MySQL and the Redis store, one after the other. */
export async function benchStores(options: PostgresBenchOptions = POSTGRES_DEFAULTS): Promise<StoreBenchResults[]> {
  return [await benchStore('mysql', options), await benchStore('redis', options)];
}
