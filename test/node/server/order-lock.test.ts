/**
 * Fenced order leases and the store's clock, with the real handler on the memory store in front of
 * the real sandbox: a holder whose clock runs behind, or whose renewals fail while its service call
 * runs past the lease, never leaves a second payable booking; and a result being delivered never
 * makes an unpaid order read as paid.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandlerOptions } from '../../../src/server/handler.js';
import { createMemoryStore, StoreUnavailableError, type PaymentStore } from '../../../src/server/index.js';
import { payAtWallet as pay, postRoute as post, type RouteAnswer, onSandbox } from './helpers.js';

const KEY = 'fencing-access-key';
const PRODUCT = 'FENCE01';
const newKey = () => `fence-${crypto.randomUUID()}`;


/** Resolves with `value` after `ms`: the time limit of a wait that must not hang. */
const after_ = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

/** A fetch that stops the service's `/book` (or `/cancel`) until released, and tells when one is stopped there. */
function gatedFetch(path: '/book' | '/cancel') {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const gated: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith(path)) {
      enter();
      await released;
    }
    return fetch(input, init);
  };
  return { fetch: gated, release, entered };
}

describe("fenced order leases on the store's clock (memory store)", () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
  });
  after(() => sandbox.close());

  const ofOrder = (id: string) => sandbox.listBookings().filter((b) => b.properties.merchant_order === id);
  const payable = (id: string) => ofOrder(id).filter((b) => b.status === 'BOOKED' || b.status === 'PENDING');
  const options = (store: PaymentStore, errors: unknown[], extra: Partial<PaymentHandlerOptions> = {}): PaymentHandlerOptions => ({
    ...onSandbox(sandbox),
    store,
    lookupOrder: (order) => ({ id: String(order.id), amount: 500 }),
    onPaymentResult: () => {},
    onError: (error) => errors.push(error),
    ...extra,
  });
  /** Pays every deeplink the shoppers were handed; answers how many SUCCESS the order has at the service. */
  const payAll = async (id: string, answers: RouteAnswer[]) => {
    for (const answer of answers) if (answer.body.data?.deeplink) await pay(answer.body.data.deeplink).catch(() => {});
    return ofOrder(id).filter((b) => b.status === 'SUCCESS').length;
  };

  test('an instance whose clock runs 10 s behind holds its order for the lease by the store\'s clock: the other instance waits, then cancels its booking; one payable booking, one SUCCESS', async () => {
    const store = createMemoryStore();
    const errors: unknown[] = [];
    const gate = gatedFetch('/book');
    const behind = createPaymentHandler(options(store, errors, { fetch: gate.fetch, now: () => Date.now() - 10_000 }));
    // The other instance's store calls, watched for the first time it finds the order held.
    let sawBusy!: () => void;
    const busy = new Promise<boolean>((resolve) => (sawBusy = () => resolve(true)));
    const watched: PaymentStore = Object.assign(Object.create(store) as PaymentStore, {
      beginBooking: async (start: Parameters<PaymentStore['beginBooking']>[0]) => {
        const opening = await store.beginBooking(start);
        if (opening.status === 'busy') sawBusy();
        return opening;
      },
    });
    const right = createPaymentHandler(options(watched, errors));
    const order = { id: `SKEW-${crypto.randomUUID()}` };

    const first = post(behind, 'book', { channel: 'app', order }, newKey());
    await Promise.race([gate.entered, after_(10_000, undefined)]);
    const second = post(right, 'book', { channel: 'app', order }, newKey());
    const waited = await Promise.race([busy, after_(2_000, false)]);
    gate.release();
    const answers = await Promise.all([first, second]);
    assert.ok(waited, 'the instance on time found the order held by the one behind');
    assert.deepEqual(answers.map((a) => a.status), [200, 200], JSON.stringify(answers.map((a) => a.body)));
    assert.equal(payable(order.id).length, 1, JSON.stringify(ofOrder(order.id).map((b) => b.status)));
    assert.equal(await payAll(order.id, answers), 1, 'one SUCCESS at the service');
    assert.deepEqual(errors, []);
  });

  test("a booking made by an instance whose clock runs 60 s ahead, paid with its callback lost, is delivered by one reconcile() of an instance 10 s behind (its age is the store's)", async () => {
    const store = createMemoryStore();
    const delivered: Array<{ correlation_id: string; status: string }> = [];
    const onPaymentResult: PaymentHandlerOptions['onPaymentResult'] = (result) => void delivered.push({ correlation_id: result.correlation_id, status: result.status });
    const ahead = createPaymentHandler(options(store, [], { now: () => Date.now() + 60_000, onPaymentResult }));
    const behind = createPaymentHandler(options(store, [], { now: () => Date.now() - 10_000, onPaymentResult }));
    const order = { id: `AGE-${crypto.randomUUID()}` };
    const booked = await post(ahead, 'book', { channel: 'app', order }, newKey());
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    // The callback goes to a closed port: only a status check or reconcile() can learn the payment.
    await pay(booked.body.data!.deeplink!);
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(delivered, [], 'the callback was lost');
    const report = await behind.reconcile({ olderThanMs: 0, recheckAfterMs: 0 });
    assert.deepEqual(delivered, [{ correlation_id: booked.body.data!.correlation_id, status: 'SUCCESS' }], JSON.stringify(report));
  });

  test("reconcile()'s cancelAfterMs reads a booking's age by the store's clock: an instance 20 min ahead leaves a fresh booking open, one on time cancels a booking 16 min old by the store", async () => {
    const MINUTE = 60_000;
    let storeShift = 0;
    const store = createMemoryStore({ now: () => Date.now() + storeShift });
    const ahead = createPaymentHandler(options(store, [], { now: () => Date.now() + 20 * MINUTE }));
    const fresh = await post(ahead, 'book', { channel: 'app', order: { id: `FRESH-${crypto.randomUUID()}` } }, newKey());
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    const early = await ahead.reconcile({ olderThanMs: 0, recheckAfterMs: 0, cancelAfterMs: 15 * MINUTE });
    assert.deepEqual(early, { checked: 1, settled: 0, open: 1, failed: 0, cancelled: 0, unfinished: false });
    assert.equal(sandbox.getBooking(fresh.body.data!.booking_id)?.status, 'BOOKED', 'a booking made a moment ago is not cancelled');

    // The store's clock moves 16 minutes on; the instance's own clock stays on time.
    storeShift = 16 * MINUTE;
    const onTime = createPaymentHandler(options(store, []));
    const late = await onTime.reconcile({ olderThanMs: 0, recheckAfterMs: 0, cancelAfterMs: 15 * MINUTE });
    assert.deepEqual(late, { checked: 1, settled: 0, open: 0, failed: 0, cancelled: 1, unfinished: false });
    assert.equal(sandbox.getBooking(fresh.body.data!.booking_id)?.status, 'CANCELED', '16 minutes old by the store: cancelled');
  });

  test("a holder whose renewals fail while its service call runs past the lease (by the store's clock): taken over, its booking cancelled and never handed out; one payable booking, one SUCCESS", async () => {
    let skew = 0;
    const store = createMemoryStore({ now: () => Date.now() + skew });
    const errors: unknown[] = [];
    const gate = gatedFetch('/book');
    const failing: PaymentStore = Object.assign(Object.create(store) as PaymentStore, {
      renewLease: () => Promise.reject(new StoreUnavailableError('deadline', 'The database did not answer within 2000 ms.')),
    });
    const stalled = createPaymentHandler(options(failing, errors, { fetch: gate.fetch }));
    const other = createPaymentHandler(options(store, []));
    const order = { id: `RENEW-${crypto.randomUUID()}` };

    const first = post(stalled, 'book', { channel: 'app', order }, newKey());
    await Promise.race([gate.entered, after_(10_000, undefined)]);
    skew += 5_000; // past the 4 s lease, not renewed
    const second = await post(other, 'book', { channel: 'app', order }, newKey());
    assert.equal(second.status, 200, JSON.stringify(second.body));
    gate.release();
    const stale = await first;
    assert.equal(stale.status, 409, JSON.stringify(stale.body));
    assert.equal(stale.body.code, 'IP-409');
    assert.match(stale.body.error_message ?? '', /took it over/);
    assert.equal(stale.body.data, undefined, 'no deeplink for the booking made under the stale lease');
    assert.deepEqual(payable(order.id).map((b) => b.booking_id), [second.body.data!.booking_id], JSON.stringify(ofOrder(order.id).map((b) => b.status)));
    assert.equal(ofOrder(order.id).filter((b) => b.status === 'CANCELED').length, 1, 'the stale holder cancelled its own booking');
    assert.equal(await payAll(order.id, [stale, second]), 1, 'one SUCCESS at the service');
    // Its shopper's element books again with a new key: the order's one open booking is replaced, still one.
    const retry = await post(stalled, 'book', { channel: 'app', order }, newKey());
    assert.equal(retry.body.code, 'IP-412', 'the order was paid meanwhile');
  });

  test('a holder that finds its lease taken over (a renewal answers stale) sends no book to the service', async () => {
    let skew = 0;
    const store = createMemoryStore({ now: () => Date.now() + skew });
    const gate = gatedFetch('/cancel');
    const slow = createPaymentHandler(options(store, [], { fetch: gate.fetch }));
    const other = createPaymentHandler(options(store, []));
    const order = { id: `LOST-${crypto.randomUUID()}` };
    const opened = await post(other, 'book', { channel: 'app', order }, newKey());
    assert.equal(opened.status, 200);
    // The slow instance takes the order and stops in the cancel of the open booking.
    const first = post(slow, 'book', { channel: 'app', order }, newKey());
    await Promise.race([gate.entered, after_(10_000, undefined)]);
    skew += 5_000;
    const second = await post(other, 'book', { channel: 'app', order }, newKey());
    assert.equal(second.status, 200, JSON.stringify(second.body));
    // Its next renewal (a quarter of the lease, 1 s) finds the token stale.
    await after_(1_500, undefined);
    gate.release();
    const stale = await first;
    assert.equal(stale.body.code, 'IP-409', JSON.stringify(stale.body));
    assert.equal(ofOrder(order.id).length, 2, 'the first booking and the one that took over: nothing booked by the stale holder');
    assert.equal(payable(order.id).length, 1);
  });

  test("a late start of an earlier book of the same process (a client sending a command again after it reconnects, as ioredis does by default) cannot take over the book that holds the order now", async () => {
    const store = createMemoryStore();
    // The first book's start reaches the store only later: its answer is past the handler's deadline.
    let late: (() => Promise<unknown>) | undefined;
    let starts = 0;
    const delayed: PaymentStore = Object.assign(Object.create(store) as PaymentStore, {
      beginBooking: (args: Parameters<PaymentStore['beginBooking']>[0]) => {
        starts += 1;
        if (starts > 1) return store.beginBooking(args);
        late = () => store.beginBooking(args);
        return new Promise<never>(() => {});
      },
    });
    const gate = gatedFetch('/book');
    const handler = createPaymentHandler(options(delayed, [], { fetch: gate.fetch, storeTimeoutMs: 300 }));
    const order = { id: `LATE-${crypto.randomUUID()}` };
    const key = newKey();
    const first = await post(handler, 'book', { channel: 'app', order }, key);
    assert.equal(first.body.code, 'IP-503', JSON.stringify(first.body));

    // The element tries again with the same key; the order's lease is its, and its book is at the service
    // when the first book's start finally runs.
    const second = post(handler, 'book', { channel: 'app', order }, key);
    await Promise.race([gate.entered, after_(10_000, undefined)]);
    const opening = await late!();
    gate.release();
    const answer = await second;
    assert.equal(answer.status, 200, `${JSON.stringify(answer.body)} (the late start answered ${JSON.stringify(opening)})`);
    assert.deepEqual(payable(order.id).map((b) => b.booking_id), [answer.body.data!.booking_id]);
  });

  test("reconcile() on a handler clock that stands still (the store's moves): each open booking checked once, and the pass ends", async () => {
    const fixed = Date.now();
    const handler = createPaymentHandler(options(createMemoryStore(), [], { now: () => fixed }));
    for (let i = 0; i < 3; i++) assert.equal((await post(handler, 'book', { channel: 'app', order: { id: `STILL-${i}-${crypto.randomUUID()}` } }, newKey())).status, 200);
    const pass = handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 });
    const report = await Promise.race([pass, after_(20_000, 'the pass did not end within 20 s' as const)]);
    assert.deepEqual(report, { checked: 3, settled: 0, open: 3, failed: 0, cancelled: 0, unfinished: false });
  });

  test('a CANCELED result being delivered never makes the unpaid order read as paid (no claim of a SUCCESS to learn about it)', async () => {
    const store = createMemoryStore();
    const order = { id: `NEVER-PAID-${crypto.randomUUID()}` };
    const watch: { orderKey?: string } = {};
    const seenPaid: string[] = [];
    // After every store call, the order's state as a concurrent book would read it.
    const watched = {} as Record<string, unknown>;
    for (const name of Object.keys(store) as Array<keyof PaymentStore>) {
      const method = store[name] as (...args: never[]) => Promise<unknown>;
      watched[name] = async (...args: never[]) => {
        const value = await method.apply(store, args);
        if (watch.orderKey && (await store.getOrderState({ orderKey: watch.orderKey })).paid) seenPaid.push(name);
        return value;
      };
    }
    const handler = createPaymentHandler(options(watched as unknown as PaymentStore, []));
    const booked = await post(handler, 'book', { channel: 'app', order }, newKey());
    watch.orderKey = (await store.findBookingByCorrelationId({ correlationId: booked.body.data!.correlation_id }))!.order_key;
    const cancelled = await post(handler, 'cancel', { booking_id: booked.body.data!.booking_id, correlation_id: booked.body.data!.correlation_id });
    assert.equal(cancelled.body.data?.status, 'CANCELED');
    assert.deepEqual(seenPaid, [], 'paid was read after these calls');
    const again = await post(handler, 'book', { channel: 'app', order }, newKey());
    assert.equal(again.status, 200, JSON.stringify(again.body));
  });
});
