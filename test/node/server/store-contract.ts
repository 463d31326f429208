/**
 * The rules every PaymentStore keeps (see src/server/store.ts), as one suite that runs against the
 * memory store, PGlite and a real PostgreSQL server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PaymentStore, StoredBooking } from '../../../src/server/store.js';

export const booking = (n: number, extra: Partial<StoredBooking> = {}): StoredBooking => ({
  booking_id: `bk-${n}`,
  correlation_id: `cr-${n}`,
  transaction_uuid: `tx-${n}`,
  idempotency_key: `key-${n}`,
  fingerprint: `["app",{"id":"O-${n}"}]`,
  channel: 'app',
  order: { id: `O-${n}`, lines: [{ sku: 'T', qty: 2 }] },
  order_key: `order-${n}`,
  amount: n + 0.5,
  deeplink: `http://links.test/pay/bk-${n}`,
  created_at: 1_000 * n,
  ...extra,
});

/** Registers the contract tests; `fresh` gives an empty store each time. */
export function storeContract(fresh: () => Promise<PaymentStore>): void {
  test('keeps bookings by id, key and correlation id, and hands out equal copies', async () => {
    const store = await fresh();
    assert.equal(await store.insertBooking(booking(1)), true);
    assert.deepEqual(await store.getBooking('bk-1'), booking(1));
    assert.deepEqual(await store.getBookingByKey('key-1'), booking(1));
    const found = await store.findBookingByCorrelationId('cr-1');
    assert.deepEqual(found, booking(1));
    found!.amount = 999;
    assert.equal((await store.getBooking('bk-1'))?.amount, 1.5);
    assert.equal(await store.getBooking('bk-2'), undefined);
    assert.equal(await store.getBookingByKey('key-2'), undefined);
    assert.equal(await store.findBookingByCorrelationId('cr-2'), undefined);
  });

  test('one booking per key: a second insert under the key is refused and changes nothing', async () => {
    const store = await fresh();
    const results = await Promise.all([1, 2, 3, 4].map((n) => store.insertBooking(booking(n, { idempotency_key: 'shared' }))));
    assert.deepEqual(results.filter(Boolean).length, 1);
    const kept = await store.getBookingByKey('shared');
    assert.ok(kept);
    for (const n of [1, 2, 3, 4]) {
      if (`bk-${n}` !== kept.booking_id) assert.equal(await store.getBooking(`bk-${n}`), undefined);
    }
  });

  test('a lease is held by one owner until it ends or is released', async () => {
    const store = await fresh();
    assert.equal(await store.acquireLease('order:x', 'a', 100, 200), true);
    assert.equal(await store.acquireLease('order:x', 'b', 150, 250), false);
    assert.equal(await store.acquireLease('order:x', 'a', 150, 300), true, 'the owner renews');
    assert.equal(await store.acquireLease('order:x', 'b', 301, 400), true, 'taken over once it ended');
    await store.releaseLease('order:x', 'a');
    assert.equal(await store.acquireLease('order:x', 'c', 302, 400), false, "a release by another owner does nothing");
    await store.releaseLease('order:x', 'b');
    assert.equal(await store.acquireLease('order:x', 'c', 303, 400), true);
  });

  test('a result is claimed once, delivered once, released on failure, taken over after its lease', async () => {
    const store = await fresh();
    await store.insertBooking(booking(1));
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'a', 100, 200), 'claimed');
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'b', 150, 250), 'busy');
    assert.equal(await store.claimResult('cr-1', 'REVERTED', 'b', 150, 250), 'claimed', 'another status is another result');
    await store.releaseResult('cr-1', 'SUCCESS', 'a');
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'b', 160, 260), 'claimed', 'released: free again');
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'c', 261, 400), 'claimed', 'b died: taken over after the lease');
    await store.completeResult('cr-1', 'SUCCESS', 'b', 270);
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'd', 300, 600), 'busy', "a dead owner's late completion does not count");
    await store.completeResult('cr-1', 'SUCCESS', 'c', 280);
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'd', 10_000, 20_000), 'delivered');
    await store.releaseResult('cr-1', 'SUCCESS', 'c');
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'd', 10_000, 20_000), 'delivered', 'a delivered result stays delivered');
  });

  test('open bookings: by order, settled by a delivered final result, claimed for checks once per pass', async () => {
    const store = await fresh();
    await store.insertBooking(booking(1, { order_key: 'same' }));
    await store.insertBooking(booking(2, { order_key: 'same' }));
    await store.insertBooking(booking(3));
    assert.deepEqual((await store.getOrderState('same')).open.map((b) => b.booking_id), ['bk-1', 'bk-2']);
    await store.claimResult('cr-1', 'PENDING', 'a', 0, 10);
    await store.completeResult('cr-1', 'PENDING', 'a', 5);
    assert.equal((await store.getOrderState('same')).open.length, 2, 'PENDING does not settle');
    await store.claimResult('cr-1', 'CANCELED', 'a', 0, 10);
    await store.completeResult('cr-1', 'CANCELED', 'a', 5);
    assert.deepEqual((await store.getOrderState('same')).open.map((b) => b.booking_id), ['bk-2']);

    const claim = (owner: string, now: number, notCheckedSince: number, createdBefore = 10_000) =>
      store.claimOpenBookings({ createdBefore, notCheckedSince, limit: 10, owner, now, until: now + 100 }).then((list) => list.map((b) => b.booking_id));
    assert.deepEqual(await claim('a', 5_000, 5_000, 2_000), ['bk-2']);
    assert.deepEqual(await claim('b', 5_001, 5_001), ['bk-3'], 'bk-2 is held by a');
    assert.deepEqual(await claim('a', 5_002, 5_000), [], 'each booking once per pass');
    await store.releaseCheck('bk-2', 'a');
    assert.deepEqual(await claim('b', 5_003, 5_003), ['bk-2'], 'released: the next pass may check it');
    assert.deepEqual(await claim('c', 5_200, 5_200), ['bk-2', 'bk-3'], 'leases ended: another instance takes over');
  });

  test("an order is paid once a SUCCESS of one of its bookings is known, until a refund of it is delivered", async () => {
    const store = await fresh();
    await store.insertBooking(booking(1, { order_key: 'same' }));
    await store.insertBooking(booking(2, { order_key: 'same' }));
    await store.insertBooking(booking(3));
    const state = async (orderKey = 'same') => {
      const { open, paid } = await store.getOrderState(orderKey);
      return { open: open.map((b) => b.booking_id), paid: paid?.booking_id };
    };
    assert.deepEqual(await state(), { open: ['bk-1', 'bk-2'], paid: undefined });
    assert.deepEqual(await state('nothing'), { open: [], paid: undefined });

    await store.claimResult('cr-2', 'SUCCESS', 'a', 100, 200);
    assert.deepEqual(await state(), { open: ['bk-1', 'bk-2'], paid: 'bk-2' }, 'known while its delivery runs');
    await store.releaseResult('cr-2', 'SUCCESS', 'a');
    assert.deepEqual(await state(), { open: ['bk-1', 'bk-2'], paid: undefined }, 'released: open, for the service to answer');
    await store.claimResult('cr-2', 'SUCCESS', 'a', 300, 400);
    await store.completeResult('cr-2', 'SUCCESS', 'a', 310);
    assert.deepEqual(await state(), { open: ['bk-1'], paid: 'bk-2' }, 'delivered: settled, and still paid');
    assert.deepEqual((await store.getOrderState('same')).paid, booking(2, { order_key: 'same' }));
    assert.deepEqual(await state('order-3'), { open: ['bk-3'], paid: undefined }, 'another order is not');

    await store.claimResult('cr-1', 'CANCELED', 'a', 320, 400);
    await store.completeResult('cr-1', 'CANCELED', 'a', 330);
    assert.deepEqual(await state(), { open: [], paid: 'bk-2' }, 'a cancelled booking is not paid');

    await store.claimResult('cr-2', 'REVERTED', 'a', 500, 600);
    assert.deepEqual(await state(), { open: [], paid: 'bk-2' }, 'a refund counts once it is delivered');
    await store.completeResult('cr-2', 'REVERTED', 'a', 510);
    assert.deepEqual(await state(), { open: [], paid: undefined }, 'refunded: payable again');
  });

  test('a book begins in one step: the key\'s booking, or the order\'s lease with the order read under it, or busy', async () => {
    const store = await fresh();
    const start = (key: string, owner: string, now: number, orderKey = 'same') =>
      store.beginBooking({ key, orderKey, lease: `order:${orderKey}`, owner, now, until: now + 100 });
    await store.insertBooking(booking(1, { order_key: 'same' }));
    assert.deepEqual(await start('key-1', 'a', 10), { status: 'booked', booking: booking(1, { order_key: 'same' }) });
    assert.equal(await store.acquireLease('order:same', 'b', 11, 20), true, 'a known key takes no lease');
    await store.releaseLease('order:same', 'b');

    const opened = await start('key-2', 'a', 30);
    assert.equal(opened.status, 'leased');
    assert.deepEqual(opened.status === 'leased' && opened.order.open.map((b) => b.booking_id), ['bk-1']);
    assert.deepEqual(await start('key-3', 'b', 40), { status: 'busy' }, 'another owner waits');
    assert.deepEqual(await start('key-1', 'b', 40), { status: 'booked', booking: booking(1, { order_key: 'same' }) }, 'a known key does not');
    assert.equal((await start('key-2', 'a', 50)).status, 'leased', 'the owner renews');

    // Saved and released in one step: the next book of the order finds the booking under the lease.
    assert.equal(await store.insertBooking(booking(2, { order_key: 'same' }), { lease: 'order:same', owner: 'a' }), true);
    const next = await start('key-3', 'b', 60);
    assert.deepEqual(next.status === 'leased' && next.order.open.map((b) => b.booking_id), ['bk-1', 'bk-2']);
    assert.equal(await store.insertBooking(booking(3, { idempotency_key: 'key-2', order_key: 'same' }), { lease: 'order:same', owner: 'b' }), false, 'a taken key');
    assert.equal((await start('key-4', 'c', 61)).status, 'leased', 'released even when nothing was saved');
    assert.equal((await start('key-5', 'd', 300)).status, 'leased', 'a lease not renewed ends');
  });

  test('a booking is read with the statuses of it already delivered', async () => {
    const store = await fresh();
    await store.insertBooking(booking(1));
    assert.deepEqual(await store.getBookingState('bk-1'), { booking: booking(1), delivered: [] });
    assert.equal(await store.getBookingState('bk-2'), undefined);
    await store.claimResult('cr-1', 'PENDING', 'a', 0, 10);
    await store.completeResult('cr-1', 'PENDING', 'a', 5);
    await store.claimResult('cr-1', 'SUCCESS', 'a', 10, 20);
    assert.deepEqual((await store.getBookingState('bk-1'))?.delivered, ['PENDING'], 'claimed is not delivered');
    await store.completeResult('cr-1', 'SUCCESS', 'a', 15);
    assert.deepEqual((await store.getBookingState('bk-1'))?.delivered.sort(), ['PENDING', 'SUCCESS']);
  });

  test('prune drops bookings, keys and results made before a time', async () => {
    const store = await fresh();
    for (const n of [1, 2, 3]) await store.insertBooking(booking(n));
    await store.claimResult('cr-1', 'SUCCESS', 'a', 500, 600);
    await store.completeResult('cr-1', 'SUCCESS', 'a', 500);
    assert.equal(await store.prune(2_500), 2);
    assert.equal(await store.getBooking('bk-1'), undefined);
    assert.equal(await store.getBookingByKey('key-2'), undefined);
    assert.ok(await store.getBooking('bk-3'));
    assert.equal(await store.insertBooking(booking(1)), true, 'the key is free again');
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'b', 3_000, 3_100), 'claimed', 'its results went with it');
  });
}
