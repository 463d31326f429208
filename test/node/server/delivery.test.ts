/**
 * A second payment of an order already paid: the kit delivers it marked `duplicate: true` with the
 * booking that paid first, and tells `onError` once (`DuplicatePaymentError`). Two bookings of one
 * order are both payable only after a fault: here the store answers one book of the order without its
 * open booking (a read that lagged behind), so the kit does not cancel the phone's booking before it
 * books the computer's. Both are then paid at the real sandbox, each on its own page.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore, DuplicatePaymentError, type PaymentResult, type PaymentStore } from '../../../src/server/index.js';
import { openShop, type Shop } from './shop.js';

/**
 * The memory store, whose next `beginBooking` after `lag()` leaves out the order's open bookings; with
 * `slowReadMs`, every `getOrderState` answers that much later (a loaded database), so two deliveries
 * that start together both read before either claims.
 */
function laggingStore(slowReadMs = 0): { store: PaymentStore; lag(): void } {
  const inner = createMemoryStore();
  let lagging = false;
  const store: PaymentStore = {
    ...inner,
    async getOrderState(orderKey) {
      const state = await inner.getOrderState(orderKey);
      await new Promise((resolve) => setTimeout(resolve, slowReadMs));
      return state;
    },
    async beginBooking(start) {
      const opening = await inner.beginBooking(start);
      if (!lagging || opening.status !== 'leased') return opening;
      lagging = false;
      return { ...opening, order: { ...opening.order, open: [] } };
    },
  };
  return { store, lag: () => (lagging = true) };
}

/** The phone books the app channel; then, in the lagging read, the computer books the web channel. */
async function twoBookings(shop: Shop, lag: () => void, id: string) {
  const phone = await shop.book('app', id);
  lag();
  const computer = await shop.book('web', id);
  assert.equal(shop.sandbox.getBooking(phone.booking_id)?.status, 'BOOKED', 'the fault left the phone\'s booking open');
  return { phone, computer };
}

const successes = (shop: Shop) => shop.results.filter((r) => r.status === 'SUCCESS');
const duplicatesTold = (shop: Shop) => shop.errors.filter((e) => e.error instanceof DuplicatePaymentError);

test('the computer pays, then a stale app screen pays the older booking: that one is the duplicate, told once', async () => {
  const { store, lag } = laggingStore();
  const shop = await openShop({ store });
  try {
    const { phone, computer } = await twoBookings(shop, lag, 'D-1');
    assert.equal(await shop.pay(computer), 303);
    await shop.sandbox.whenCallbacksSettled();
    assert.equal(await shop.pay(phone), 303);
    await shop.sandbox.whenCallbacksSettled();

    const [first, second] = successes(shop);
    assert.equal(first!.booking_id, computer.booking_id);
    assert.equal(first!.duplicate, undefined);
    assert.equal(second!.booking_id, phone.booking_id);
    assert.equal(second!.duplicate, true);
    assert.equal(second!.duplicate_of, computer.booking_id);
    assert.equal(second!.order_id, 'D-1');

    // The phone's element asks its status too, and the merchant's pass runs: nothing is told again.
    const status = await shop.post('status', { booking_id: phone.booking_id, correlation_id: phone.correlation_id });
    assert.equal(status.body.data?.status, 'SUCCESS');
    await shop.handler.reconcile({ olderThanMs: 0 });
    const told = duplicatesTold(shop);
    assert.equal(told.length, 1);
    assert.deepEqual(told[0]!.context, { route: 'callback', correlation_id: phone.correlation_id, booking_id: phone.booking_id });
    assert.equal((told[0]!.error as DuplicatePaymentError).result, second);
    assert.match((told[0]!.error as Error).message, /Order D-1 was paid twice: booking BK-.* after booking BK-.*\. Refund the second payment/);
    assert.equal(successes(shop).length, 2);
  } finally {
    await shop.close();
  }
});

test('the phone pays first: the computer\'s later payment is the duplicate', async () => {
  const { store, lag } = laggingStore();
  const shop = await openShop({ store });
  try {
    const { phone, computer } = await twoBookings(shop, lag, 'D-2');
    await shop.pay(phone);
    await shop.sandbox.whenCallbacksSettled();
    await shop.pay(computer);
    await shop.sandbox.whenCallbacksSettled();
    assert.deepEqual(
      successes(shop).map((r) => [r.booking_id, r.duplicate, r.duplicate_of]),
      [
        [phone.booking_id, undefined, undefined],
        [computer.booking_id, true, phone.booking_id],
      ],
    );
    assert.equal(duplicatesTold(shop).length, 1);
  } finally {
    await shop.close();
  }
});

test('both paid at the same moment, each read of the order slow: exactly one of the two is the duplicate', async () => {
  const { store, lag } = laggingStore(100);
  const shop = await openShop({ store });
  try {
    const { phone, computer } = await twoBookings(shop, lag, 'D-3');
    await Promise.all([shop.pay(phone), shop.pay(computer)]);
    await shop.sandbox.whenCallbacksSettled();
    const paid = successes(shop);
    assert.equal(paid.length, 2);
    const flagged = paid.filter((r) => r.duplicate);
    assert.equal(flagged.length, 1, JSON.stringify(paid));
    assert.equal(flagged[0]!.duplicate_of, paid.find((r) => !r.duplicate)!.booking_id);
    assert.equal(duplicatesTold(shop).length, 1);
  } finally {
    await shop.close();
  }
});

test('a hook that fails on the duplicate gets it again, and onError hears of it once, after it was taken', async () => {
  const { store, lag } = laggingStore();
  let failures = 1;
  const taken: PaymentResult[] = [];
  const shop = await openShop({
    store,
    onPaymentResult: (result) => {
      if (result.duplicate && failures-- > 0) throw new Error('the order system is busy');
      taken.push(result);
    },
  });
  try {
    const { phone, computer } = await twoBookings(shop, lag, 'D-4');
    await shop.pay(computer);
    await shop.sandbox.whenCallbacksSettled();
    await shop.pay(phone);
    await shop.sandbox.whenCallbacksSettled();
    assert.deepEqual(taken.map((r) => [r.booking_id, r.duplicate]), [
      [computer.booking_id, undefined],
      [phone.booking_id, true],
    ]);
    assert.equal(duplicatesTold(shop).length, 1);
  } finally {
    await shop.close();
  }
});

test('a refunded first payment leaves the order payable: a later payment of it is no duplicate', async () => {
  const { store, lag } = laggingStore();
  const shop = await openShop({ store });
  try {
    const { phone, computer } = await twoBookings(shop, lag, 'D-5');
    await shop.pay(computer);
    await shop.sandbox.whenCallbacksSettled();
    shop.sandbox.revert(computer.booking_id);
    await shop.sandbox.whenCallbacksSettled();
    await shop.pay(phone);
    await shop.sandbox.whenCallbacksSettled();
    assert.deepEqual(shop.results.map((r) => [r.booking_id, r.status, r.duplicate]), [
      [computer.booking_id, 'SUCCESS', undefined],
      [computer.booking_id, 'REVERTED', undefined],
      [phone.booking_id, 'SUCCESS', undefined],
    ]);
    assert.equal(duplicatesTold(shop).length, 0);
  } finally {
    await shop.close();
  }
});
