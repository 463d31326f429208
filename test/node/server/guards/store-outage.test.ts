/**
 * A store that cannot answer (its database down or past a deadline) is IP-503 with Retry-After, told to
 * onError once per outage. The store here is the memory store behind a switch: a stub in a unit test
 * of the handler's own mapping; the PostgreSQL faults themselves are exercised with a real server.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler } from '../../../../src/server/handler.js';
import { createMemoryStore, type PaymentStore } from '../../../../src/server/index.js';
import { postgresOutage } from '../../../../src/server/postgres.js';
import { StoreUnavailableError } from '../../../../src/server/store-errors.js';
import { postRoute, onSandbox } from '../helpers.js';

const KEY = 'outage-access-key';
const PRODUCT = 'OUT01';

/** The memory store, failing every call with `fault()` while `down` is set. */
function switchableStore(fault: () => Error): { store: PaymentStore; down: boolean } {
  const inner = createMemoryStore();
  const state = { down: false, store: {} as PaymentStore };
  for (const name of Object.keys(inner) as Array<keyof PaymentStore>) {
    const method = inner[name] as (...args: unknown[]) => Promise<unknown>;
    (state.store as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
      state.down ? Promise.reject(fault()) : method.apply(inner, args);
  }
  return state;
}

const post = (handler: PaymentHandler, route: string, body: unknown, key?: string) => postRoute<Record<string, string>>(handler, route, body, key);

const newKey = () => `outage-${crypto.randomUUID()}`;

describe('a store that cannot answer', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT });
  });
  after(() => sandbox.close());

  function handlerWith(store: PaymentStore, errors: Array<[string, unknown]>): PaymentHandler {
    return createPaymentHandler({
      ...onSandbox(sandbox),
      lookupOrder: (order) => ({ id: String(order.id), amount: 100 }),
      onPaymentResult: () => {},
      onError: (error, { route }) => errors.push([route, error]),
      store,
    });
  }

  test('StoreUnavailableError: IP-503 with Retry-After on every route, told to onError once per outage', async () => {
    const errors: Array<[string, unknown]> = [];
    const switched = switchableStore(() => new StoreUnavailableError('deadline', 'The database did not answer within 2000 ms.'));
    const handler = handlerWith(switched.store, errors);
    const booked = await post(handler, 'book', { channel: 'app', order: { id: 'O-1' } }, newKey());
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    const ids = { booking_id: booked.body.data!.booking_id, correlation_id: booked.body.data!.correlation_id };

    switched.down = true;
    const answers = [
      ...(await Promise.all(Array.from({ length: 6 }, () => post(handler, 'book', { channel: 'app', order: { id: 'O-2' } }, newKey())))),
      await post(handler, 'status', ids),
      await post(handler, 'cancel', ids),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 'IP-503');
      assert.match(answer.body.error_message!, /cannot reach its payment records right now; try again/);
      assert.equal(answer.retryAfter, '2');
    }
    assert.equal(errors.length, 1, `told once, not per request: ${errors.map(([, e]) => String(e)).join(' | ')}`);
    assert.equal(errors[0]![0], 'store');
    assert.ok(errors[0]![1] instanceof StoreUnavailableError);

    // Back: the same key books once; a second outage is told again, once.
    switched.down = false;
    const key = newKey();
    assert.equal((await post(handler, 'book', { channel: 'app', order: { id: 'O-3' } }, key)).status, 200);
    switched.down = true;
    for (let i = 0; i < 3; i++) assert.equal((await post(handler, 'status', ids)).status, 503);
    assert.equal(errors.length, 2);
    switched.down = false;
    assert.equal((await post(handler, 'status', ids)).body.data?.status, 'BOOKED');
  });

  test("a driver's connection failure (ECONNREFUSED, SQLSTATE 57P01, a pool timeout), classified by its store, is IP-503 too; any other store error stays IP-500", async () => {
    const faults: Array<() => Error> = [
      () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      () => Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      () => new Error('timeout exceeded when trying to connect'),
      () => new Error('Connection terminated unexpectedly'),
    ];
    for (const fault of faults) {
      const errors: Array<[string, unknown]> = [];
      // A store of the merchant's own on node-postgres, which reads its driver's errors as the PostgreSQL store does.
      const switched = switchableStore(() => postgresOutage(fault()) ?? fault());
      switched.down = true;
      const answer = await post(handlerWith(switched.store, errors), 'book', { channel: 'app', order: { id: 'O-4' } }, newKey());
      assert.equal(answer.status, 503, `${fault().message}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, 'IP-503');
      assert.equal(errors.length, 1);
      assert.ok(errors[0]![1] instanceof StoreUnavailableError);
      assert.match(String(((errors[0]![1] as Error).cause as Error).message), new RegExp(fault().message.slice(0, 12)), 'the driver error is its cause');
    }
    const errors: Array<[string, unknown]> = [];
    const broken = switchableStore(() => new TypeError('undefined is not a function'));
    broken.down = true;
    const answer = await post(handlerWith(broken.store, errors), 'book', { channel: 'app', order: { id: 'O-5' } }, newKey());
    assert.equal(answer.status, 500);
    assert.equal(answer.body.code, 'IP-500');
    assert.match(String(errors[0]?.[1]), /undefined is not a function/);
  });

  test("the handler reads no driver's codes: a store's unclassified driver error is a defect (IP-500), a StoreUnavailableError of another copy of the package is IP-503", async () => {
    const raw = switchableStore(() => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    raw.down = true;
    const rawErrors: Array<[string, unknown]> = [];
    const refused = await post(handlerWith(raw.store, rawErrors), 'book', { channel: 'app', order: { id: 'O-6' } }, newKey());
    assert.equal(refused.status, 500, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'IP-500');
    assert.ok(!(rawErrors[0]?.[1] instanceof StoreUnavailableError), 'told to onError as it came');

    // A store bundled with its own copy of the package: its class is another, its mark the same.
    class CopyOfStoreUnavailableError extends Error {
      constructor(message: string) {
        super(message);
        Object.defineProperty(this, Symbol.for('wallet-pay-button.store-unavailable'), { value: true });
      }
    }
    const copied = switchableStore(() => new CopyOfStoreUnavailableError('The database did not answer within 2000 ms.'));
    copied.down = true;
    const copiedErrors: Array<[string, unknown]> = [];
    const answer = await post(handlerWith(copied.store, copiedErrors), 'book', { channel: 'app', order: { id: 'O-7' } }, newKey());
    assert.equal(answer.status, 503, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'IP-503');
    assert.equal(copiedErrors.length, 1);
  });
});
