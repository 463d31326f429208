/**
 * Leaving without paying: the element's `/cancel` cancels the booking at the service (a stale app
 * screen cannot pay it later) and the order can be booked again at once; `reconcile()` cancels at the
 * service the bookings still open past the service's expiry and reports them. Real sandbox; the
 * handler's clock is moved instead of waiting a quarter of an hour.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SANDBOX_DEFAULTS } from '../../../src/sandbox/index.js';
import { createMemoryStore } from '../../../src/server/memory-store.js';
import { DEFAULT_CANCEL_AFTER_MS } from '../../../src/server/reconcile.js';
import type { PaymentStore } from '../../../src/server/store.js';
import { openShop } from './shop.js';

const MINUTE = 60_000;

test('/cancel of a booking the shopper left: cancelled at the service, the stale app screen cannot pay, the order books again', async () => {
  const shop = await openShop();
  try {
    const left = await shop.book('app', 'L-1');
    const cancelled = await shop.post('cancel', { booking_id: left.booking_id, correlation_id: left.correlation_id, order: { id: 'L-1' } });
    assert.deepEqual(cancelled, {
      status: 200,
      body: { code: 'IP-210', message: 'Transaction cancelled', data: { booking_id: left.booking_id, status: 'CANCELED' } },
    });
    assert.equal(shop.sandbox.getBooking(left.booking_id)?.status, 'CANCELED');
    assert.equal(await shop.pay(left), 409, 'the wallet page refuses a cancelled booking');
    assert.equal(shop.sandbox.getBooking(left.booking_id)?.status, 'CANCELED');
    assert.deepEqual(shop.results.map((r) => [r.source, r.status, r.booking_id]), [['cancel', 'CANCELED', left.booking_id]]);
    // Ready again: the next press books anew, and that booking pays the order.
    const again = await shop.book('app', 'L-1');
    assert.notEqual(again.booking_id, left.booking_id);
    assert.equal(await shop.pay(again), 303);
    await shop.sandbox.whenCallbacksSettled();
    assert.deepEqual((await shop.post('order', { order: { id: 'L-1' } })).body.data, { paid: true, status: 'SUCCESS' });
  } finally {
    await shop.close();
  }
});

test('/cancel of a booking that expired at the service is IP-410, and its status then reads CANCELED', async () => {
  const shop = await openShop({}, { bookingTtlMs: 1 });
  try {
    const expired = await shop.book('app', 'L-2');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const answer = await shop.post('cancel', { booking_id: expired.booking_id, correlation_id: expired.correlation_id });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.code, 'IP-410');
    const status = await shop.post('status', { booking_id: expired.booking_id, correlation_id: expired.correlation_id });
    assert.equal(status.body.data?.status, 'CANCELED');
  } finally {
    await shop.close();
  }
});

test('reconcile() cancels at the service a booking still open past cancelAfterMs (default: the sandbox\'s expiry) and reports it', async () => {
  assert.equal(DEFAULT_CANCEL_AFTER_MS, SANDBOX_DEFAULTS.bookingTtlMs);
  let shift = 0;
  // The sandbox keeps its own clock: at the service the booking never expires, as with a service whose
  // expiry is longer than the kit's.
  const shop = await openShop({ now: () => Date.now() + shift });
  try {
    const left = await shop.book('app', 'L-3');
    const recent = await shop.book('app', 'L-4');
    shift = 10 * MINUTE;
    // Made just now on the moved clock: ten minutes younger than the others.
    const fresh = await shop.book('app', 'L-5');
    shift = 16 * MINUTE;
    // The fresh one is six minutes old: asked about (past the status check's five), still open, not cancelled.
    assert.deepEqual(await shop.handler.reconcile({ cancelAfterMs: 15 * MINUTE }), { checked: 3, settled: 0, open: 1, failed: 0, cancelled: 2, unfinished: false });
    for (const booking of [left, recent]) {
      assert.equal(shop.sandbox.getBooking(booking.booking_id)?.status, 'CANCELED');
      assert.equal(shop.sandbox.getBooking(booking.booking_id)?.history.at(-1)?.reason, 'cancelled_by_merchant');
      assert.equal(await shop.pay(booking), 409, 'a stale app screen cannot pay it');
    }
    assert.equal(shop.sandbox.getBooking(fresh.booking_id)?.status, 'BOOKED');
    assert.deepEqual(
      shop.results.map((r) => [r.source, r.status, r.booking_id]).sort(),
      [['cancel', 'CANCELED', left.booking_id], ['cancel', 'CANCELED', recent.booking_id]].sort(),
    );
    // The default is 15 minutes: at 14 the fresh booking stays open, at 16 it is cancelled.
    shift = 24 * MINUTE;
    assert.deepEqual(await shop.handler.reconcile({ recheckAfterMs: 0 }), { checked: 1, settled: 0, open: 1, failed: 0, cancelled: 0, unfinished: false });
    shift = 26 * MINUTE;
    assert.deepEqual(await shop.handler.reconcile({ recheckAfterMs: 0 }), { checked: 1, settled: 0, open: 0, failed: 0, cancelled: 1, unfinished: false });
    assert.equal(shop.sandbox.getBooking(fresh.booking_id)?.status, 'CANCELED');
  } finally {
    await shop.close();
  }
});

test('reconcile(): a booking paid meanwhile is settled as paid, one the service expired itself is settled; neither is counted cancelled', async () => {
  let shift = 0;
  // Both clocks move: the service expires its unpaid booking itself. Callbacks go nowhere, so only the pass learns.
  const shop = await openShop({ now: () => Date.now() + shift, callbackUrl: 'http://127.0.0.1:9/callback' }, { now: () => Date.now() + shift });
  try {
    const paid = await shop.book('app', 'L-6');
    const expired = await shop.book('app', 'L-7');
    await shop.pay(paid);
    await shop.sandbox.whenCallbacksSettled();
    shift = 20 * MINUTE;
    assert.deepEqual(await shop.handler.reconcile(), { checked: 2, settled: 2, open: 0, failed: 0, cancelled: 0, unfinished: false });
    assert.equal(shop.sandbox.getBooking(expired.booking_id)?.history.at(-1)?.reason, 'expired');
    assert.deepEqual(
      shop.results.map((r) => [r.source, r.status, r.booking_id]).sort(),
      [['reconcile', 'SUCCESS', paid.booking_id], ['reconcile', 'CANCELED', expired.booking_id]].sort(),
    );
  } finally {
    await shop.close();
  }
});

test('reconcile(): a store that hands out more bookings than a claim asked for has each one checked, none left claimed and unchecked', async () => {
  // A claim asks for one booking at a time; a store (or a query plan) that answers two must not leave
  // the second claimed and unchecked until its lease ends: paid, it would go undelivered by this pass.
  const store = createMemoryStore();
  const generous: PaymentStore = {
    ...store,
    claimOpenBookings: (options) => store.claimOpenBookings({ ...options, limit: options.limit + 1 }),
  };
  const shop = await openShop({ store: generous, callbackUrl: 'http://127.0.0.1:9/callback' });
  try {
    const first = await shop.book('app', 'L-8');
    const second = await shop.book('app', 'L-9');
    await shop.pay(first);
    await shop.pay(second);
    await shop.sandbox.whenCallbacksSettled();
    const report = await shop.handler.reconcile({ olderThanMs: 0, concurrency: 1 });
    assert.deepEqual(report, { checked: 2, settled: 2, open: 0, failed: 0, cancelled: 0, unfinished: false });
    assert.deepEqual(shop.results.map((r) => [r.source, r.status, r.booking_id]).sort(), [['reconcile', 'SUCCESS', first.booking_id], ['reconcile', 'SUCCESS', second.booking_id]].sort());
  } finally {
    await shop.close();
  }
});
