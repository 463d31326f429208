import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../../src/server/store.js';
import type { StoredBooking } from '../../../src/server/store.js';

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

  test('lists the open bookings made at or before a time: not the settled, not the newer, not the expired', async () => {
    let now = 1_000;
    const store = createMemoryStore({ ttlMs: 10_000, now: () => now });
    await store.saveBooking({ ...booking(1), created_at: 100 });
    await store.saveBooking({ ...booking(2), created_at: 200 });
    now = 5_000;
    await store.saveBooking({ ...booking(3), created_at: 900 });
    await store.markResultDelivered('cr-2', 'FAILED');
    const ids = async (before: number) => (await store.listOpenBookings!(before)).map((b) => b.booking_id);
    assert.deepEqual(await ids(500), ['bk-1']);
    assert.deepEqual(await ids(100), ['bk-1'], 'made at the very time counts (a pass with olderThanMs 0)');
    assert.deepEqual(await ids(99), []);
    assert.deepEqual(await ids(1_000), ['bk-1', 'bk-3']);
    // A pending (not final) mark does not settle a booking; a later REVERTED is not needed to close it.
    await store.markResultDelivered('cr-1', 'PENDING');
    assert.deepEqual(await ids(1_000), ['bk-1', 'bk-3']);
    (await store.listOpenBookings!(1_000))[0]!.amount = 999;
    assert.equal((await store.getBooking('bk-1'))?.amount, 1, 'copies, not the stored objects');
    // bk-1 was kept at 1 000 for 10 000 ms; bk-3 at 5 000.
    now = 11_500;
    assert.deepEqual(await ids(20_000), ['bk-3'], 'expired bookings are gone');
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
