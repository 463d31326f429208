/**
 * The per-provider round-trip count on real parts: the sandbox playing all three providers, the real
 * handler on loopback, the memory store with every call counted (each would be a round trip on a
 * server). Counts are asserted, never timings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '../src/sandbox/index.js';
import { createMemoryStore } from '../src/server/memory-store.js';
import type { PaymentStore } from '../src/server/store.js';
import { BENCH_ACCESS_KEY, BENCH_PRODUCT_CODE, BENCH_PROVIDERS } from './merchant.js';
import { MAX_ROUND_TRIPS, providerRoundTrips, type RoundTripCounter } from './round-trips.js';

const LIMIT_MS = 60_000;

/** A memory store whose calls are counted; `failAfterSample` makes every call fail once the sample was read. */
function countedStore(options: { failAfterSample?: boolean } = {}): { store: PaymentStore; counter: RoundTripCounter } {
  const inner = createMemoryStore();
  let calls: string[] = [];
  let broken = false;
  const store = new Proxy(inner, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        if (broken) return Promise.reject(new Error('the store is down'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const counter: RoundTripCounter = {
    get count() {
      return calls.length;
    },
    get statements() {
      // The sample is read right after the first booking: the bookings after it meet a broken store.
      if (options.failAfterSample) broken = true;
      return [...calls];
    },
    reset() {
      calls = [];
    },
  };
  return { store, counter };
}

test('each provider books through its own handler on the store: a row each, counted over every booking, the first one as the sample', { timeout: LIMIT_MS }, async () => {
  const sandbox = await startSandbox({ accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE });
  try {
    const { store, counter } = countedStore();
    const rows = await providerRoundTrips(store, counter, sandbox, { concurrentClients: 3, bookingsPerClient: 2 });
    assert.deepEqual(rows.map((r) => r.provider), [...BENCH_PROVIDERS]);
    for (const row of rows) {
      assert.equal(row.bookings, 7, `${row.provider}: the first booking and 3 clients x 2`);
      assert.equal(row.bookingErrors, 0, row.provider);
      assert.ok(row.sample.length >= 1 && row.sample.length <= MAX_ROUND_TRIPS, `${row.provider}'s first booking asked: ${row.sample.join(', ')}`);
      assert.ok(row.perBooking >= 1 && row.perBooking <= MAX_ROUND_TRIPS, `${row.provider}: ${row.perBooking} store calls per booking`);
      assert.equal(row.renewalsPerBooking, 0, row.provider);
    }
  } finally {
    await sandbox.close();
  }
});

test('bookings that fail while counted are reported, not counted as bookings', { timeout: LIMIT_MS }, async () => {
  const sandbox = await startSandbox({ accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE });
  try {
    const { store, counter } = countedStore({ failAfterSample: true });
    const [row] = await providerRoundTrips(store, counter, sandbox, { concurrentClients: 2, bookingsPerClient: 2 }, ['esewa-epay']);
    assert.deepEqual([row?.bookings, row?.bookingErrors], [1, 4]);
  } finally {
    await sandbox.close();
  }
});

test('a first booking that fails fails the count, with what the handler answered', { timeout: LIMIT_MS }, async () => {
  const sandbox = await startSandbox({ accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE });
  // Khalti's initiate is a call to the sandbox: with the sandbox gone, the handler cannot book.
  await sandbox.close();
  const { store, counter } = countedStore();
  await assert.rejects(providerRoundTrips(store, counter, sandbox, { concurrentClients: 1, bookingsPerClient: 1 }, ['khalti']), /The handler answered 5\d\d/);
});
