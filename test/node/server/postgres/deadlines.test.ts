/**
 * Every call of the PostgreSQL store has a deadline: a database that is late (a table lock held by
 * another connection, a statement the server cancels) or gone (the server stopped) makes the call
 * fail with StoreUnavailableError within its time, not hang; once the database is back, the store
 * works again. On a throwaway PostgreSQL server of this file's own, since it is stopped and started.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startPostgres, type ThrowawayPostgres } from '../../../../scripts/postgres.mjs';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { sampleBooking as booking } from '../../../../src/server/store-suite.js';
import { busyPoolTest, serverDownTests, unavailable } from '../../../support/store-deadlines.js';

describe('PostgreSQL store: deadlines and an unreachable database', () => {
  let server: ThrowawayPostgres;
  const pools: pg.Pool[] = [];
  const newPool = (config: pg.PoolConfig = {}) => {
    const pool = new pg.Pool({ connectionString: server.url, max: 4, ...config });
    pool.on('error', () => {});
    pools.push(pool);
    return pool;
  };

  before(async () => {
    server = await startPostgres();
  });
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
    await server?.stop();
  });

  test('a table lock held past the deadline: every kind of call fails with reason "deadline" at the deadline, and works once the lock is gone', async () => {
    const store = createPostgresStore(newPool(), { tablePrefix: 'lock_', deadlineMs: 400 });
    // The tables first, in set-up's own longer time: a first call waits on set-up only 400 ms, too
    // short for a dozen statements on a busy machine.
    await store.ready();
    await store.insertBooking({ booking: booking(1) });
    const locker = new pg.Client({ connectionString: server.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE lock_bookings, lock_leases, lock_results IN ACCESS EXCLUSIVE MODE');
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
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
    assert.equal((await store.getBookingByKey({ key: 'key-1' }))?.booking_id, 'bk-1', 'works again');
  });

  test("the server's own statement_timeout (a pool set up as the docs say) counts as the deadline too", async () => {
    const store = createPostgresStore(newPool({ statement_timeout: 300 }), { tablePrefix: 'st_', deadlineMs: 5_000 });
    await store.ready();
    const locker = new pg.Client({ connectionString: server.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE st_bookings IN ACCESS EXCLUSIVE MODE');
      const tookMs = await unavailable(() => store.getBookingByKey({ key: 'key-1' }), 'deadline');
      assert.ok(tookMs < 2_000, `failed after ${tookMs} ms`);
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
  });

  serverDownTests((tablePrefix) => createPostgresStore(newPool(), { tablePrefix, deadlineMs: 3_000 }), () => server);

  busyPoolTest(() => {
    const pool = newPool({ max: 1 });
    return { store: createPostgresStore(pool, { tablePrefix: 'busy_', deadlineMs: 400 }), hold: () => pool.connect() };
  });

  test('refuses a deadline that makes no sense', () => {
    assert.throws(() => createPostgresStore(newPool(), { deadlineMs: 0 }), /deadlineMs must be a positive number/);
  });
});
