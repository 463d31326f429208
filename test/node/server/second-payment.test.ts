/**
 * Every payment beyond what an order needs is told, whatever its amount, on every path a result takes:
 * a stale app screen that pays more than the order's new total after the kit cancelled it (the
 * sandbox's WPS-006), a payment above what the order still needed, a callback whose amount is not the
 * booked one, a book that delivers an old booking's `SUCCESS` while its claim stalls past the order's
 * lease, and a delivery held back by the order's paid lease.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signMessage } from '../../../src/protocol/signature.js';
import { AmountMismatchError, DuplicatePaymentError, OverpaymentError } from '../../../src/server/delivery.js';
import { createMemoryStore, type PaymentResult, type PaymentStore } from '../../../src/server/index.js';
import type { LeaseHold } from '../../../src/server/store.js';
import { KEY, openShop, PRODUCT, type Booked, type Shop } from './shop.js';

const successes = (shop: Shop) => shop.results.filter((r) => r.status === 'SUCCESS');
const told = <T>(shop: Shop, kind: new (...args: never[]) => T) => shop.errors.filter((e) => e.error instanceof kind).map((e) => e.error as T);

/** An order whose total and sandbox scenario (`properties.sandbox_scenario`) the test sets before each book. */
function order(id: string, total: number) {
  const state = { total, scenario: undefined as string | undefined };
  const lookupOrder = () => ({ id, amount: state.total, ...(state.scenario ? { properties: { sandbox_scenario: state.scenario } } : {}) });
  return { state, lookupOrder };
}

const ids = ({ booking_id, correlation_id }: Booked) => ({ booking_id, correlation_id });

/** Waits until `done()` holds, polling; fails naming `what` after `ms`. */
async function until(done: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * WPS-006: tab 1 books 1500 and its app screen takes the payment (PENDING); the total falls to 1000
 * and tab 2 books it, which cancels tab 1's booking; the payment lands 30 s later anyway.
 */
async function paidAfterCancel(shop: Shop, state: { total: number; scenario: string | undefined }, id: string): Promise<{ tab1: Booked; tab2: Booked }> {
  state.scenario = 'WPS-006';
  const tab1 = await shop.book('app', id);
  assert.equal(await shop.pay(tab1), 303);
  assert.equal(shop.sandbox.getBooking(tab1.booking_id)?.status, 'PENDING');
  state.total = 1000;
  state.scenario = undefined;
  const tab2 = await shop.book('app', id);
  assert.equal(shop.sandbox.getBooking(tab1.booking_id)?.status, 'CANCELED', "tab 2's book cancelled tab 1's booking");
  return { tab1, tab2 };
}

test('WPS-006: the stale screen pays 1500 after tab 2 paid the new total of 1000: a duplicate of tab 2, told once with both payments', async () => {
  const { state, lookupOrder } = order('W-1', 1500);
  const shop = await openShop({ lookupOrder });
  try {
    const { tab1, tab2 } = await paidAfterCancel(shop, state, 'W-1');
    assert.equal(await shop.pay(tab2), 303);
    await shop.sandbox.whenCallbacksSettled();
    await shop.sandbox.clock.advance('30s');
    await shop.sandbox.whenCallbacksSettled();
    assert.equal(shop.sandbox.getBooking(tab1.booking_id)?.status, 'SUCCESS', 'the payment landed after the cancel');

    assert.deepEqual(
      successes(shop).map((r) => [r.booking_id, r.amount, r.duplicate, r.duplicate_of]),
      [
        [tab2.booking_id, 1000, undefined, undefined],
        [tab1.booking_id, 1500, true, tab2.booking_id],
      ],
    );
    const duplicates = told(shop, DuplicatePaymentError);
    assert.equal(duplicates.length, 1);
    assert.match(duplicates[0]!.message, new RegExp(`booking ${tab1.booking_id} \\(reference_code .*, amount 1500\\) after booking ${tab2.booking_id} \\(amount 1000\\)`));
    assert.equal(told(shop, OverpaymentError).length, 0);
  } finally {
    await shop.close();
  }
});

test('WPS-006, the stale payment first: 1500 for an order that needed 1000 is an overpayment of 500, and tab 2 paying after it is the duplicate', async () => {
  const { state, lookupOrder } = order('W-2', 1500);
  const shop = await openShop({ lookupOrder });
  try {
    const { tab1, tab2 } = await paidAfterCancel(shop, state, 'W-2');
    await shop.sandbox.clock.advance('30s');
    await shop.sandbox.whenCallbacksSettled();
    const [first] = successes(shop) as Array<PaymentResult & { overpayment?: number }>;
    assert.equal(first!.booking_id, tab1.booking_id);
    assert.equal(first!.duplicate, undefined);
    assert.equal(first!.overpayment, 500);
    const overpaid = told(shop, OverpaymentError);
    assert.equal(overpaid.length, 1);
    assert.equal(overpaid[0]!.needed, 1000);
    assert.match(overpaid[0]!.message, new RegExp(`booking ${tab1.booking_id} paid 1500 .*still needed 1000`));

    assert.equal(await shop.pay(tab2), 303);
    await shop.sandbox.whenCallbacksSettled();
    const second = successes(shop)[1]!;
    assert.deepEqual([second.booking_id, second.duplicate, second.duplicate_of], [tab2.booking_id, true, tab1.booking_id]);
    assert.equal(told(shop, DuplicatePaymentError).length, 1);
    assert.equal(told(shop, OverpaymentError).length, 1);
  } finally {
    await shop.close();
  }
});

test('WPS-006 with every callback lost: the tabs\' status checks deliver both payments, and the stale one is the duplicate', async () => {
  const { state, lookupOrder } = order('W-3', 1500);
  // A callback URL nothing listens on: the service's callbacks never arrive.
  const shop = await openShop({ lookupOrder, callbackUrl: 'http://127.0.0.1:9/api/pay/callback' });
  try {
    const { tab1, tab2 } = await paidAfterCancel(shop, state, 'W-3');
    assert.equal(await shop.pay(tab2), 303);
    assert.equal((await shop.post('status', ids(tab2))).body.data?.status, 'SUCCESS');
    await shop.sandbox.clock.advance('30s');
    assert.equal((await shop.post('status', ids(tab1))).body.data?.status, 'SUCCESS');
    await shop.sandbox.whenCallbacksSettled();
    assert.equal(shop.sandbox.callbackAttempts().filter((a) => a.delivered).length, 0, 'no callback arrived');
    assert.deepEqual(
      successes(shop).map((r) => [r.source, r.booking_id, r.duplicate, r.duplicate_of]),
      [
        ['status', tab2.booking_id, undefined, undefined],
        ['status', tab1.booking_id, true, tab2.booking_id],
      ],
    );
    assert.equal(told(shop, DuplicatePaymentError).length, 1);
  } finally {
    await shop.close();
  }
});

test("a callback whose amount is not the booked one is told with both amounts; the hook gets the booked amount", async () => {
  const shop = await openShop();
  try {
    const booked = await shop.book('app', 'A-1');
    const status = 'SUCCESS';
    const message = `product_code=${PRODUCT},amount=750.0,reference_code=REF-750,correlation_id=${booked.correlation_id},status=${status}`;
    const body =
      `{"product_code":"${PRODUCT}","amount":750.0,"reference_code":"REF-750","correlation_id":"${booked.correlation_id}","status":"${status}",` +
      `"signed_field_names":"product_code,amount,reference_code,correlation_id,status","signature":"${await signMessage(message, KEY)}"}`;
    const answer = await shop.post('callback', body);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(successes(shop).map((r) => [r.booking_id, r.amount]), [[booked.booking_id, 500]]);
    const mismatches = told(shop, AmountMismatchError);
    assert.equal(mismatches.length, 1);
    assert.equal(mismatches[0]!.reported, 750);
    assert.equal(mismatches[0]!.result.amount, 500);
    assert.match(mismatches[0]!.message, /callback reported 750 for booking BK-.*, booked at 500/);
    // The same callback again claims nothing and tells nothing again.
    assert.equal((await shop.post('callback', body)).status, 200);
    assert.equal(told(shop, AmountMismatchError).length, 1);
  } finally {
    await shop.close();
  }
});

/**
 * The memory store on a clock the test moves, whose next `beginBooking` after `lag()` leaves out the
 * order's open bookings (so two bookings of one order are open), and whose claims of one booking's
 * `SUCCESS` made under a hold stall (the first `times`): the store's clock moves past every lease,
 * `during(lease)` runs, then the claim goes on.
 */
function stallingStore() {
  let shift = 0;
  const inner = createMemoryStore({ now: () => Date.now() + shift });
  let lagging = false;
  const stall: { correlationId?: string; during?: (lease: string) => Promise<void>; times: number; stalled: number } = { times: 1, stalled: 0 };
  const store: PaymentStore = {
    ...inner,
    async beginBooking(start) {
      const opening = await inner.beginBooking(start);
      if (!lagging || opening.status !== 'leased') return opening;
      lagging = false;
      return { ...opening, order: { ...opening.order, open: [] } };
    },
    async claimResult(claim) {
      if (claim.hold && claim.status === 'SUCCESS' && claim.correlationId === stall.correlationId && stall.during) {
        const { during } = stall;
        if (++stall.stalled >= stall.times) stall.during = undefined;
        shift += 5_000;
        await during(claim.hold.lease);
      }
      return inner.claimResult(claim);
    },
  };
  return { store, stall, lag: () => (lagging = true) };
}

test("a book delivering an old booking's SUCCESS stalls past the order's lease inside its claim while the other payment is delivered: the book claims nothing (IP-409), and of the two exactly one is the duplicate", async () => {
  const { store, stall, lag } = stallingStore();
  const { state, lookupOrder } = order('L-1', 500);
  const shop = await openShop({ store, lookupOrder });
  try {
    // The phone's payment sends no callback (WPS-007): the next book of the order finds it paid.
    state.scenario = 'WPS-007';
    const phone = await shop.book('app', 'L-1');
    state.scenario = undefined;
    assert.equal(await shop.pay(phone), 303);
    lag();
    const computer = await shop.book('web', 'L-1');
    assert.equal(shop.results.length, 0);

    stall.correlationId = phone.correlation_id;
    stall.during = async () => {
      assert.equal(await shop.pay(computer), 303);
      await until(() => successes(shop).some((r) => r.booking_id === computer.booking_id), "the computer's SUCCESS reaching the hook");
    };
    // A third tab books: it cancels the order's open bookings and finds the phone's paid; its claim of
    // the phone's SUCCESS stalls past the order's lease, so it claims nothing and the book is refused.
    const third = await shop.post('book', { channel: 'app', order: { id: 'L-1' } }, { 'idempotency-key': crypto.randomUUID() });
    assert.equal(third.body.code, 'IP-409', JSON.stringify(third.body));
    assert.equal(stall.stalled, 1, "the phone's claim stalled");
    await shop.sandbox.whenCallbacksSettled();
    // The next check delivers the phone's SUCCESS, judged against the computer's.
    await shop.handler.reconcile({ olderThanMs: 0 });

    const paid = successes(shop);
    assert.deepEqual(
      paid.map((r) => [r.booking_id, r.duplicate, r.duplicate_of]),
      [
        [computer.booking_id, undefined, undefined],
        [phone.booking_id, true, computer.booking_id],
      ],
    );
    assert.equal(told(shop, DuplicatePaymentError).length, 1);
  } finally {
    await shop.close();
  }
});

test('a book whose order was taken over before it claims an old booking\'s SUCCESS claims nothing (IP-409); the next check delivers it once', async () => {
  let shift = 0;
  const inner = createMemoryStore({ now: () => Date.now() + shift });
  let target: string | undefined;
  let stolen = 0;
  const store: PaymentStore = {
    ...inner,
    async claimResult(claim) {
      // Just before the SUCCESS's claim: the book pauses past the order's lease and another instance takes the order.
      if (claim.correlationId === target) {
        target = undefined;
        shift += 5_000;
        const lease = `order:${(await inner.findBookingByCorrelationId(claim))!.order_key}`;
        if ((await inner.acquireLease({ lease, owner: 'another-instance', leaseMs: 60_000 })) !== undefined) stolen++;
      }
      return inner.claimResult(claim);
    },
  };
  const { state, lookupOrder } = order('T-1', 500);
  const shop = await openShop({ store, lookupOrder });
  try {
    state.scenario = 'WPS-007';
    const phone = await shop.book('app', 'T-1');
    state.scenario = undefined;
    assert.equal(await shop.pay(phone), 303);
    target = phone.correlation_id;
    const second = await shop.post('book', { channel: 'app', order: { id: 'T-1' } }, { 'idempotency-key': crypto.randomUUID() });
    assert.equal(stolen, 1, 'the order was taken over during the check');
    assert.equal(second.body.code, 'IP-409', JSON.stringify(second.body));
    assert.deepEqual(await inner.getResults({ correlationId: phone.correlation_id }), [], 'nothing claimed');
    assert.equal(shop.results.length, 0);

    await shop.handler.reconcile({ olderThanMs: 0 });
    assert.deepEqual(successes(shop).map((r) => [r.booking_id, r.duplicate]), [[phone.booking_id, undefined]]);
  } finally {
    await shop.close();
  }
});

test("a callback whose judged claim finds the order's paid lease held by another owner is answered 5xx, nothing claimed; the service's retry delivers it once", async () => {
  const inner = createMemoryStore();
  let held: LeaseHold | undefined;
  let refused = 0;
  const store: PaymentStore = {
    ...inner,
    async claimResult(claim) {
      const answer = await inner.claimResult(claim);
      // The holder (a merchant's tool) lets the order go once the first delivery was held back.
      if (held && claim.judge && answer.claim === 'busy') {
        refused++;
        assert.deepEqual(await inner.getResults(claim), [], 'nothing claimed while held back');
        await inner.releaseLease(held);
        held = undefined;
      }
      return answer;
    },
  };
  const shop = await openShop({ store });
  try {
    const booked = await shop.book('app', 'R-1');
    const lease = `paid:${(await inner.findBookingByCorrelationId({ correlationId: booked.correlation_id }))!.order_key}`;
    const token = await inner.acquireLease({ lease, owner: 'merchant-tool', leaseMs: 60_000 });
    assert.notEqual(token, undefined, 'the paid lease was free');
    held = { lease, owner: 'merchant-tool', token: token! };
    assert.equal(await shop.pay(booked), 303);
    await shop.sandbox.whenCallbacksSettled();
    assert.equal(refused, 1);
    const attempts = shop.sandbox.callbackAttempts().filter((a) => a.booking_id === booked.booking_id);
    assert.deepEqual(attempts.map((a) => a.status), [500, 200]);
    assert.deepEqual(successes(shop).map((r) => [r.booking_id, r.duplicate]), [[booked.booking_id, undefined]]);
  } finally {
    await shop.close();
  }
});
