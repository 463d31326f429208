/**
 * A store's first calls while its tables are being set up (a migration waits on a lock another
 * connection holds) fail at the call's own deadline, not the set-up's longer one; the set-up goes on
 * and the store works once it is done. On a real PostgreSQL server.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { StoreUnavailableError } from '../../../../src/server/store-errors.js';
import { freshDatabase, stopServer } from './pg-server.js';

describe('PostgreSQL store: the first calls during the table set-up', () => {
  const pools: pg.Pool[] = [];
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
    await stopServer();
  });

  test('a first call waits for the set-up no longer than its deadlineMs; once the lock is gone the same store works', async () => {
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on('error', () => {});
    pools.push(pool);
    await createPostgresStore(pool, { tablePrefix: 'su_' }).ready();
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE su_meta IN ACCESS EXCLUSIVE MODE');
      const store = createPostgresStore(pool, { tablePrefix: 'su_', deadlineMs: 300 });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<'waited'>((resolve) => (timer = setTimeout(() => resolve('waited'), 10_000)));
      const outcome = await Promise.race([
        store.getBookingByKey({ key: 'k' }).then(
          () => 'answered',
          (error: unknown) => error,
        ),
        limit,
      ]);
      clearTimeout(timer);
      assert.notEqual(outcome, 'waited', 'the first call still waited for the set-up while the lock was held');
      assert.ok(outcome instanceof StoreUnavailableError && outcome.reason === 'deadline', String(outcome));
      await locker.query('COMMIT');
      assert.equal(await store.getBookingByKey({ key: 'k' }), undefined);
    } finally {
      await locker.end();
    }
  });
});
