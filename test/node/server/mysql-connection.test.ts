/**
 * The MySQL store's connection on a stand-in pool (pure logic: what it does with the driver's answers).
 * A statement the server ends as a deadlock victim is tried again after a short wait; one that keeps
 * deadlocking is an outage (`StoreUnavailableError`, IP-503 to a shopper), never a raw driver error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../../../src/server/mysql-connection.js';
import { MYSQL_SCHEMA_VERSION } from '../../../src/server/mysql-schema.js';
import { StoreUnavailableError } from '../../../src/server/store-errors.js';

/** A pool that answers the schema's version, and deadlocks the first `deadlocks` CALLs. */
function pool(deadlocks: number) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    query(sql: string): Promise<[unknown, unknown]> {
      if (sql.startsWith('SELECT version')) return Promise.resolve([[{ version: MYSQL_SCHEMA_VERSION }], []]);
      calls++;
      if (calls <= deadlocks) return Promise.reject(Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' }));
      return Promise.resolve([[{ outcome: 'ok' }], []]);
    },
  };
}

test('a statement that deadlocks a few times is tried again and answers', async () => {
  const stand = pool(3);
  const connection = connect(stand as never, 'wpb_', false, 5_000);
  assert.deepEqual(await connection.run('CALL wpb_claim_open_v4(?)', [1]), [[{ outcome: 'ok' }]]);
  assert.equal(stand.calls, 4);
});

test('a statement that keeps deadlocking is an outage (StoreUnavailableError), not a raw driver error', async () => {
  const stand = pool(100);
  const connection = connect(stand as never, 'wpb_', false, 5_000);
  await assert.rejects(connection.run('CALL wpb_claim_open_v4(?)', [1]), (error: unknown) => {
    assert.ok(error instanceof StoreUnavailableError, String(error));
    assert.match((error as Error).message, /deadlock after 5 tries/);
    return true;
  });
  assert.equal(stand.calls, 5);
});
