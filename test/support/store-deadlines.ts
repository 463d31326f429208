/**
 * What the deadline tests of the SQL stores (PostgreSQL, MySQL) share: expecting a store call to fail
 * with StoreUnavailableError of a reason, the test of tables locked past the deadline, the two tests of
 * a server that is stopped and started again under a store, the test of a pool whose every connection
 * is busy, and the refusal of a deadline that makes no sense.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreUnavailableError } from '../../src/server/store-errors.js';
import { sampleBooking as booking } from '../../src/server/store-suite.js';
import type { PaymentStore } from '../../src/server/store.js';

/** Runs `call`, expecting StoreUnavailableError of one of `reasons`; answers how long it took. */
export async function unavailable(call: () => Promise<unknown>, ...reasons: Array<'deadline' | 'unreachable'>): Promise<number> {
  const started = Date.now();
  await assert.rejects(call(), (error: unknown) => {
    assert.ok(error instanceof StoreUnavailableError, `not a StoreUnavailableError: ${String(error)}`);
    assert.ok(reasons.includes(error.reason), `reason ${error.reason}, not ${reasons.join(' or ')}: ${error.message}`);
    return true;
  });
  return Date.now() - started;
}

/**
 * Registers, inside the caller's describe: the server stopped under a working store (calls fail
 * "unreachable" within the deadline; started again, the same store works), and a store created while
 * the server is down (it fails "unreachable", then sets itself up once the server is back).
 * `store(prefix)` makes a store on a new pool with a 3 s deadline; `server()` is the throwaway server.
 */
export function serverDownTests(store: (tablePrefix: string) => PaymentStore, server: () => { pause(): Promise<void>; resume(): Promise<void> }): void {
  test('the server stopped: calls fail with reason "unreachable" at once; started again, the same store works', async () => {
    const down = store('down_');
    await down.insertBooking({ booking: booking(1) });
    await server().pause();
    try {
      const tookMs = await unavailable(() => down.getBookingByKey({ key: 'key-1' }), 'unreachable');
      assert.ok(tookMs < 3_000, `failed after ${tookMs} ms`);
      await unavailable(() => down.beginBooking({ key: 'key-2', orderKey: 'o', lease: 'order:o', owner: 'a', leaseMs: 2 }), 'unreachable');
    } finally {
      await server().resume();
    }
    assert.equal((await down.getBookingByKey({ key: 'key-1' }))?.booking_id, 'bk-1');
  });

  test('a store created while the server is down fails "unreachable", then sets itself up once it is back', async () => {
    await server().pause();
    const late = store('late_');
    try {
      await unavailable(() => late.getBookingByKey({ key: 'key-1' }), 'unreachable');
    } finally {
      await server().resume();
    }
    assert.equal(await late.insertBooking({ booking: booking(1) }), 'saved');
  });
}

/**
 * Registers the test of a pool whose every connection is held past the deadline (reason "deadline",
 * and the store works once one is free): `oneConnection()` makes a store with a 400 ms deadline on a
 * pool of one connection, and `hold()` takes that connection.
 */
export function busyPoolTest(oneConnection: () => { store: PaymentStore & { ready(): Promise<void> }; hold(): Promise<{ release(): void }> }): void {
  test('every pool connection busy past the deadline: reason "deadline"', async () => {
    const { store, hold } = oneConnection();
    await store.ready();
    const held = await hold();
    try {
      const tookMs = await unavailable(() => store.getBookingByKey({ key: 'key-1' }), 'deadline');
      assert.ok(tookMs < 2_000, `failed after ${tookMs} ms`);
    } finally {
      held.release();
    }
    assert.equal(await store.getBookingByKey({ key: 'key-1' }), undefined, 'works again');
  });
}

/**
 * Registers the test of tables locked by another connection past the deadline: each kind of call fails
 * "deadline" at it, and the store works once the lock is gone. `lock()` makes a store with a 400 ms
 * deadline, saves booking 1 in it, then locks its tables from a connection of its own and answers how
 * to let them go.
 */
export function lockedTablesTest(lock: () => Promise<{ store: PaymentStore; unlock(): Promise<void> }>): void {
  test('tables locked past the deadline: every kind of call fails with reason "deadline" at the deadline, and works once the lock is gone', async () => {
    const { store, unlock } = await lock();
    try {
      const calls: Array<() => Promise<unknown>> = [
        () => store.getBookingState({ bookingId: 'bk-1' }),
        () => store.beginBooking({ key: 'key-2', orderKey: 'o', lease: 'order:o', owner: 'a', leaseMs: 2 }),
        () => store.insertBooking({ booking: booking(2), hold: { lease: 'order:o', owner: 'a', token: 1 } }),
        () => store.claimResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'a', leaseMs: 2 }),
        () => store.getResults({ correlationId: 'cr-1' }),
        () => store.renewLease({ lease: 'order:o', owner: 'a', token: 1, leaseMs: 2 }),
      ];
      for (const call of calls) {
        const tookMs = await unavailable(call, 'deadline');
        assert.ok(tookMs >= 350 && tookMs < 2_000, `failed after ${tookMs} ms`);
      }
    } finally {
      await unlock();
    }
    assert.equal((await store.getBookingByKey({ key: 'key-1' }))?.booking_id, 'bk-1', 'works again');
  });
}

/** Registers the test that `create` (a store's constructor given `{ deadlineMs }`) refuses a deadline of 0. */
export function deadlineRefusalTest(create: (options: { deadlineMs: number }) => unknown): void {
  test('refuses a deadline that makes no sense', () => {
    assert.throws(() => create({ deadlineMs: 0 }), /deadlineMs must be a positive number/);
  });
}
