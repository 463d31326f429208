/**
 * A locked table costs a request one deadline at most: a store's first calls while its tables are being
 * set up (a migration waits on a lock) fail at the call's own deadline, not the set-up's longer one; and
 * books of one order queued in a process behind a locked table are not each made to wait one deadline
 * more. On a real PostgreSQL server.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { createPaymentHandler } from '../../../../src/server/handler.js';
import { startSandbox } from '../../../../src/sandbox/index.js';
import { StoreUnavailableError } from '../../../../src/server/store-errors.js';
import { freshDatabase, stopServer } from './pg-server.js';

describe('PostgreSQL store: a locked table bounds every request by one deadline', () => {
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

  test('books of one order queued in a process behind a locked table: the first meets the deadline, the rest are answered IP-503 without a store call each', async () => {
    const url = await freshDatabase();
    // The pool as docs/server.md sets it up.
    const pool = new pg.Pool({ connectionString: url, max: 10, statement_timeout: 5_000 });
    pool.on('error', () => {});
    pools.push(pool);
    let begun = 0;
    const store = createPostgresStore(
      {
        query: (text: string, params?: unknown[]) => {
          if (text.includes('begin_booking(')) begun++;
          return pool.query(text, params);
        },
      },
      { deadlineMs: 500 },
    );
    await store.ready();
    const sandbox = await startSandbox({ accessKey: 'locked-key', productCode: 'LOCK01' });
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      const handler = createPaymentHandler({
        serviceUrl: sandbox.baseUrl,
        productCode: 'LOCK01',
        accessKey: 'locked-key',
        callbackUrl: 'http://127.0.0.1:9/callback',
        redirectUrl: 'http://127.0.0.1:9/done',
        store,
        lookupOrder: (order) => ({ id: String(order.id), amount: 10 }),
        onPaymentResult: () => undefined,
      });
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE wpb_bookings IN ACCESS EXCLUSIVE MODE');
      begun = 0;
      const answers = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const response = await handler(
            new Request('http://merchant.test/api/pay/book', {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'idempotency-key': `locked-${crypto.randomUUID()}` },
              body: JSON.stringify({ channel: 'app', order: { id: 'LOCKED-1' } }),
            }),
          );
          return ((await response.json()) as { code: string }).code;
        }),
      );
      assert.deepEqual(answers, Array(8).fill('IP-503'));
      assert.equal(begun, 1, 'one book met the locked table; the ones queued behind it did not wait for it each');
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end();
      await sandbox.close();
    }
  });
});
