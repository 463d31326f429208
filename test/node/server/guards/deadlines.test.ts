/**
 * Deadlines on what the merchant plugs in: a slow `lookupOrder` and a custom store that hangs answer
 * `IP-503` at their deadline instead of holding the request, and a booking the service made while the
 * store could not save it is cancelled at the service, never left open.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler, type PaymentHandlerOptions } from '../../../../src/server/handler.js';
import { createMemoryStore, type PaymentStore } from '../../../../src/server/index.js';
import { orderKeyOf } from '../../../../src/server/order-tag.js';
import { postRoute as post, onSandbox } from '../helpers.js';

const KEY = 'deadline-access-key';
const PRODUCT = 'DEAD01';
const newKey = () => `deadline-${crypto.randomUUID()}`;

/** `promise`, or a failure naming `what` once `ms` passed: the test's own time limit. */
function within<T>(what: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const forever = () => new Promise<never>(() => {});

describe('deadlines on what the merchant plugs in', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT });
  });
  after(() => sandbox.close());

  function handlerWith(overrides: Partial<PaymentHandlerOptions>, errors: unknown[] = []): PaymentHandler {
    return createPaymentHandler({
      ...onSandbox(sandbox),
      store: createMemoryStore(),
      lookupOrder: (order) => ({ id: String(order.id), amount: 100 }),
      onPaymentResult: () => undefined,
      onError: (error) => void errors.push(error),
      ...overrides,
    });
  }

  test('a lookupOrder that does not answer within lookupTimeoutMs: IP-503 with a time to come back, told, nothing booked', async () => {
    const errors: unknown[] = [];
    const before = sandbox.listBookings().length;
    const handler = handlerWith({ lookupOrder: forever, lookupTimeoutMs: 200 }, errors);
    const answer = await within('/book with a hung lookupOrder', 10_000, post(handler, 'book', { channel: 'app', order: { id: 'SLOW-1' } }, newKey()));
    assert.equal(answer.body.code, 'IP-503', JSON.stringify(answer.body));
    assert.ok(answer.retryAfter, 'a time to come back');
    assert.match(String(errors[0]), /lookupOrder did not answer within 200 ms/);
    assert.equal(sandbox.listBookings().length, before);
  });

  test('/order with a lookupOrder that does not answer within lookupTimeoutMs: IP-503 with a time to come back, told', async () => {
    const errors: unknown[] = [];
    const handler = handlerWith({ lookupOrder: forever, lookupTimeoutMs: 200 }, errors);
    const answer = await within('/order with a hung lookupOrder', 10_000, post(handler, 'order', { order: { id: 'SLOW-2' } }));
    assert.equal(answer.body.code, 'IP-503', JSON.stringify(answer.body));
    assert.ok(answer.retryAfter, 'a time to come back');
    assert.match(String(errors[0]), /lookupOrder did not answer within 200 ms/);
  });

  test('a custom store that hangs: each request answers IP-503 at storeTimeoutMs, and the store is told once', async () => {
    const errors: unknown[] = [];
    const hanging = new Proxy(createMemoryStore(), { get: (target, name) => (typeof name === 'string' && name in target ? forever : Reflect.get(target, name)) });
    const handler = handlerWith({ store: hanging as PaymentStore, storeTimeoutMs: 200 }, errors);
    for (const [route, body, key] of [
      ['book', { channel: 'app', order: { id: 'HANG-1' } }, newKey()],
      ['status', { booking_id: 'BK-1', correlation_id: 'c' }, undefined],
    ] as const) {
      const answer = await within(`/${route} on a hung store`, 10_000, post(handler, route, body, key));
      assert.equal(answer.body.code, 'IP-503', `${route}: ${JSON.stringify(answer.body)}`);
    }
    assert.equal(errors.length, 1, errors.map(String).join(' | '));
    assert.match(String(errors[0]), /did not answer \w+ within 200 ms/);
  });

  test('the store misses its deadline saving a booking the service made: that booking is cancelled at the service, the shopper gets IP-503', async () => {
    const memory = createMemoryStore();
    const store: PaymentStore = { ...memory, insertBooking: forever };
    for (const name of Object.keys(memory) as Array<keyof PaymentStore>) {
      if (name !== 'insertBooking') (store as unknown as Record<string, unknown>)[name] = (memory[name] as (...args: unknown[]) => unknown).bind(memory);
    }
    const handler = handlerWith({ store, storeTimeoutMs: 300 });
    const answer = await within('/book when the insert hangs', 10_000, post(handler, 'book', { channel: 'app', order: { id: 'UNSAVED-1' } }, newKey()));
    assert.equal(answer.body.code, 'IP-503', JSON.stringify(answer.body));
    const made = sandbox.listBookings().filter((b) => b.properties.merchant_order === 'UNSAVED-1');
    assert.equal(made.length, 1);
    assert.equal(made[0]!.status, 'CANCELED', 'the unsaved booking is not left open at the service');
  });

  test("a book waiting for its order's lease gives up after the documented wait even when the handler's now() stands still", async () => {
    const store = createMemoryStore();
    // Another instance holds the order's lease for a minute.
    const orderKey = await orderKeyOf('HELD-1');
    const taken = await store.beginBooking({ key: 'other-key', orderKey, lease: `order:${orderKey}`, owner: 'another-instance', leaseMs: 60_000 });
    assert.equal(taken.status, 'leased');
    const handler = handlerWith({ store, timeoutMs: 100, now: () => 1_700_000_000_000 });
    const answer = await within('/book while another instance holds the order', 20_000, post(handler, 'book', { channel: 'app', order: { id: 'HELD-1' } }, newKey()));
    assert.equal(answer.body.code, 'IP-504', JSON.stringify(answer.body));
    assert.match(answer.body.error_message!, /Another payment of this order is being booked/);
  });

  test('refuses deadlines that make no sense', () => {
    for (const name of ['lookupTimeoutMs', 'storeTimeoutMs'] as const) {
      assert.throws(() => handlerWith({ [name]: 0 }), new RegExp(`${name} must be a positive number`));
      assert.throws(() => handlerWith({ [name]: Number.NaN }), new RegExp(`${name} must be a positive number`));
    }
  });
});
