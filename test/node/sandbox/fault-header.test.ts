/**
 * The `Wallet-Pay-Fault` header: one request to any sandbox API fails exactly as it asks (timeout,
 * error, slow), whatever the chaos settings, and an unknown value is a 400 naming the known ones.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { book, pay } from './support.js';
import { initiate, initiateBody, khaltiPost, submitPage } from './khalti/support.js';

const KEY = 'sandbox-access-key';
const PRODUCT = 'SANDBOX';
const sign = (message: string) => createHmac('sha256', KEY).update(message).digest('base64');

/** One API of the sandbox: how to send a request to it with extra headers. */
type Call = (sandbox: Sandbox, headers: Record<string, string>, signal: AbortSignal) => Promise<Response>;

function intent(operation: 'status' | 'cancel', booking: () => { id: string; correlation: string }): Call {
  return (sandbox, headers, signal) => {
    const { id, correlation } = booking();
    const fields: Record<string, string> =
      operation === 'status'
        ? { booking_id: id, product_code: PRODUCT, correlation_id: correlation, signed_field_names: 'booking_id,product_code,correlation_id' }
        : { booking_id: id, product_code: PRODUCT, signed_field_names: 'booking_id,product_code' };
    const signature = sign(fields['signed_field_names']!.split(',').map((name) => `${name}=${fields[name]}`).join(','));
    return fetch(`${sandbox.baseUrl}/api/client/intent/payment/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ ...fields, signature }),
      signal,
    });
  };
}

const bookCall: Call = (sandbox, headers, signal) => {
  const uuid = `fault-${crypto.randomUUID()}`;
  const body = {
    product_code: PRODUCT,
    amount: 100,
    transaction_uuid: uuid,
    signed_field_names: 'product_code,amount,transaction_uuid',
    signature: sign(`product_code=${PRODUCT},amount=100,transaction_uuid=${uuid}`),
    callback_url: 'http://127.0.0.1:9/cb',
    redirect_url: 'http://127.0.0.1:9/return',
    properties: {},
  };
  return fetch(`${sandbox.baseUrl}/api/client/intent/payment/book`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
};

const khaltiCall =
  (path: string, body: () => unknown): Call =>
  (sandbox, headers, signal) =>
    fetch(`${sandbox.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Key ${KEY}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body()),
      signal,
    });

let sandbox: Sandbox;
let booking = { id: '', correlation: '' };
let pidx = '';
let transactionId = '';

const APIS: Record<string, { call: Call; ok: number; error: { status: number; body: RegExp } }> = {
  'intent book': { call: bookCall, ok: 200, error: { status: 500, body: /"code":"IP-500".*Wallet-Pay-Fault/ } },
  'intent status': { call: intent('status', () => booking), ok: 200, error: { status: 500, body: /"code":"IP-500".*Wallet-Pay-Fault/ } },
  'intent cancel': { call: intent('cancel', () => booking), ok: 200, error: { status: 500, body: /"code":"IP-500".*Wallet-Pay-Fault/ } },
  'ePay status': {
    call: (s, headers, signal) => fetch(`${s.baseUrl}/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=100&transaction_uuid=none`, { headers, signal }),
    ok: 200,
    error: { status: 503, body: /^\{"error_message":"Service is currently unavailable","code":0\}$/ },
  },
  'Khalti initiate': { call: khaltiCall('/api/v2/epayment/initiate/', () => initiateBody({ purchase_order_id: `fault-${crypto.randomUUID()}` })), ok: 200, error: { status: 503, body: /Wallet-Pay-Fault/ } },
  'Khalti lookup': { call: khaltiCall('/api/v2/epayment/lookup/', () => ({ pidx })), ok: 200, error: { status: 503, body: /Wallet-Pay-Fault/ } },
  'Khalti refund': { call: khaltiCall(`/api/merchant-transaction/__tx__/refund/`, () => ({})), ok: 200, error: { status: 503, body: /Wallet-Pay-Fault/ } },
};

/** A request that must not be answered: the client gives up after `ms`; resolves with how it ended. */
async function unanswered(call: Call, headers: Record<string, string>, ms = 400): Promise<string> {
  try {
    const response = await call(sandbox, headers, AbortSignal.timeout(ms));
    return `answered ${response.status}`;
  } catch (error) {
    return (error as Error).name;
  }
}

describe('the Wallet-Pay-Fault header, on every API', () => {
  before(async () => {
    // Chaos on (every request draws) but with no faults of its own: the header alone decides.
    sandbox = await startSandbox({ chaos: { errors: 0, timeouts: 0, seed: 1, holdMs: 60_000 } });
    const booked = await book(sandbox.baseUrl, { key: KEY, product: PRODUCT });
    booking = { id: booked.body.data!['booking_id']!, correlation: booked.body.data!['correlation_id']! };
    const started = await initiate(sandbox.baseUrl, { amount: 100_000 });
    pidx = started.pidx;
    const paid = await submitPage(sandbox.baseUrl, pidx);
    transactionId = new URL(paid.headers.get('location')!).searchParams.get('transaction_id')!;
    const path = '/api/merchant-transaction/__tx__/refund/';
    APIS['Khalti refund']!.call = khaltiCall(path.replace('__tx__', transactionId), () => ({ amount: 1000 }));
  });
  after(() => sandbox.close());

  for (const [name, api] of Object.entries(APIS)) {
    test(`${name}: error answers at once without running the call; an unknown value is a 400 naming the known ones; without the header it answers`, async () => {
      const count = sandbox.listBookings().length;
      const failed = await api.call(sandbox, { 'wallet-pay-fault': 'error' }, AbortSignal.timeout(5000));
      assert.equal(failed.status, api.error.status);
      assert.match(await failed.text(), api.error.body);
      assert.equal(sandbox.listBookings().length, count, 'an error runs nothing');
      const unknown = await api.call(sandbox, { 'wallet-pay-fault': 'boom' }, AbortSignal.timeout(5000));
      assert.equal(unknown.status, 400);
      assert.deepEqual(await unknown.json(), { error_message: 'Wallet-Pay-Fault must be one of timeout, error, slow; got "boom".', allowed: ['timeout', 'error', 'slow'] });
      const plain = await api.call(sandbox, {}, AbortSignal.timeout(5000));
      await plain.arrayBuffer();
      assert.equal(plain.status, api.ok, `${name} answers without the header`);
    });

    test(`${name}: timeout never answers (the client gives up)`, async () => {
      assert.equal(await unanswered(api.call, { 'Wallet-Pay-Fault': 'TimeOut' }), 'TimeoutError');
    });
  }

  test('a timed-out book is made all the same, as when a real answer is lost', async () => {
    const count = sandbox.listBookings().length;
    assert.equal(await unanswered(bookCall, { 'wallet-pay-fault': 'timeout' }), 'TimeoutError');
    assert.equal(sandbox.listBookings().length, count + 1);
  });

  test('the header on a page too: an error page instead of the wallet page', async () => {
    const booked = await book(sandbox.baseUrl, { key: KEY, product: PRODUCT });
    const page = await fetch(booked.body.data!['deeplink']!, { headers: { 'wallet-pay-fault': 'error' }, signal: AbortSignal.timeout(5000) });
    assert.equal(page.status, 503);
    assert.match(await page.text(), /unavailable \(Wallet-Pay-Fault\)/);
    assert.equal((await pay(sandbox.baseUrl, booked.body.data!['booking_id']!)).status, 303, 'the page works without it');
  });
});

describe('the Wallet-Pay-Fault header against chaos', () => {
  test('works on a sandbox without chaos', async () => {
    const calm = await startSandbox();
    try {
      const failed = await bookCall(calm, { 'wallet-pay-fault': 'error' }, AbortSignal.timeout(5000));
      assert.equal(failed.status, 500);
      assert.match(await failed.text(), /Unexpected error in the sandbox \(Wallet-Pay-Fault\)/);
      assert.deepEqual(calm.listBookings(), []);
    } finally {
      await calm.close();
    }
  });

  test('slow holds each API 3 s then answers as usual, even where chaos fails every request', async () => {
    const chaotic = await startSandbox({ chaos: { errors: 1, seed: 1 } });
    try {
      const slow = { 'wallet-pay-fault': 'slow' };
      const started = Date.now();
      const [status, epay, lookup] = await Promise.all([
        intent('status', () => ({ id: 'BK-none', correlation: 'x' }))(chaotic, slow, AbortSignal.timeout(8000)),
        fetch(`${chaotic.baseUrl}/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=100&transaction_uuid=none`, { headers: slow, signal: AbortSignal.timeout(8000) }),
        khaltiPost(chaotic.baseUrl, '/api/v2/epayment/lookup/', { pidx: 'none' }, { headers: { authorization: `Key ${KEY}`, 'content-type': 'application/json', ...slow } }).catch((error: Error) => error),
      ]);
      const took = Date.now() - started;
      assert.ok(took >= 2900, `held ${took} ms`);
      assert.equal(status.status, 404, 'the status check ran: no such booking, not chaos 500');
      assert.equal((await epay.json() as { status?: string }).status, 'NOT_FOUND');
      assert.ok(!(lookup instanceof Error) && lookup.status === 404, String(lookup instanceof Error ? lookup.message : lookup.text));
      const unheaded = await fetch(`${chaotic.baseUrl}/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=100&transaction_uuid=none`, { signal: AbortSignal.timeout(5000) });
      assert.equal(unheaded.status, 503, 'without the header chaos decides');
    } finally {
      await chaotic.close();
    }
  });
});
