/**
 * A NUL or other control character in an id is IP-421 (HTTP 400) on a PostgreSQL store too: PostgreSQL refuses a
 * NUL in text ("invalid byte sequence for encoding UTF8: 0x00"), which reached the shopper as a 500. A
 * throwaway PostgreSQL server (pg-server.ts), the handler on the sandbox.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { openShop } from '../shop.js';
import { freshDatabase, stopServer } from './pg-server.js';

const pools: pg.Pool[] = [];
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await stopServer();
});

test('PostgreSQL store: a NUL or control character in booking_id, correlation_id or order.id is IP-421 (HTTP 400) naming the field, never a 500', async () => {
  const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 4 });
  // An idle client told of the server's shutdown emits 'error' on the pool (node-postgres' docs: handle it).
  pool.on('error', () => {});
  pools.push(pool);
  const shop = await openShop({ store: createPostgresStore(pool) });
  try {
    const booked = await shop.book('app', 'PGC-1');
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id };
    for (const c of ['\u0000', '\u001b', '\u007f']) {
      for (const [route, body, field, headers] of [
        ['status', { ...ids, booking_id: `${booked.booking_id}${c}` }, 'booking_id'],
        ['cancel', { ...ids, correlation_id: `${c}x` }, 'correlation_id'],
        ['order', { order: { id: `PGC-1${c}` } }, 'order.id'],
        ['book', { channel: 'app', order: { id: `PGC${c}2` } }, 'order.id', { 'idempotency-key': crypto.randomUUID() }],
      ] as Array<[string, unknown, string, Record<string, string>?]>) {
        const answer = await shop.post(route, body, headers);
        assert.deepEqual([answer.status, answer.body.code], [400, 'IP-421'], `${route} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
        assert.match(answer.body.error_message ?? '', new RegExp(`^"${field.replace(/[.[\]]/g, '\\$&')}" must not contain a control character`));
      }
    }
    assert.deepEqual(shop.errors, [], 'nothing for the merchant\'s error log');
    assert.equal((await shop.post('status', ids)).body.data?.status, 'BOOKED', 'the store goes on answering');
  } finally {
    await shop.close();
  }
});
