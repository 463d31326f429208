import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { freePort } from '../../../../scripts/host.mjs';

// Signatures are computed here with node:crypto, never with the code under test.
const nodeSign = (message: string, key: string) =>
  createHmac('sha256', Buffer.from(key, 'utf8')).update(message, 'utf8').digest('base64');

const KEY = 'pages-test-key';
const PRODUCT = 'SHOP01';
const BASE_DELAY = 20;
const ATTEMPTS = 4;

/** A real merchant callback endpoint: each path fails its first `failures` requests with HTTP 500. */
class Receiver {
  readonly received: Array<{ path: string; body: string; contentType: string | undefined; at: number }> = [];
  private readonly failures = new Map<string, number>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, body: Buffer.concat(chunks).toString('utf8'), contentType: req.headers['content-type'], at: performance.now() });
        const left = this.failures.get(path) ?? 0;
        if (left > 0) this.failures.set(path, left - 1);
        res.writeHead(left > 0 ? 500 : 204).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A fresh callback URL that fails `failures` times (Infinity: always). */
  endpoint(name: string, failures = 0): string {
    this.failures.set(`/${name}`, failures);
    return `${this.url}/${name}`;
  }

  at(name: string) {
    return this.received.filter((r) => r.path === `/${name}`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let counter = 0;

async function book(sandbox: Sandbox, callbackUrl: string, properties: Record<string, string> = { item: 'Green tea' }, amount = 1250.5) {
  const uuid = `order-${++counter}`;
  const body = {
    product_code: PRODUCT,
    amount,
    transaction_uuid: uuid,
    signed_field_names: 'product_code,amount,transaction_uuid',
    signature: nodeSign(`product_code=${PRODUCT},amount=${amount},transaction_uuid=${uuid}`, KEY),
    callback_url: callbackUrl,
    redirect_url: 'https://shop.example/return?order=A-1',
    properties,
  };
  const response = await fetch(`${sandbox.baseUrl}/api/client/intent/payment/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  const { data } = (await response.json()) as { data: { booking_id: string; correlation_id: string; deeplink: string } };
  return data;
}

function postForm(url: string, fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded') {
  return fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
}

async function apiStatus(sandbox: Sandbox, bookingId: string, correlationId: string): Promise<string> {
  const response = await fetch(`${sandbox.baseUrl}/api/client/intent/payment/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      booking_id: bookingId,
      product_code: PRODUCT,
      correlation_id: correlationId,
      signed_field_names: 'booking_id,product_code,correlation_id',
      signature: nodeSign(`booking_id=${bookingId},product_code=${PRODUCT},correlation_id=${correlationId}`, KEY),
    }),
  });
  return ((await response.json()) as { data: { status: string } }).data.status;
}

async function apiCancel(sandbox: Sandbox, bookingId: string) {
  const response = await fetch(`${sandbox.baseUrl}/api/client/intent/payment/cancel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      booking_id: bookingId,
      product_code: PRODUCT,
      signed_field_names: 'booking_id,product_code',
      signature: nodeSign(`booking_id=${bookingId},product_code=${PRODUCT}`, KEY),
    }),
  });
  return { status: response.status, body: (await response.json()) as { code: string; data?: { status: string } } };
}

function expectedLocation(bookingId: string, status: string): string {
  return `https://shop.example/return?order=A-1&booking_id=${bookingId}&status=${status}`;
}

/** Checks a callback body against the spec's fields and a node:crypto signature. */
function assertSignedCallback(raw: string, booking: { correlation_id: string }, status: string, amount = 1250.5) {
  const body = JSON.parse(raw) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['amount', 'correlation_id', 'product_code', 'reference_code', 'signature', 'signed_field_names', 'status']);
  assert.equal(body['signed_field_names'], 'product_code,amount,reference_code,correlation_id,status');
  assert.equal(body['product_code'], PRODUCT);
  assert.equal(body['amount'], amount);
  assert.equal(body['correlation_id'], booking.correlation_id);
  assert.equal(body['status'], status);
  const amountText = /"amount":([^,}]+)/.exec(raw)![1];
  const message = `product_code=${PRODUCT},amount=${amountText},reference_code=${String(body['reference_code'])},correlation_id=${booking.correlation_id},status=${status}`;
  assert.equal(body['signature'], nodeSign(message, KEY));
}

describe('sandbox pages and callbacks', () => {
  let sandbox: Sandbox;
  const receiver = new Receiver();
  const logLines: string[] = [];

  before(async () => {
    await receiver.start();
    sandbox = await startSandbox({
      accessKey: KEY,
      productCode: PRODUCT,
      callbackRetry: { attempts: ATTEMPTS, baseDelayMs: BASE_DELAY },
      log: (line) => logLines.push(line),
    });
  });
  after(async () => {
    await sandbox.close();
    await receiver.close();
  });

  describe('wallet page (deeplink)', () => {
    test('shows the details and the properties, escaped, and never the access key', async () => {
      const data = await book(sandbox, receiver.endpoint('show'), { item: '<script>alert(1)</script>', order_ref: 'A&B "1"' });
      assert.ok(data.deeplink.startsWith(`${sandbox.linksUrl}/pay/`));
      const response = await fetch(data.deeplink);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type')!, /^text\/html/);
      assert.match(response.headers.get('content-security-policy')!, /default-src 'none'/);
      const html = await response.text();
      assert.ok(!html.includes('<script>'), 'a property value is never rendered as markup');
      assert.ok(html.includes('&#60;script&#62;alert(1)&#60;/script&#62;'));
      assert.ok(html.includes('A&#38;B &#34;1&#34;'));
      assert.match(html, /<div class="amount">NPR 1,250\.50<\/div>/, 'the amount with its currency');
      assert.ok(html.includes(data.booking_id));
      assert.ok(html.includes('<dt>Order ref</dt>') && !html.includes('order_ref'), 'a property under its name, not its key');
      assert.ok(html.includes('<p class="product">&#60;script&#62;'), 'what is paid for, under the amount');
      assert.match(html, /name="mpin"/);
      assert.match(html, /value="wallet_balance"/);
      assert.match(html, /value="bank_account"/);
      assert.ok(!html.includes(KEY));
      assert.ok(html.includes(`action="/pay/${data.booking_id}/confirm"`));
      assert.ok(html.includes(`action="/pay/${data.booking_id}/cancel"`));
    });

    test('a good MPIN pays: SUCCESS, 303 to redirect_url with the outcome, a signed callback', async () => {
      const data = await book(sandbox, receiver.endpoint('good'));
      const response = await postForm(`${data.deeplink}/confirm`, { mpin: '123456', method: 'bank_account' });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), expectedLocation(data.booking_id, 'SUCCESS'));
      assert.equal(await apiStatus(sandbox, data.booking_id, data.correlation_id), 'SUCCESS');
      assert.equal(sandbox.getBooking(data.booking_id)!.payment_method, 'bank_account');
      await sandbox.whenCallbacksSettled();
      const calls = receiver.at('good');
      assert.equal(calls.length, 1);
      assert.match(calls[0]!.contentType!, /^application\/json/);
      assertSignedCallback(calls[0]!.body, data, 'SUCCESS');
      assert.equal(JSON.parse(calls[0]!.body).reference_code, sandbox.getBooking(data.booking_id)!.reference_code);
    });

    test('MPIN 0000 fails the payment: FAILED, redirect, callback', async () => {
      const data = await book(sandbox, receiver.endpoint('fail'));
      const response = await postForm(`${data.deeplink}/confirm`, { mpin: '0000', method: 'wallet_balance' });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), expectedLocation(data.booking_id, 'FAILED'));
      assert.equal(await apiStatus(sandbox, data.booking_id, data.correlation_id), 'FAILED');
      await sandbox.whenCallbacksSettled();
      assertSignedCallback(receiver.at('fail')[0]!.body, data, 'FAILED');
      assert.equal((await apiCancel(sandbox, data.booking_id)).body.code, 'IP-410');
    });

    test('cancel on the page: CANCELED, redirect, callback', async () => {
      const data = await book(sandbox, receiver.endpoint('user-cancel'));
      const response = await postForm(`${data.deeplink}/cancel`, {});
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), expectedLocation(data.booking_id, 'CANCELED'));
      assert.equal(await apiStatus(sandbox, data.booking_id, data.correlation_id), 'CANCELED');
      await sandbox.whenCallbacksSettled();
      assertSignedCallback(receiver.at('user-cancel')[0]!.body, data, 'CANCELED');
    });

    test('a malformed MPIN or method re-shows the page with 422 and changes nothing', async () => {
      const data = await book(sandbox, receiver.endpoint('malformed'));
      for (const fields of [{ mpin: '12', method: 'wallet_balance' }, { mpin: '1234567', method: 'wallet_balance' }, { mpin: '12a4', method: 'wallet_balance' }, { method: 'wallet_balance' }, { mpin: '1234', method: 'credit_card' }, { mpin: '1234' }]) {
        const response = await postForm(`${data.deeplink}/confirm`, fields as Record<string, string>);
        assert.equal(response.status, 422, JSON.stringify(fields));
        assert.match(await response.text(), /role="alert"/);
      }
      assert.equal(sandbox.getBooking(data.booking_id)!.status, 'BOOKED');
      await sandbox.whenCallbacksSettled();
      assert.equal(receiver.at('malformed').length, 0);
    });

    test('a paid booking cannot be confirmed or cancelled again on the page (409)', async () => {
      const data = await book(sandbox, receiver.endpoint('twice'));
      await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      const again = await postForm(`${data.deeplink}/confirm`, { mpin: '0000', method: 'wallet_balance' });
      assert.equal(again.status, 409);
      assert.match(await again.text(), /already SUCCESS/);
      assert.equal((await postForm(`${data.deeplink}/cancel`, {})).status, 409);
      assert.equal((await fetch(data.deeplink)).status, 409);
      assert.equal(sandbox.getBooking(data.booking_id)!.status, 'SUCCESS');
      await sandbox.whenCallbacksSettled();
      assert.equal(receiver.at('twice').length, 1);
    });

    test('transport errors: unknown booking 404, wrong method 405, not a form 415', async () => {
      assert.equal((await fetch(`${sandbox.linksUrl}/pay/BK-unknown`)).status, 404);
      assert.equal((await fetch(`${sandbox.linksUrl}/pay/%E0%A4%A`)).status, 404);
      assert.equal((await postForm(`${sandbox.linksUrl}/pay/BK-unknown/confirm`, { mpin: '1234', method: 'wallet_balance' })).status, 404);
      assert.equal((await fetch(`${sandbox.linksUrl}/elsewhere`)).status, 404);
      const data = await book(sandbox, receiver.endpoint('transport'));
      const get = await fetch(`${data.deeplink}/confirm`);
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      assert.equal((await fetch(data.deeplink, { method: 'POST' })).status, 405);
      const json = await fetch(`${data.deeplink}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"mpin":"1234"}' });
      assert.equal(json.status, 415);
      assert.equal(sandbox.getBooking(data.booking_id)!.status, 'BOOKED');
    });
  });

  describe('test controls', () => {
    test('sandbox_outcome "pending" stays PENDING with no callback; the merchant may cancel it', async () => {
      const data = await book(sandbox, receiver.endpoint('pending'), { sandbox_outcome: 'pending' });
      const response = await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), expectedLocation(data.booking_id, 'PENDING'));
      assert.equal(await apiStatus(sandbox, data.booking_id, data.correlation_id), 'PENDING');
      await sandbox.whenCallbacksSettled();
      assert.equal(await apiStatus(sandbox, data.booking_id, data.correlation_id), 'PENDING');
      assert.equal(receiver.at('pending').length, 0);
      assert.equal(sandbox.callbackAttempts().filter((a) => a.booking_id === data.booking_id).length, 0);
      assert.equal((await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' })).status, 409);
      const cancel = await apiCancel(sandbox, data.booking_id);
      assert.equal(cancel.body.code, 'IP-210');
      assert.equal(cancel.body.data!.status, 'CANCELED');
    });

    test('sandbox_callback "never" sends no callback; the status check still settles it', async () => {
      const data = await book(sandbox, receiver.endpoint('never'), { sandbox_callback: 'never' });
      await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      await sandbox.whenCallbacksSettled();
      assert.equal(receiver.at('never').length, 0);
      assert.equal(sandbox.callbackAttempts().filter((a) => a.booking_id === data.booking_id).length, 0);
      assert.equal(await apiStatus(sandbox, data.booking_id, data.correlation_id), 'SUCCESS');
      assert.ok(logLines.some((line) => line.includes(data.booking_id) && line.includes('never')));
    });

    test('sandbox_callback "delay" sends the first attempt after baseDelayMs * 4', async () => {
      const data = await book(sandbox, receiver.endpoint('delay'), { sandbox_callback: 'delay' });
      const confirmedAt = performance.now();
      await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      await sandbox.whenCallbacksSettled();
      const calls = receiver.at('delay');
      assert.equal(calls.length, 1);
      assert.ok(calls[0]!.at - confirmedAt >= BASE_DELAY * 4 - 2, `arrived after ${calls[0]!.at - confirmedAt} ms`);
      assertSignedCallback(calls[0]!.body, data, 'SUCCESS');
    });

    test('revert (admin call): SUCCESS becomes REVERTED with a callback; other states are refused', async () => {
      const data = await book(sandbox, receiver.endpoint('revert'));
      const early = await fetch(`${sandbox.baseUrl}/sandbox/bookings/${data.booking_id}/revert`, { method: 'POST' });
      assert.equal(early.status, 409);
      assert.equal(((await early.json()) as { code: string }).code, 'IP-410');
      await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      // Each callback is its own request, so two in flight at once may land in either order (as the
      // service's may): the payment's is delivered before the refund is made.
      await sandbox.whenCallbacksSettled();
      const response = await fetch(`${sandbox.baseUrl}/sandbox/bookings/${data.booking_id}/revert`, { method: 'POST' });
      assert.equal(response.status, 200);
      assert.deepEqual(((await response.json()) as { data: unknown }).data, { booking_id: data.booking_id, status: 'REVERTED' });
      assert.equal(await apiStatus(sandbox, data.booking_id, data.correlation_id), 'REVERTED');
      assert.equal((await apiCancel(sandbox, data.booking_id)).body.code, 'IP-410');
      await sandbox.whenCallbacksSettled();
      const calls = receiver.at('revert');
      assert.deepEqual(calls.map((c) => JSON.parse(c.body).status), ['SUCCESS', 'REVERTED']);
      assertSignedCallback(calls[1]!.body, data, 'REVERTED');
      assert.throws(() => sandbox.revert(data.booking_id), /Only a SUCCESS booking/);
      assert.equal((await fetch(`${sandbox.baseUrl}/sandbox/bookings/BK-none/revert`, { method: 'POST' })).status, 404);
      assert.equal((await fetch(`${sandbox.baseUrl}/sandbox/bookings/${data.booking_id}/revert`)).status, 405);
    });

    test('revert() programmatically', async () => {
      const data = await book(sandbox, receiver.endpoint('revert-api'));
      await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      assert.equal(sandbox.revert(data.booking_id).status, 'REVERTED');
      assert.throws(() => sandbox.revert('BK-none'), /No booking/);
    });
  });

  describe('transitions', () => {
    /** Drives a fresh booking into `status` through the real pages and API. */
    async function bookingIn(status: string) {
      const data = await book(sandbox, receiver.endpoint(`state-${status}-${++counter}`), status === 'PENDING' ? { sandbox_outcome: 'pending' } : {});
      if (status === 'SUCCESS' || status === 'PENDING' || status === 'REVERTED') {
        await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      }
      if (status === 'FAILED') await postForm(`${data.deeplink}/confirm`, { mpin: '0000', method: 'wallet_balance' });
      if (status === 'CANCELED') await postForm(`${data.deeplink}/cancel`, {});
      if (status === 'REVERTED') sandbox.revert(data.booking_id);
      assert.equal(sandbox.getBooking(data.booking_id)!.status, status);
      return data;
    }

    for (const status of ['SUCCESS', 'FAILED', 'CANCELED', 'REVERTED']) {
      test(`${status} is final: API cancel is IP-410, the page refuses confirm and cancel`, async () => {
        const data = await bookingIn(status);
        const cancel = await apiCancel(sandbox, data.booking_id);
        assert.equal(cancel.status, 409);
        assert.equal(cancel.body.code, 'IP-410');
        assert.equal((await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' })).status, 409);
        assert.equal((await postForm(`${data.deeplink}/cancel`, {})).status, 409);
        assert.equal(sandbox.getBooking(data.booking_id)!.status, status);
        if (status !== 'SUCCESS') assert.throws(() => sandbox.revert(data.booking_id), /Only a SUCCESS booking/);
      });
    }

    for (const status of ['BOOKED', 'PENDING']) {
      test(`${status} is cancellable through the API (IP-210)`, async () => {
        const data = await bookingIn(status);
        const cancel = await apiCancel(sandbox, data.booking_id);
        assert.equal(cancel.body.code, 'IP-210');
        assert.equal(await apiStatus(sandbox, data.booking_id, data.correlation_id), 'CANCELED');
        assert.deepEqual(sandbox.getBooking(data.booking_id)!.history.map((h) => h.status), status === 'BOOKED' ? ['BOOKED', 'CANCELED'] : ['BOOKED', 'PENDING', 'CANCELED']);
      });
    }

    test('a merchant cancel sends no callback (the merchant asked for it)', async () => {
      const data = await bookingIn('BOOKED');
      await apiCancel(sandbox, data.booking_id);
      await sandbox.whenCallbacksSettled();
      assert.equal(sandbox.callbackAttempts().filter((a) => a.booking_id === data.booking_id).length, 0);
    });
  });

  describe('callback delivery', () => {
    test('retries with exponential backoff until a 2xx, logging every attempt', async () => {
      const data = await book(sandbox, receiver.endpoint('flaky', 2));
      await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      await sandbox.whenCallbacksSettled();
      const calls = receiver.at('flaky');
      assert.equal(calls.length, 3);
      for (const call of calls) assertSignedCallback(call.body, data, 'SUCCESS');
      assert.ok(calls[1]!.at - calls[0]!.at >= BASE_DELAY - 2, 'first retry waits baseDelayMs');
      assert.ok(calls[2]!.at - calls[1]!.at >= BASE_DELAY * 2 - 2, 'second retry waits twice as long');
      const attempts = sandbox.callbackAttempts().filter((a) => a.booking_id === data.booking_id);
      assert.deepEqual(attempts.map((a) => [a.attempt, a.status, a.delivered]), [[1, 500, false], [2, 500, false], [3, 204, true]]);
      assert.ok(attempts.every((a) => a.url === receiver.endpoint('flaky', 0) && !Number.isNaN(Date.parse(a.at))));
      const lines = logLines.filter((line) => line.startsWith(`callback ${data.booking_id} attempt`));
      assert.equal(lines.length, 3);
      assert.match(lines[2]!, /attempt 3\/4 .*HTTP 204 \(delivered\)/);
    });

    test('gives up after the configured number of attempts', async () => {
      const data = await book(sandbox, receiver.endpoint('down', Infinity));
      await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      await sandbox.whenCallbacksSettled();
      assert.equal(receiver.at('down').length, ATTEMPTS);
      const attempts = sandbox.callbackAttempts().filter((a) => a.booking_id === data.booking_id);
      assert.deepEqual(attempts.map((a) => a.status), [500, 500, 500, 500]);
      assert.ok(attempts.every((a) => !a.delivered));
      assert.ok(logLines.some((line) => line.includes(data.booking_id) && line.includes('giving up')));
    });

    test('records a connection error as an attempt and retries', async () => {
      const port = await freePort();
      const data = await book(sandbox, `http://127.0.0.1:${port}/gone`);
      await postForm(`${data.deeplink}/confirm`, { mpin: '1234', method: 'wallet_balance' });
      await sandbox.whenCallbacksSettled();
      const attempts = sandbox.callbackAttempts().filter((a) => a.booking_id === data.booking_id);
      assert.equal(attempts.length, ATTEMPTS);
      assert.ok(attempts.every((a) => a.status === undefined && typeof a.error === 'string' && a.error.length > 0));
    });
  });

  describe('web payment page (desktop path)', () => {
    const form = (bookingId: string, correlationId: string, key = KEY) => ({
      booking_id: bookingId,
      correlation_id: correlationId,
      signed_field_names: 'booking_id,correlation_id',
      signature: nodeSign(`booking_id=${bookingId},correlation_id=${correlationId}`, key),
    });

    test('a signed form POST shows the payment page; confirming there pays and redirects', async () => {
      const data = await book(sandbox, receiver.endpoint('web'));
      assert.equal(sandbox.webPaymentUrl, `${sandbox.baseUrl}/web/pay`);
      const page = await postForm(sandbox.webPaymentUrl, form(data.booking_id, data.correlation_id));
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.ok(html.includes(`action="/web/pay/${data.booking_id}/confirm"`));
      assert.match(html, /<div class="amount">NPR 1,250\.50<\/div>/, 'the amount with its currency');
      assert.ok(!html.includes(KEY));
      const get = await fetch(`${sandbox.webPaymentUrl}/${data.booking_id}`);
      assert.equal(get.status, 200);
      const response = await postForm(`${sandbox.webPaymentUrl}/${data.booking_id}/confirm`, { mpin: '4321', method: 'wallet_balance' });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), expectedLocation(data.booking_id, 'SUCCESS'));
      await sandbox.whenCallbacksSettled();
      assertSignedCallback(receiver.at('web')[0]!.body, data, 'SUCCESS');
    });

    test('cancel on the web payment page', async () => {
      const data = await book(sandbox, receiver.endpoint('web-cancel'));
      const response = await postForm(`${sandbox.webPaymentUrl}/${data.booking_id}/cancel`, {});
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), expectedLocation(data.booking_id, 'CANCELED'));
    });

    test('a tampered or wrongly signed form is refused and nothing changes', async () => {
      const data = await book(sandbox, receiver.endpoint('web-bad'));
      const other = await book(sandbox, receiver.endpoint('web-bad-2'));
      const tampered = { ...form(data.booking_id, data.correlation_id), booking_id: other.booking_id };
      assert.equal((await postForm(sandbox.webPaymentUrl, tampered)).status, 401);
      assert.equal((await postForm(sandbox.webPaymentUrl, form(data.booking_id, data.correlation_id, 'wrong-key'))).status, 401);
      const apiFields = { ...form(data.booking_id, data.correlation_id), signed_field_names: 'booking_id,product_code' };
      assert.equal((await postForm(sandbox.webPaymentUrl, apiFields)).status, 422);
      const { signature: _s, ...missing } = form(data.booking_id, data.correlation_id);
      assert.equal((await postForm(sandbox.webPaymentUrl, missing)).status, 422);
      assert.equal((await postForm(sandbox.webPaymentUrl, { ...form(data.booking_id, data.correlation_id), extra: '1' })).status, 422);
      assert.equal((await postForm(sandbox.webPaymentUrl, form(data.booking_id, other.correlation_id))).status, 404);
      assert.equal((await postForm(sandbox.webPaymentUrl, form(data.booking_id, data.correlation_id), 'application/json')).status, 415);
      assert.equal((await fetch(sandbox.webPaymentUrl)).status, 405);
      assert.equal(sandbox.getBooking(data.booking_id)!.status, 'BOOKED');
      assert.equal(sandbox.getBooking(other.booking_id)!.status, 'BOOKED');
    });
  });
});
