/**
 * A control character (U+0000 to U+001F, U+007F) in any id a route reads (`booking_id`,
 * `correlation_id`, the ids inside `order`) is IP-421 (HTTP 400) naming the field, before the store or
 * `lookupOrder` is asked: on every route, on the memory store and on PGlite here (a PostgreSQL server: postgres/control-ids).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PGlite } from '@electric-sql/pglite';
import { createMemoryStore, type PaymentStore } from '../../../src/server/index.js';
import { createPostgresStore } from '../../../src/server/postgres.js';
import { openShop } from './shop.js';

/** The memory store, with every call counted. */
function countingStore(): { store: PaymentStore; calls: () => number } {
  const inner = createMemoryStore();
  let calls = 0;
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls: () => calls };
}

/** Every control character, and the ones around them that are no control characters. */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, code) => code), 0x7f].map((code) => String.fromCharCode(code));

test('a control character in booking_id, correlation_id or an id inside order is IP-421 (HTTP 400) naming the field, before any store call or lookup', async () => {
  const { store, calls } = countingStore();
  let lookups = 0;
  const shop = await openShop({
    store,
    lookupOrder: (order) => {
      lookups++;
      return { id: String(order.id), amount: 500 };
    },
  });
  try {
    const booked = await shop.book('app', 'C-1');
    const before = { calls: calls(), lookups };
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id };
    const key = () => ({ 'idempotency-key': crypto.randomUUID() });
    const cases: Array<[string, unknown, string, Record<string, string>?]> = [];
    for (const c of CONTROLS) {
      cases.push(['status', { ...ids, booking_id: `BK-1${c}` }, 'booking_id']);
      cases.push(['cancel', { ...ids, correlation_id: `${c}${booked.correlation_id}` }, 'correlation_id']);
      cases.push(['order', { order: { id: `C-1${c}` } }, 'order.id']);
      cases.push(['book', { channel: 'app', order: { id: `C${c}1` } }, 'order.id', key()]);
    }
    cases.push(['book', { channel: 'web', order: { id: 'C-2', lines: [{ sku_id: 'S\u00001' }] } }, 'order.lines[0].sku_id', key()]);
    cases.push(['order', { order: { id: 'C-2', customerId: 'u\u007f' } }, 'order.customerId']);
    cases.push(['status', { ...ids, receipt: 'r', order: { id: 'C-1', shop: { id: '\u0000' } } }, 'order.shop.id']);
    for (const [route, body, field, headers] of cases) {
      const answer = await shop.post(route, body, headers);
      assert.deepEqual([answer.status, answer.body.code], [400, 'IP-421'], `${route} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
      assert.ok(answer.body.error_message?.startsWith(`"${field}" must not contain a control character`), answer.body.error_message);
    }
    assert.deepEqual({ calls: calls(), lookups }, before, 'no store call and no lookup for a refused id');
    assert.deepEqual(shop.errors, [], 'a client mistake is not the merchant\'s error');
    // Text that is no id may hold them (a note with a line break), and ids without one go on as before.
    const fine = await shop.post('order', { order: { id: 'C-1', note: 'line 1\nline 2' } });
    assert.deepEqual(fine.body.data, { paid: false, status: 'BOOKED' });
    assert.equal((await shop.post('status', ids)).body.data?.status, 'BOOKED');
  } finally {
    await shop.close();
  }
});

test('PGlite store: a NUL in each id field of /book, /status, /cancel and /order is HTTP 400 naming the field, never a 500', async () => {
  const db = new PGlite();
  const shop = await openShop({ store: createPostgresStore(db) });
  try {
    const booked = await shop.book('app', 'PGL-1');
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id };
    for (const [route, body, field, headers] of [
      ['book', { channel: 'app', order: { id: 'PGL\u00002' } }, 'order.id', { 'idempotency-key': crypto.randomUUID() }],
      ['status', { ...ids, booking_id: `${booked.booking_id}\u0000` }, 'booking_id'],
      ['status', { ...ids, correlation_id: `\u0000${booked.correlation_id}` }, 'correlation_id'],
      ['cancel', { ...ids, booking_id: `\u0000` }, 'booking_id'],
      ['cancel', { ...ids, correlation_id: `${booked.correlation_id}\u0000` }, 'correlation_id'],
      ['order', { order: { id: 'PGL-1\u0000' } }, 'order.id'],
    ] as Array<[string, unknown, string, Record<string, string>?]>) {
      const answer = await shop.post(route, body, headers);
      assert.deepEqual([answer.status, answer.body.code], [400, 'IP-421'], `${route} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
      assert.ok(answer.body.error_message?.startsWith(`"${field}" must not contain a control character`), answer.body.error_message);
    }
    assert.deepEqual(shop.errors, [], 'nothing for the merchant\'s error log');
    assert.equal((await shop.post('status', ids)).body.data?.status, 'BOOKED', 'the store goes on answering');
  } finally {
    await shop.close();
    await db.close();
  }
});
