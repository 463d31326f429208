/**
 * A payment that lands after the kit's cancel, its callback lost (the sandbox's WPS-006 with
 * `sendCallback` saying no): `reconcile()` asks again about the bookings it settled `CANCELED` for the
 * providers' booking lifetime, delivers such a `SUCCESS` once (a duplicate where the order was paid
 * meanwhile), and past the window asks no more. Memory store on the handler's moved clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuplicatePaymentError } from '../../../src/server/delivery.js';
import { landLate, openRecheckShop, resultsOf } from './recheck-story.js';

const MINUTE = 60_000;
const NONE = { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false };

test('reconcile() delivers a SUCCESS that landed after the shopper\'s /cancel, its callback lost, once', async () => {
  let shift = 0;
  const shop = await openRecheckShop(() => shift);
  try {
    const stale = await shop.staleBooking('RC-1');
    await landLate(shop, stale);
    shift = MINUTE;
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { ...NONE, checked: 1, settled: 1 });
    assert.deepEqual(resultsOf(shop, stale), [['cancel', 'CANCELED'], ['reconcile', 'SUCCESS']]);
    const success = shop.results.at(-1)!;
    assert.equal(success.duplicate, undefined, 'the order had no other payment');
    assert.deepEqual((await shop.post('order', { order: { id: 'RC-1' } })).body.data, { paid: true, status: 'SUCCESS' });
    // Settled by its SUCCESS now: not asked about again.
    const asked = shop.asked.length;
    shift = 2 * MINUTE;
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), NONE);
    assert.equal(shop.asked.length, asked);
    assert.deepEqual(resultsOf(shop, stale), [['cancel', 'CANCELED'], ['reconcile', 'SUCCESS']]);
  } finally {
    await shop.close();
  }
});

test('reconcile(): the stale payment of an order a new booking paid meanwhile is delivered as its duplicate, told once', async () => {
  let shift = 0;
  const shop = await openRecheckShop(() => shift);
  try {
    const stale = await shop.staleBooking('RC-2');
    const paying = await shop.book('app', 'RC-2');
    assert.equal(await shop.pay(paying), 303);
    await landLate(shop, stale);
    assert.deepEqual(resultsOf(shop, paying), [['callback', 'SUCCESS']]);
    shift = MINUTE;
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { ...NONE, checked: 1, settled: 1 });
    const success = shop.results.at(-1)!;
    assert.deepEqual([success.source, success.booking_id, success.duplicate, success.duplicate_of], ['reconcile', stale.booking_id, true, paying.booking_id]);
    assert.equal(shop.errors.filter((e) => e.error instanceof DuplicatePaymentError).length, 1);
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), NONE);
    assert.equal(shop.results.filter((r) => r.booking_id === stale.booking_id && r.status === 'SUCCESS').length, 1);
  } finally {
    await shop.close();
  }
});

test('reconcile() asks about a cancelled booking on each pass within the providers\' booking lifetime, then no more', async () => {
  let shift = 0;
  const shop = await openRecheckShop(() => shift);
  try {
    const unpaid = await shop.staleBooking('RC-3');
    const askedOf = () => shop.asked.filter((id) => id === unpaid.booking_id).length;
    const before = askedOf();
    shift = 14 * MINUTE;
    // Still cancelled at the service: asked, nothing delivered, nothing counted.
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), NONE);
    assert.equal(askedOf(), before + 1);
    // The esewa-intent provider's booking lifetime is 15 minutes: past it, not asked.
    shift = 16 * MINUTE;
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), NONE);
    assert.equal(askedOf(), before + 1);
    // The window is an option: a longer one asks again, 0 asks about none.
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0, recheckCanceledForMs: 0 }), NONE);
    assert.equal(askedOf(), before + 1);
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0, recheckCanceledForMs: 20 * MINUTE }), NONE);
    assert.equal(askedOf(), before + 2);
    assert.deepEqual(resultsOf(shop, unpaid), [['cancel', 'CANCELED']]);
  } finally {
    await shop.close();
  }
});

test('reconcile(): a recheck whose status call fails is counted failed and told; the next pass delivers the payment', async () => {
  let shift = 0;
  const shop = await openRecheckShop(() => shift);
  try {
    const stale = await shop.staleBooking('RC-4');
    await landLate(shop, stale);
    shift = MINUTE;
    shop.faults.statusDown = true;
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { ...NONE, checked: 1, failed: 1 });
    assert.deepEqual(shop.errors.map((e) => [e.context.route, e.context.booking_id]), [['reconcile', stale.booking_id]]);
    assert.deepEqual(resultsOf(shop, stale), [['cancel', 'CANCELED']]);
    shop.faults.statusDown = false;
    shift = 2 * MINUTE;
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { ...NONE, checked: 1, settled: 1 });
    assert.deepEqual(resultsOf(shop, stale), [['cancel', 'CANCELED'], ['reconcile', 'SUCCESS']]);
  } finally {
    await shop.close();
  }
});
