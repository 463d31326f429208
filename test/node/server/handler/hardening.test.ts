/**
 * The audit's classes of bad input to /book, /status, /cancel and /callback: never a 5xx, never a
 * state change (no booking at the service, no result to the merchant), and the hardening of every answer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { CODES, HTTP_STATUS_OF_CODE } from '../../../../src/protocol/contract.js';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler, type PaymentResult } from '../../../../src/server/handler.js';
import { createMemoryStore } from '../../../../src/server/index.js';
import { toNodeListener } from '../../../../src/server/node.js';
import { closedPortUrl, listen, type Loopback } from '../helpers.js';

const KEY = 'hardening-access-key';
const PRODUCT = 'HARD01';
const deep = (depth: number) => '{"a":' + '['.repeat(depth) + ']'.repeat(depth) + '}';

describe('bad input to the handler', () => {
  let sandbox: Sandbox;
  let handler: PaymentHandler;
  let server: Loopback;
  const results: PaymentResult[] = [];
  const errors: unknown[] = [];

  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT });
    handler = createPaymentHandler({
      serviceUrl: sandbox.baseUrl,
      productCode: PRODUCT,
      accessKey: KEY,
      callbackUrl: `${await closedPortUrl()}/callback`,
      redirectUrl: 'http://merchant.test/return',
      lookupOrder: (order) => (order.id === 'H-1' ? { id: 'H-1', amount: 100 } : undefined),
      store: createMemoryStore(),
      onPaymentResult: (result) => void results.push(result),
      onError: (error) => errors.push(error),
    });
    server = await listen(toNodeListener(handler));
  });
  after(async () => {
    await server.close();
    await sandbox.close();
  });

  const key = { 'idempotency-key': 'hardening-key-0123456789' };
  const json = { 'content-type': 'application/json' };
  const cases: Array<[string, string, Record<string, string>, string | Uint8Array<ArrayBuffer>, number]> = [
    ['book: order nested 5,000 deep', 'book', { ...json, ...key }, `{"channel":"app","order":${deep(5000)}}`, 422],
    ['book: order nested 33 deep', 'book', { ...json, ...key }, `{"channel":"app","order":${deep(33)}}`, 422],
    ['book: charset latin1', 'book', { 'content-type': 'application/json; charset=latin1', ...key }, '{"channel":"app","order":{"id":"H-1"}}', 415],
    ['book: charset utf-16', 'book', { 'content-type': 'application/json;charset="UTF-16"', ...key }, '{"channel":"app","order":{"id":"H-1"}}', 415],
    ['book: text/plain', 'book', { 'content-type': 'text/plain', ...key }, '{"channel":"app","order":{"id":"H-1"}}', 415],
    ['book: no key', 'book', json, '{"channel":"app","order":{"id":"H-1"}}', 422],
    ['book: key too short', 'book', { ...json, 'idempotency-key': 'short' }, '{"channel":"app","order":{"id":"H-1"}}', 422],
    ['book: order an array', 'book', { ...json, ...key }, '{"channel":"app","order":[1]}', 422],
    ['book: channel wrong', 'book', { ...json, ...key }, '{"channel":"sms","order":{"id":"H-1"}}', 422],
    ['book: extra field', 'book', { ...json, ...key }, '{"channel":"app","order":{"id":"H-1"},"amount":1}', 422],
    ['book: unknown order', 'book', { ...json, ...key }, '{"channel":"app","order":{"id":"H-2"}}', 422],
    ['book: __proto__ order', 'book', { ...json, ...key }, '{"channel":"app","order":{"__proto__":{"id":"H-1"}}}', 422],
    ['book: not JSON', 'book', { ...json, ...key }, '{"channel":', 422],
    ['book: not UTF-8', 'book', { ...json, ...key }, new Uint8Array([0x7b, 0xff, 0x7d]), 422],
    ['book: empty', 'book', { ...json, ...key }, '', 422],
    ['book: too large', 'book', { ...json, ...key }, `{"channel":"app","order":{"id":"${'x'.repeat(20_000)}"}}`, 413],
    ['status: unknown booking', 'status', json, '{"booking_id":"nope","correlation_id":"nope"}', 404],
    ['status: number ids', 'status', json, '{"booking_id":1,"correlation_id":2}', 422],
    ['status: ids too long', 'status', json, `{"booking_id":"${'b'.repeat(200)}","correlation_id":"c"}`, 422],
    ['cancel: unknown booking', 'cancel', json, '{"booking_id":"nope","correlation_id":"nope"}', 404],
    ['cancel: null body', 'cancel', json, 'null', 422],
    ['callback: bad signature', 'callback', json, '{"product_code":"HARD01","amount":100,"reference_code":"r","correlation_id":"c","status":"SUCCESS","signed_field_names":"product_code,amount,reference_code,correlation_id,status","signature":"AAAA"}', 401],
    ['callback: duplicate field', 'callback', json, '{"status":"SUCCESS","status":"FAILED"}', 422],
    ['callback: nested deep', 'callback', json, deep(5000), 422],
    ['callback: array', 'callback', json, '[]', 422],
  ];

  for (const [name, route, headers, body, expected] of cases) {
    test(`${name}: ${expected}, nothing booked, nothing delivered, the hardening headers`, async () => {
      const bookings = sandbox.listBookings().length;
      const response = await handler(new Request(`http://merchant.test/api/pay/${route}`, { method: 'POST', headers, body }));
      assert.equal(response.status, expected, await response.clone().text());
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(sandbox.listBookings().length, bookings);
      assert.equal(results.length, 0);
    });
  }

  test('a good answer carries the hardening headers too', async () => {
    const response = await handler(
      new Request('http://merchant.test/api/pay/book', { method: 'POST', headers: { ...json, ...key }, body: '{"channel":"app","order":{"id":"H-1"}}' }),
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('cache-control'), 'no-store');
  });

  test('a malformed Host header through the Node adapter is 400 with its own code IP-420, not 500', async () => {
    const { port } = new URL(server.url);
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: '/api/pay/book', method: 'POST', headers: { host: 'bad host:x:y', 'content-type': 'application/json' } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      });
      request.on('error', reject);
      request.end('{}');
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.body), { code: 'IP-420', error_message: 'The Host header or the request target is malformed.' });
    assert.equal(CODES.MALFORMED_HOST, 'IP-420');
    assert.equal(HTTP_STATUS_OF_CODE[CODES.MALFORMED_HOST], answer.status, 'the code and the HTTP status agree');
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    assert.equal(answer.headers['cache-control'], 'no-store');
  });

  test('TRACE, TRACK and CONNECT (methods a Request cannot hold) through the Node adapter are 405 with Allow: POST, not 500', async () => {
    const { port } = new URL(server.url);
    const before = errors.length;
    // node:http's parser itself refuses TRACK (400): TRACE is the one that reaches a listener.
    for (const method of ['TRACE']) {
      const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port, path: '/api/pay/book', method }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
        });
        request.on('error', reject);
        request.end();
      });
      assert.equal(answer.status, 405, `${method}: ${answer.body}`);
      assert.deepEqual(JSON.parse(answer.body), { code: 'IP-405', error_message: `Use POST; got ${method}.` });
      assert.equal(answer.headers.allow, 'POST');
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    }
    // node:http hands CONNECT to a 'connect' listener, but a framework may pass it (or TRACK) on: the adapter answers it too.
    for (const method of ['CONNECT', 'TRACK']) {
      const written: { status?: number; headers?: Record<string, string>; body?: string } = {};
      const fake = Object.assign(Readable.from([]), { method, url: '/api/pay/book', headers: { host: '127.0.0.1' } });
      await new Promise<void>((resolve) => {
        toNodeListener(handler)(fake as never, {
          headersSent: false,
          writeHead(status: number, headers: Record<string, string>) {
            Object.assign(written, { status, headers });
            return this;
          },
          end(body: string) {
            written.body = body;
            resolve();
          },
        } as never);
      });
      assert.equal(written.status, 405, method);
      assert.equal(written.headers?.allow, 'POST');
      assert.equal(JSON.parse(written.body!).code, 'IP-405');
    }
    assert.equal(errors.length, before, 'nothing for onError');
  });

  test('a body cut off by the client is not an error for onError', async () => {
    const before = errors.length;
    let cut!: () => void;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"channel":"app",'));
        cut = () => controller.error(new Error('aborted'));
      },
    });
    const answer = handler(new Request('http://merchant.test/api/pay/book', { method: 'POST', headers: { ...json, ...key }, body: stream, duplex: 'half' } as RequestInit));
    cut();
    const response = await answer;
    assert.equal(response.status, 422);
    assert.equal(errors.length, before);
  });
});
