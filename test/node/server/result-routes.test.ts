/**
 * A booking the kit lost (a memory store restarted) reaches the hook with its order: the element's
 * status request carries the order it booked, the kit proves it against the booking's tag, and the
 * recovered booking is adopted again, so the order's next book and `reconcile()` both know it.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler, type PaymentHandlerOptions, type PaymentResult } from '../../../src/server/handler.js';
import { createMemoryStore, type PaymentStore } from '../../../src/server/index.js';
import { createBookingClient } from '../../../src/core/booking-client.js';
import { PaymentFlow } from '../../../src/core/flow/index.js';
import { settingsOf } from '../../support/settings.js';
import { FakeClock } from '../../support/fake-clock.js';
import { createMemoryBookingStore } from '../../support/memory-store.js';
import { recordingNavigator } from '../../support/proxy.js';
import { payAtWallet } from '../../support/pay-at-wallet.js';
import { postRoute, type ResultData, onSandbox } from './helpers.js';

const KEY = 'lost-access-key';
const PRODUCT = 'LOST01';

const post = async (handler: PaymentHandler, route: string, body: unknown, key?: string) => (await postRoute<ResultData>(handler, route, body, key)).body;

async function within<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a lost booking keeps its order', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
  });
  after(() => sandbox.close());

  function shop(store: PaymentStore = createMemoryStore(), overrides: Partial<PaymentHandlerOptions> = {}) {
    const results: PaymentResult[] = [];
    const options: PaymentHandlerOptions = {
      ...onSandbox(sandbox),
      store,
      lookupOrder: (order) => ({ id: String(order.id), amount: 700 }),
      onPaymentResult: (result) => void results.push(result),
      ...overrides,
    };
    return { handler: createPaymentHandler(options), results };
  }

  test("the element's status check of a kept booking sends its order: the kit that lost the booking delivers it with the order", async () => {
    const first = shop();
    const order = { id: 'LOST-E1', cart: [1, 2] };
    const booked = (await post(first.handler, 'book', { channel: 'app', order }, `lost-${crypto.randomUUID()}`)).data!;
    await payAtWallet(booked.deeplink);
    const restarted = shop();
    // The element's own flow and booking client, talking to the restarted handler.
    const settings = settingsOf({ endpoint: 'http://merchant.test/api/pay', order, allowedHosts: [new URL(booked.deeplink).host] });
    const store = createMemoryBookingStore();
    store.save(settings.storageKey, { ...booked, channel: 'app', idempotency_key: 'k', started_at: Date.now(), settings });
    const flow = new PaymentFlow({
      navigator: () => recordingNavigator(),
      store,
      clock: new FakeClock(Date.now()),
      client: (s) =>
        createBookingClient({
          endpoint: s.endpoint,
          fetch: (url, init) => restarted.handler(new Request(url, init)),
          bookTimeoutMs: 5_000,
          requestTimeoutMs: 5_000,
          clock: { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>) },
        }),
      isVisible: () => true,
      newKey: () => crypto.randomUUID(),
      timings: () => ({ fallbackDelayMs: 1500, pollDelaysMs: [2000], finalCheckAfterMs: 300_000 }),
      emit: () => true,
      onChange: () => undefined,
    });
    flow.configure({ ok: true, settings });
    flow.resume();
    const [result] = await within('the hook', 5_000, () => (restarted.results.length ? restarted.results : undefined));
    assert.equal(result!.status, 'SUCCESS');
    assert.deepEqual(result!.order, order, 'the order the element booked reaches the hook');
    assert.equal(result!.amount, 700);
    flow.dispose();
  });

  test("a recovered booking is saved again: a second tab's book cancels it before booking anew", async () => {
    const first = shop();
    const order = { id: 'LOST-E2' };
    const booked = (await post(first.handler, 'book', { channel: 'app', order }, `lost-${crypto.randomUUID()}`)).data!;
    const store = createMemoryStore();
    const restarted = shop(store);
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id, receipt: booked.receipt };
    // Back before paying: the booking is open; the kit takes it back into its store.
    assert.equal((await post(restarted.handler, 'status', { ...ids, order })).data?.status, 'BOOKED');
    // A second tab books the order: the adopted booking is the order's open one, cancelled first.
    const second = (await post(restarted.handler, 'book', { channel: 'app', order }, `lost-${crypto.randomUUID()}`)).data!;
    assert.notEqual(second.booking_id, booked.booking_id);
    assert.equal(sandbox.getBooking(booked.booking_id)?.status, 'CANCELED', 'the adopted booking was closed before another was made');
    assert.deepEqual(
      restarted.results.map((r) => [r.booking_id, r.status, r.order]),
      [[booked.booking_id, 'CANCELED', order]],
    );
  });

  test('made-up ids, or a lost booking\'s ids without the receipt the kit gave with them, are IP-404 without a call to the service', async () => {
    const first = shop();
    const booked = (await post(first.handler, 'book', { channel: 'app', order: { id: 'LOST-G1' } }, `lost-${crypto.randomUUID()}`)).data!;
    let calls = 0;
    const { handler: restarted } = shop(createMemoryStore(), {
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id };
    for (let i = 0; i < 50; i++) {
      assert.equal((await post(restarted, 'status', { booking_id: `BK-${crypto.randomUUID()}`, correlation_id: crypto.randomUUID() })).code, 'IP-404');
    }
    assert.equal((await post(restarted, 'status', ids)).code, 'IP-404');
    assert.equal((await post(restarted, 'cancel', { ...ids, receipt: booked.receipt.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) })).code, 'IP-404');
    assert.equal((await post(restarted, 'status', { ...ids, booking_id: `${booked.booking_id}x`, receipt: booked.receipt })).code, 'IP-404');
    assert.equal(calls, 0, 'no signed call for ids the kit never gave this browser');
    assert.equal((await post(restarted, 'status', { ...ids, receipt: booked.receipt })).data?.status, 'BOOKED');
    assert.equal(calls, 1);
  });

  test('reconcile finds a recovered booking whose shopper never comes back', async () => {
    const first = shop();
    const order = { id: 'LOST-E3' };
    const booked = (await post(first.handler, 'book', { channel: 'app', order }, `lost-${crypto.randomUUID()}`)).data!;
    const restarted = shop();
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id, receipt: booked.receipt };
    assert.equal((await post(restarted.handler, 'status', { ...ids, order })).data?.status, 'BOOKED');
    await payAtWallet(booked.deeplink);
    // The callback went to a dead address; the shopper closed the tab. Only reconcile is left.
    const report = await restarted.handler.reconcile({ olderThanMs: 0 });
    assert.equal(report.settled, 1, JSON.stringify(report));
    assert.deepEqual(
      restarted.results.map((r) => [r.source, r.status, r.order, r.amount]),
      [['reconcile', 'SUCCESS', order, 700]],
    );
  });
});
