import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../src/server/store.js';
import type { StoredBooking } from '../../src/server/store.js';

const booking = (n: number): StoredBooking => ({
  booking_id: `bk-${n}`,
  correlation_id: `cr-${n}`,
  transaction_uuid: `tx-${n}`,
  channel: 'app',
  order: { id: `O-${n}` },
  amount: n,
  deeplink: `http://links.test/pay/bk-${n}`,
  created_at: 0,
});

describe('memory store', () => {
  test('keeps bookings, finds them by correlation id, and hands out copies', async () => {
    const store = createMemoryStore();
    await store.saveBooking(booking(1));
    const found = await store.findBookingByCorrelationId('cr-1');
    assert.deepEqual(found, booking(1));
    found!.amount = 999;
    assert.equal((await store.getBooking('bk-1'))?.amount, 1);
    assert.equal(await store.getBooking('bk-2'), undefined);
    assert.equal(await store.findBookingByCorrelationId('cr-2'), undefined);
  });

  test('remembers idempotency keys and delivered results per status', async () => {
    const store = createMemoryStore();
    await store.saveIdempotencyRecord('k', { fingerprint: 'f', booking_id: 'bk-1' });
    assert.deepEqual(await store.getIdempotencyRecord('k'), { fingerprint: 'f', booking_id: 'bk-1' });
    assert.equal(await store.isResultDelivered('cr-1', 'SUCCESS'), false);
    await store.markResultDelivered('cr-1', 'SUCCESS');
    assert.equal(await store.isResultDelivered('cr-1', 'SUCCESS'), true);
    assert.equal(await store.isResultDelivered('cr-1', 'REVERTED'), false);
  });

  test('drops the oldest entries beyond maxEntries', async () => {
    const store = createMemoryStore({ maxEntries: 3 });
    for (let n = 1; n <= 5; n++) await store.saveBooking(booking(n));
    assert.equal(await store.getBooking('bk-1'), undefined);
    assert.equal(await store.getBooking('bk-2'), undefined);
    assert.equal((await store.getBooking('bk-3'))?.amount, 3);
    assert.equal((await store.getBooking('bk-5'))?.amount, 5);
  });

  test('forgets entries after ttlMs', async () => {
    let now = 1_000;
    const store = createMemoryStore({ ttlMs: 100, now: () => now });
    await store.saveIdempotencyRecord('k', { fingerprint: 'f', booking_id: 'bk-1' });
    await store.saveBooking(booking(1));
    now += 99;
    assert.ok(await store.getIdempotencyRecord('k'));
    now += 1;
    assert.equal(await store.getIdempotencyRecord('k'), undefined);
    assert.equal(await store.getBooking('bk-1'), undefined);
    assert.equal(await store.findBookingByCorrelationId('cr-1'), undefined);
  });

  test('refuses bounds that make no sense', () => {
    assert.throws(() => createMemoryStore({ maxEntries: 0 }), /maxEntries must be a positive integer/);
    assert.throws(() => createMemoryStore({ ttlMs: -1 }), /ttlMs must be a positive number/);
  });
});
