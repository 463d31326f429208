import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTINUATION_PREFIX, MAX_CONTINUATION_CHARS, readContinuation, withoutContinuation, type Continuation } from '../../../src/core/continuation.js';
// The in-app browser writes what the other browser reads: the two ends live in different chunks.
import { continuationAddress } from '../../../src/core/open-in-browser.js';

const ALLOWED = ['pay.wallet.test', '127.0.0.1:4011'];
const WEB: Continuation = {
  booking_id: 'bk-1',
  correlation_id: 'cr-1',
  receipt: 'r3ce1pt',
  web_payment: { url: 'https://pay.wallet.test/epay/main/v2/form', method: 'POST', fields: { amount: '100', product_code: 'EPAYTEST', remarks: 'नमस्ते' } },
};

/** A continuation address whose fragment holds `json`, encoded as the module encodes it. */
const withJson = (json: string): string => `https://shop.test/checkout${CONTINUATION_PREFIX}${encodeURIComponent(json)}`;

test("a web booking's continuation comes back whole, on the page's own address, its own fragment replaced", () => {
  const address = continuationAddress('https://shop.test/checkout?item=7#reviews', WEB)!;
  assert.ok(address.startsWith(`https://shop.test/checkout?item=7${CONTINUATION_PREFIX}`), address);
  assert.equal(address.indexOf('#'), address.lastIndexOf('#'), 'one # only: an Android intent\'s data ends at its last #');
  const read = readContinuation(address, ALLOWED);
  assert.deepEqual(read, { ok: true, continuation: WEB, url: new URL(WEB.web_payment!.url) });
  assert.equal(withoutContinuation(address), 'https://shop.test/checkout?item=7');
});

test("an app booking's continuation carries its deeplink, checked like a book answer's", () => {
  const app: Continuation = { booking_id: 'bk-2', correlation_id: 'cr-2', deeplink: 'http://127.0.0.1:4011/pay/bk-2' };
  const read = readContinuation(continuationAddress('http://127.0.0.1:8080/', app)!, ALLOWED);
  assert.deepEqual(read, { ok: true, continuation: app, url: new URL(app.deeplink!) });
});

test('an address without a continuation reads as none, and keeps its own fragment', () => {
  assert.equal(readContinuation('https://shop.test/checkout', ALLOWED), null);
  assert.equal(readContinuation('https://shop.test/checkout#wallet-payment', ALLOWED), null);
  assert.equal(withoutContinuation('https://shop.test/checkout#reviews'), 'https://shop.test/checkout#reviews');
});

test('a continuation whose payment leaves the allowed hosts, or is no https address, is refused', () => {
  const elsewhere = { ...WEB, web_payment: { url: 'https://evil.test/epay', method: 'GET' as const } };
  assert.deepEqual(readContinuation(continuationAddress('https://shop.test/', elsewhere)!, ALLOWED), { ok: false, reason: 'host-not-allowed' });
  const script = { booking_id: 'b', correlation_id: 'c', deeplink: 'javascript:alert(1)' };
  assert.deepEqual(readContinuation(continuationAddress('https://shop.test/', script)!, ALLOWED), { ok: false, reason: 'scheme' });
  const plain = { booking_id: 'b', correlation_id: 'c', deeplink: 'http://pay.wallet.test/pay/b' };
  assert.deepEqual(readContinuation(continuationAddress('https://shop.test/', plain)!, ALLOWED), { ok: false, reason: 'insecure' });
});

test('a tampered continuation is refused whole', () => {
  const address = continuationAddress('https://shop.test/checkout', WEB)!;
  const cases: [string, string][] = [
    [`${address.slice(0, -3)}%E0%A4`, 'a broken percent-encoding'],
    [`https://shop.test/${CONTINUATION_PREFIX}%FF%FE`, 'not UTF-8'],
    [withJson('{"booking_id":"b"'), 'not JSON'],
    [withJson('[]'), 'not an object'],
    [withJson(JSON.stringify({ ...WEB, booking_id: '' })), 'an empty id'],
    [withJson(JSON.stringify({ ...WEB, correlation_id: 7 })), 'an id that is no string'],
    [withJson(JSON.stringify({ ...WEB, booking_id: 'b'.repeat(129) })), 'an id longer than the server takes'],
    [withJson(JSON.stringify({ ...WEB, receipt: 5 })), 'a receipt that is no string'],
    [withJson(JSON.stringify({ ...WEB, deeplink: 'https://pay.wallet.test/x' })), 'two ways on'],
    [withJson(JSON.stringify({ booking_id: 'b', correlation_id: 'c' })), 'no way on'],
    [withJson(JSON.stringify({ ...WEB, web_payment: { url: WEB.web_payment!.url, method: 'PUT' } })), 'a method of no form'],
    [withJson(JSON.stringify({ ...WEB, web_payment: { url: WEB.web_payment!.url, method: 'POST' } })), 'a form without fields'],
    [withJson(JSON.stringify({ ...WEB, web_payment: { ...WEB.web_payment, fields: { amount: 100 } } })), 'a field that is no string'],
  ];
  for (const [tampered, why] of cases) assert.deepEqual(readContinuation(tampered, ALLOWED), { ok: false, reason: 'malformed' }, why);
});

test('an oversized continuation is not read', () => {
  const big = { ...WEB, web_payment: { url: WEB.web_payment!.url, method: 'POST' as const, fields: { pad: 'x'.repeat(MAX_CONTINUATION_CHARS) } } };
  assert.deepEqual(readContinuation(continuationAddress('https://shop.test/', big)!, ALLOWED), { ok: false, reason: 'oversized' });
  assert.deepEqual(readContinuation(`https://shop.test/${CONTINUATION_PREFIX}${'A'.repeat(MAX_CONTINUATION_CHARS)}`, ALLOWED), { ok: false, reason: 'oversized' });
});

test('a page that is not an http(s) address gets no continuation', () => {
  for (const page of ['not a url', 'file:///checkout.html', 'javascript:alert(1)']) assert.equal(continuationAddress(page, WEB), null, page);
});
