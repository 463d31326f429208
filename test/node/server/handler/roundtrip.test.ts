import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentResult } from '../../../../src/server/handler.js';
import { createMemoryStore } from '../../../../src/server/index.js';
import { toNodeListener, type NodeListener } from '../../../../src/server/node.js';
import { bodyOf, listen, nodeSign, type Loopback } from '../helpers.js';

const KEY = 'roundtrip-access-key';
const PRODUCT = 'SHOP01';
const ORDERS: Record<string, { id: string; amount: number; properties?: Record<string, string> }> = {
  'R-1': { id: 'R-1', amount: 1000, properties: { order_id: 'R-1' } },
  'R-2': { id: 'R-2', amount: 42.75 },
  // One order per payment that succeeds: another key's book of a paid order is IP-412.
  'R-3': { id: 'R-3', amount: 1000, properties: { order_id: 'R-3' } },
  'R-4': { id: 'R-4', amount: 1000, properties: { order_id: 'R-4' } },
  // Booked only to have a correlation id the kit knows, for callbacks signed here.
  'R-5': { id: 'R-5', amount: 1000 },
  'R-6': { id: 'R-6', amount: 12.5 },
};

interface Booked {
  booking_id: string;
  correlation_id: string;
  deeplink?: string;
  web_payment?: { url: string; method: string; fields: Record<string, string> };
}

describe('round trip: element contract → handler on node:http → sandbox → wallet page → callback', () => {
  let sandbox: Sandbox;
  let kit: Loopback;
  let listener: NodeListener;
  const results: PaymentResult[] = [];
  const hookCalls: PaymentResult[] = [];
  const errors: unknown[] = [];
  let failHook = 0;
  // Like an Express app: the kit is mounted under /api/pay, other paths are the merchant's.
  let app = (request: IncomingMessage, response: ServerResponse): unknown => {
    if (request.url?.startsWith('/api/pay/')) return listener(request, response);
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('merchant page');
  };

  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 3, baseDelayMs: 20 } });
    kit = await listen((request, response) => app(request, response));
    listener = toNodeListener(
      createPaymentHandler({
        serviceUrl: sandbox.baseUrl,
        productCode: PRODUCT,
        accessKey: KEY,
        callbackUrl: `${kit.url}/api/pay/callback`,
        redirectUrl: `${kit.url}/done`,
        lookupOrder: (order) => ORDERS[String(order.id)],
        store: createMemoryStore(),
        onError: (error) => errors.push(error),
        onPaymentResult: async (result) => {
          hookCalls.push(result);
          if (failHook > 0) {
            failHook--;
            throw new Error('could not record the payment');
          }
          results.push(result);
        },
      }),
    );
  });
  after(async () => {
    await sandbox.close();
    await kit.close();
  });
  beforeEach(() => {
    failHook = 0;
  });

  async function book(channel: 'app' | 'web', id: string): Promise<Booked> {
    const response = await fetch(`${kit.url}/api/pay/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ channel, order: { id } }),
    });
    assert.equal(response.status, 200);
    return ((await response.json()) as { data: Booked }).data;
  }

  async function submit(url: string, fields: Record<string, string>): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
  }

  async function callback(body: string, contentType = 'application/json') {
    const response = await fetch(`${kit.url}/api/pay/callback`, { method: 'POST', headers: { 'content-type': contentType }, body });
    return { status: response.status, body: (await response.json()) as { code: string; error_message?: string } };
  }

  test('app channel: pay on the wallet page, the signed callback reaches onPaymentResult as SUCCESS', async () => {
    const booked = await book('app', 'R-1');
    const page = await fetch(booked.deeplink!);
    assert.equal(page.status, 200);
    // The page shows the order's details under names a shopper reads, never the raw property key.
    const html = await page.text();
    assert.match(html, /<dt>Order ID<\/dt><dd>R-1<\/dd>/);
    assert.doesNotMatch(html, /order_id/);
    const confirmed = await submit(`${booked.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
    assert.equal(confirmed.status, 303);
    const redirect = new URL(confirmed.headers.get('location')!);
    assert.equal(`${redirect.origin}${redirect.pathname}`, `${kit.url}/done`);
    assert.equal(redirect.searchParams.get('booking_id'), booked.booking_id);
    assert.equal(redirect.searchParams.get('status'), 'SUCCESS');

    await sandbox.whenCallbacksSettled();
    const attempts = sandbox.callbackAttempts().filter((a) => a.booking_id === booked.booking_id);
    assert.deepEqual(attempts.map((a) => [a.status, a.delivered]), [[200, true]]);
    assert.equal(attempts[0]!.url, `${kit.url}/api/pay/callback`);
    const reported = results.filter((r) => r.correlation_id === booked.correlation_id);
    assert.deepEqual(reported, [
      {
        source: 'callback',
        status: 'SUCCESS',
        correlation_id: booked.correlation_id,
        reference_code: sandbox.getBooking(booked.booking_id)!.reference_code,
        booking_id: booked.booking_id,
        order: { id: 'R-1' },
        order_id: 'R-1',
        transaction_uuid: sandbox.getBooking(booked.booking_id)!.transaction_uuid,
        amount: 1000,
        wallet: 'esewa',
        provider: 'esewa-intent',
      },
    ]);

    // A later status check finds the same final status: the hook is not called again.
    const status = await fetch(`${kit.url}/api/pay/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ booking_id: booked.booking_id, correlation_id: booked.correlation_id }),
    });
    assert.equal(((await status.json()) as { data: { status: string } }).data.status, 'SUCCESS');
    assert.equal(hookCalls.filter((r) => r.correlation_id === booked.correlation_id).length, 1);
  });

  test('web channel: the signed form opens the web payment page; a failed MPIN reaches the hook as FAILED', async () => {
    const booked = await book('web', 'R-2');
    const instruction = booked.web_payment!;
    assert.equal(instruction.url, sandbox.webPaymentUrl);
    const page = await submit(instruction.url, instruction.fields);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /42\.75/);
    const confirmed = await submit(`${sandbox.baseUrl}/web/pay/${encodeURIComponent(booked.booking_id)}/confirm`, {
      mpin: '0000',
      method: 'bank_account',
    });
    assert.equal(confirmed.status, 303);
    assert.equal(new URL(confirmed.headers.get('location')!).searchParams.get('status'), 'FAILED');
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(
      results.filter((r) => r.correlation_id === booked.correlation_id).map((r) => [r.source, r.status, r.amount]),
      [['callback', 'FAILED', 42.75]],
    );
  });

  test('a callback whose hook throws gets a 5xx; the retry is answered 2xx once the hook succeeds', async () => {
    failHook = 1;
    const booked = await book('app', 'R-3');
    await submit(`${booked.deeplink}/confirm`, { mpin: '98765', method: 'wallet_balance' });
    await sandbox.whenCallbacksSettled();
    const attempts = sandbox.callbackAttempts().filter((a) => a.booking_id === booked.booking_id);
    assert.deepEqual(attempts.map((a) => [a.attempt, a.status, a.delivered]), [[1, 500, false], [2, 200, true]]);
    assert.equal(hookCalls.filter((r) => r.correlation_id === booked.correlation_id).length, 2);
    assert.equal(results.filter((r) => r.correlation_id === booked.correlation_id).length, 1);
  });

  test('a refund (REVERTED) after SUCCESS reaches the hook as a new result', async () => {
    const booked = await book('app', 'R-4');
    await submit(`${booked.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
    await sandbox.whenCallbacksSettled();
    sandbox.revert(booked.booking_id);
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(
      results.filter((r) => r.correlation_id === booked.correlation_id).map((r) => r.status),
      ['SUCCESS', 'REVERTED'],
    );
  });

  /** A callback body signed with node:crypto, with the amount written as `amountText`. */
  function signedCallback(fields: { amountText: string; status?: string; product?: string; correlation?: string; key?: string; names?: string }) {
    const status = fields.status ?? 'SUCCESS';
    const product = fields.product ?? PRODUCT;
    const correlation = fields.correlation ?? 'cr-outside';
    const message = `product_code=${product},amount=${fields.amountText},reference_code=REF-1,correlation_id=${correlation},status=${status}`;
    return `{"product_code":"${product}","amount":${fields.amountText},"reference_code":"REF-1","correlation_id":"${correlation}","status":"${status}","signed_field_names":"${fields.names ?? 'product_code,amount,reference_code,correlation_id,status'}","signature":"${nodeSign(message, fields.key ?? KEY)}"}`;
  }

  test('a callback signed over "amount": 1000.0 is verified through the node adapter as written', async () => {
    const booked = await book('app', 'R-5');
    const answer = await callback(signedCallback({ amountText: '1000.0', correlation: booked.correlation_id }));
    assert.equal(answer.status, 200);
    const reported = results.filter((r) => r.correlation_id === booked.correlation_id);
    assert.deepEqual(reported.map((r) => [r.status, r.amount, r.booking_id]), [['SUCCESS', 1000, booked.booking_id]]);
  });

  test('a signed callback for a booking the kit never made is refused (IP-404), reaches no hook, and is told to onError', async () => {
    const before = hookCalls.length;
    const answer = await callback(signedCallback({ amountText: '1000', correlation: 'cr-never-booked' }));
    assert.deepEqual([answer.status, answer.body.code], [404, 'IP-404']);
    assert.equal(hookCalls.length, before, 'no result without a booking');
    assert.ok(
      errors.some((error) => error instanceof Error && /does not know/.test(error.message) && error.message.includes('cr-never-booked')),
      'onError names the refused callback',
    );
  });

  test('tampered, foreign, malformed and non-final callbacks: refused or acknowledged without the hook', async () => {
    const before = hookCalls.length;
    const tampered = signedCallback({ amountText: '1000', correlation: 'cr-t' }).replace('"amount":1000', '"amount":1');
    assert.deepEqual(await callback(tampered), {
      status: 401,
      body: { code: 'IP-400', error_message: 'Callback refused: the signature does not match the signed fields (wrong access key, or the body was altered).' },
    });
    assert.equal((await callback(signedCallback({ amountText: '5', key: 'another-key' }))).body.code, 'IP-400');
    const foreign = await callback(signedCallback({ amountText: '5', product: 'OTHER' }));
    assert.equal(foreign.status, 401);
    assert.match(foreign.body.error_message!, /product_code "OTHER" is not this merchant's/);
    const fields = await callback(signedCallback({ amountText: '5', names: 'product_code,amount,reference_code,correlation_id' }));
    assert.equal(fields.status, 422);
    assert.equal(fields.body.code, 'IP-423');
    const malformed = await callback('{"product_code":');
    assert.deepEqual([malformed.status, malformed.body.code], [422, 'IP-422']);
    const form = await callback('a=1', 'application/x-www-form-urlencoded');
    assert.deepEqual([form.status, form.body.code], [415, 'IP-415']);
    const pending = await callback(signedCallback({ amountText: '5', status: 'PENDING', correlation: 'cr-pending' }));
    assert.equal(pending.status, 200);
    assert.equal(hookCalls.length, before);
  });

  test('the adapter uses a body a parser already read as text, and refuses one parsed into an object', async () => {
    const seen: unknown[] = [];
    const parsed = await book('app', 'R-6');
    const text = signedCallback({ amountText: '12.50', correlation: parsed.correlation_id });
    app = async (request, response) => {
      const raw = await bodyOf(request);
      const withBody = request as IncomingMessage & { body?: unknown };
      withBody.body = request.headers['x-parser'] === 'json' ? JSON.parse(raw) : raw;
      if (request.headers['x-next'] === 'none') return listener(withBody, response);
      listener(withBody, response, (error) => {
        seen.push(error);
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
    };
    const asText = await fetch(`${kit.url}/api/pay/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    assert.equal(asText.status, 200);
    assert.equal(results.find((r) => r.correlation_id === parsed.correlation_id)?.amount, 12.5);
    const asObject = await fetch(`${kit.url}/api/pay/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parser': 'json' },
      body: text,
    });
    assert.equal(asObject.status, 500);
    assert.match(await asObject.text(), /mount the payment handler before any body parser/);
    assert.equal(seen.length, 1);
    // Without a next(), the adapter answers a plain failure envelope itself.
    const bare = await fetch(`${kit.url}/api/pay/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parser': 'json', 'x-next': 'none' },
      body: text,
    });
    assert.equal(bare.status, 500);
    assert.deepEqual(await bare.json(), { code: 'IP-500', error_message: 'The server could not handle this request.' });
    assert.equal(seen.length, 1);
  });
});
