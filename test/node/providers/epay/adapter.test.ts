/**
 * eSewa ePay v2's adapter behind the real handler, against the local sandbox's ePay emulation over
 * real HTTP on loopback: the signed form a book answers, a pay through the login page, each status of
 * eSewa's status check as the kit reads it, reconcile's five-minute rule, the set-up mistakes refused
 * at start or explained to `onError`, and what a new booking costs the store.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createMemoryStore, createPaymentHandler, type PaymentHandler, type PaymentResult } from '../../../../src/server/index.js';
import { esewaEpay, type EsewaEpayOptions } from '../../../../src/server/providers.js';
import type { PaymentStore } from '../../../../src/server/store.js';
import { answer, lateCloningFetch, listen, nodeSign, postRoute, type Loopback } from '../../server/helpers.js';
import { control } from '../../sandbox/support.js';
import { PUBLISHED_KEY, epayOn, openForm, payForm } from './harness.js';

const LIFETIME_MS = 10 * 60_000;
const ELEVEN = ['amount', 'tax_amount', 'product_service_charge', 'product_delivery_charge', 'total_amount', 'transaction_uuid', 'product_code', 'success_url', 'failure_url', 'signed_field_names', 'signature'];

interface WebBooking {
  booking_id: string;
  correlation_id: string;
  channel: string;
  wallet: string;
  web_payment: { url: string; method: string; fields: Record<string, string> };
}

/** A memory store that counts the calls the handler makes of it: each is one round trip on a server. */
function counted(store: PaymentStore): { store: PaymentStore; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

describe('esewaEpay behind the handler, on the sandbox', () => {
  let sandbox: Sandbox;
  let handler: PaymentHandler;
  let calls: string[];
  const delivered: PaymentResult[] = [];
  const errors: unknown[] = [];
  let orders = 0;

  const make = (extra: Partial<EsewaEpayOptions> = {}, onError = (error: unknown) => void errors.push(error)) => {
    const store = counted(createMemoryStore({ now: () => sandbox.clock.now() }));
    calls = store.calls;
    return createPaymentHandler({
      providers: [epayOn(sandbox, { sessionLifetimeMs: LIFETIME_MS, ...extra })],
      store: store.store,
      now: () => sandbox.clock.now(),
      lookupOrder: (order) => ({ id: String(order.id), amount: 250.5 }),
      onPaymentResult: (result) => void delivered.push(result),
      redirectUrl: 'http://127.0.0.1:9/done',
      onError,
    });
  };
  const book = async (channel = 'web', target = handler) => {
    const answered = await postRoute<WebBooking>(target, 'book', { channel, order: { id: `E-${++orders}` } }, `key-${crypto.randomUUID()}`);
    assert.equal(answered.body.code, 'IP-201', JSON.stringify(answered.body));
    return answered.body.data!;
  };
  const status = async (booking: WebBooking, target = handler) => {
    const answered = await postRoute<{ status: string }>(target, 'status', { booking_id: booking.booking_id, correlation_id: booking.correlation_id });
    return answered.body;
  };
  const deliveredFor = (booking: WebBooking) => delivered.filter((result) => result.booking_id === booking.booking_id);
  const admin = (booking: WebBooking, action: string, body: unknown) => control(sandbox.baseUrl, `/sandbox/epay/transactions/EPAYTEST/${booking.booking_id}/${action}`, body);

  before(async () => {
    sandbox = await startSandbox({ sendCallback: () => false });
  });
  after(() => sandbox.close());
  beforeEach(() => {
    handler = make();
    delivered.length = 0;
    errors.length = 0;
  });

  test("a web book answers the POST form to the sandbox's ePay form: the eleven fields, their sum, signed over total_amount,transaction_uuid,product_code", async () => {
    const booked = await book('web');
    assert.equal(booked.channel, 'web');
    assert.equal(booked.wallet, 'esewa');
    const { url, method, fields } = booked.web_payment;
    assert.equal(url, `${sandbox.baseUrl}/api/epay/main/v2/form`);
    assert.equal(method, 'POST');
    assert.deepEqual(Object.keys(fields), ELEVEN);
    assert.equal(Number(fields['amount']), 250.5);
    const parts = ['amount', 'tax_amount', 'product_service_charge', 'product_delivery_charge'].map((name) => Math.round(Number(fields[name]) * 100));
    assert.equal(Math.round(Number(fields['total_amount']) * 100), parts.reduce((a, b) => a + b, 0), 'total_amount is the sum of the four');
    assert.equal(fields['transaction_uuid'], booked.booking_id);
    assert.equal(fields['product_code'], 'EPAYTEST');
    assert.equal(fields['signed_field_names'], 'total_amount,transaction_uuid,product_code');
    const message = `total_amount=${fields['total_amount']},transaction_uuid=${fields['transaction_uuid']},product_code=EPAYTEST`;
    assert.equal(fields['signature'], nodeSign(message, PUBLISHED_KEY));
    for (const name of ['success_url', 'failure_url']) assert.equal(new URL(fields[name]!).searchParams.get('booking_id'), booked.booking_id, `${name} names the booking`);
    assert.match(await openForm(booked), /<form method="post"/, 'the sandbox takes the form');
  });

  test('an app book with ePay alone answers a web booking, which the phone follows', async () => {
    const booked = await book('app');
    assert.equal(booked.channel, 'web');
    assert.equal(booked.web_payment.url, `${sandbox.baseUrl}/api/epay/main/v2/form`);
    assert.equal('deeplink' in booked, false);
  });

  test('posting the form and paying at the login page, then /status, delivers SUCCESS once with the booked amount', async () => {
    const booked = await book();
    assert.equal((await status(booked)).data?.status, 'BOOKED', 'not yet posted');
    const location = await payForm(sandbox.baseUrl, booked);
    assert.ok(location.includes('?data='), location);
    assert.equal((await status(booked)).data?.status, 'SUCCESS');
    assert.equal((await status(booked)).data?.status, 'SUCCESS');
    const results = deliveredFor(booked);
    assert.equal(results.length, 1, JSON.stringify(results));
    assert.deepEqual([results[0]!.status, results[0]!.amount, results[0]!.source], ['SUCCESS', 250.5, 'status']);
    assert.ok(results[0]!.reference_code, 'with eSewa ref_id');
  });

  test('PENDING and AMBIGUOUS stay open: nothing delivered, and reconcile keeps asking', async () => {
    const pending = await book();
    await openForm(pending);
    const ambiguous = await book();
    await payForm(sandbox.baseUrl, ambiguous, 'EPAY-004');
    for (const booking of [pending, ambiguous]) assert.equal((await status(booking)).data?.status, 'PENDING');
    for (let pass = 0; pass < 2; pass++) {
      const report = await handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 });
      assert.deepEqual([report.checked, report.open, report.settled], [2, 2, 0], `pass ${pass}: ${JSON.stringify(report)}`);
    }
    assert.deepEqual(delivered, []);
  });

  test("NOT_FOUND within the session's lifetime is BOOKED, after it CANCELED (the adapter's now, the sandbox's clock)", async () => {
    const booked = await book();
    assert.equal((await status(booked)).data?.status, 'BOOKED');
    await sandbox.clock.advance(LIFETIME_MS - 60_000);
    assert.equal((await status(booked)).data?.status, 'BOOKED');
    await sandbox.clock.advance(61_000);
    assert.equal((await status(booked)).data?.status, 'CANCELED');
    assert.deepEqual(deliveredFor(booked).map((result) => result.status), ['CANCELED']);
  });

  test('FULL_REFUND is REVERTED; PARTIAL_REFUND stays SUCCESS', async () => {
    const full = await book();
    const part = await book();
    for (const booking of [full, part]) {
      await payForm(sandbox.baseUrl, booking);
      assert.equal((await status(booking)).data?.status, 'SUCCESS');
    }
    assert.equal((await admin(full, 'refund', {})).status, 200);
    assert.equal((await admin(part, 'refund', { amount: 50 })).status, 200);
    assert.equal((await status(full)).data?.status, 'REVERTED');
    assert.equal((await status(part)).data?.status, 'SUCCESS');
    assert.deepEqual(deliveredFor(full).map((result) => result.status), ['SUCCESS', 'REVERTED']);
    assert.deepEqual(deliveredFor(part).map((result) => result.status), ['SUCCESS']);
  });

  test('reconcile settles a paid booking nobody came back for, once it is five minutes old', async () => {
    const booked = await book();
    await payForm(sandbox.baseUrl, booked);
    const young = await handler.reconcile();
    assert.equal(young.checked, 0, 'younger than five minutes: not asked');
    await sandbox.clock.advance(5 * 60_000);
    const report = await handler.reconcile();
    assert.deepEqual([report.checked, report.settled], [1, 1], JSON.stringify(report));
    assert.deepEqual(deliveredFor(booked).map((result) => [result.status, result.source, result.amount]), [['SUCCESS', 'reconcile', 250.5]]);
  });

  test('a new ePay booking costs the store at most two round trips', async () => {
    calls.length = 0;
    await book();
    assert.ok(calls.length <= 2, `${calls.length} store calls: ${calls.join(', ')}`);
  });

  test("a status answer a merchant's fetch handed back after timeoutMs is IP-504 to the shopper, not a set-up fault told to onError", async () => {
    const told: unknown[] = [];
    const target = make({ fetch: lateCloningFetch, timeoutMs: 100 }, (error) => void told.push(error));
    const booked = await book('web', target);
    const answered = await status(booked, target);
    assert.equal(answered.code, 'IP-504', JSON.stringify(answered));
    assert.deepEqual(told, []);
  });

  describe('a status host that answers 403', () => {
    let refusing: Loopback;
    before(async () => {
      refusing = await listen(answer(403, 'text/html', '<h1>Forbidden</h1>'));
    });
    after(() => refusing.close());

    test('is told to onError naming statusUrl, and the shopper gets the set-up code', async () => {
      const told: unknown[] = [];
      const target = make({ statusUrl: refusing.url }, (error) => void told.push(error));
      const booked = await book('web', target);
      const answered = await status(booked, target);
      assert.equal(answered.code, 'IP-501', JSON.stringify(answered));
      assert.equal(told.length, 1);
      assert.match(String((told[0] as Error).message), new RegExp(`${refusing.url.replaceAll('.', '\\.')}.*HTTP 403.*statusUrl`, 's'));
    });
  });
});

test('a live configuration with the test product code or the published test secret throws at start, naming the fix', () => {
  const live = (productCode: string, secretKey: string) => () => esewaEpay({ productCode, secretKey, environment: 'live' });
  assert.throws(live('EPAYTEST', 'a-real-secret'), /live.*product code EPAYTEST.*merchant portal.*environment "test"/s);
  assert.throws(live('SHOP01', PUBLISHED_KEY), /live.*secret key.*merchant portal.*environment "test"/s);
  assert.doesNotThrow(live('SHOP01', 'a-real-secret'));
  assert.doesNotThrow(() => esewaEpay({ productCode: 'EPAYTEST', secretKey: PUBLISHED_KEY }), 'the test service takes them');
});
