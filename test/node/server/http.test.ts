/** The handler's edges as functions: routes, bounded bodies, small JSON objects, content types, envelopes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkContentType, depthOf, failure, JSON_HEADERS, lastSegment, parseObject, readBody, Refusal, success } from '../../../src/server/http.js';

/** Asserts `run` throws a Refusal with `code` and a message matching `message`. */
async function refused(run: () => unknown, code: string, message: RegExp): Promise<void> {
  await assert.rejects(async () => run(), (error: unknown) => error instanceof Refusal && error.code === code && message.test(error.message));
}

const post = (body: BodyInit | null, headers: Record<string, string> = {}) => new Request('http://shop.test/api/pay/book', { method: 'POST', body, headers, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);

test('a route is the last path segment, one of the five', () => {
  assert.equal(lastSegment('https://shop.test/api/pay/book'), 'book');
  assert.equal(lastSegment('https://shop.test/api/pay/callback/?x=1'), 'callback');
  assert.equal(lastSegment('https://shop.test/order'), 'order');
  for (const url of ['https://shop.test/', 'https://shop.test/api/pay/refund', 'https://shop.test/book/extra', 'https://shop.test/api/pay/BOOK']) assert.equal(lastSegment(url), undefined, url);
});

test('a body is read whole up to its limit, as UTF-8', async () => {
  assert.equal(await readBody(post('{"a":"ü"}'), 100), '{"a":"ü"}');
  await refused(() => readBody(post('x'.repeat(11)), 10), 'IP-413', /^The body is larger than 10 bytes\.$/);
  await refused(() => readBody(post('{}', { 'content-length': '5000' }), 10), 'IP-413', /larger than 10 bytes/);
  await refused(() => readBody(post(null), 10), 'IP-422', /^The body is empty; send a JSON object\.$/);
  await refused(() => readBody(post(new Uint8Array([0x7b, 0xff, 0x7d])), 10), 'IP-422', /^The body is not valid UTF-8\.$/);
  const cut = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"a":'));
      controller.error(new Error('socket closed'));
    },
  });
  await refused(() => readBody(post(cut), 100), 'IP-422', /^The request body was cut off\.$/);
});

test('a small JSON object is parsed with exactly its fields, no id holding a control character', async () => {
  assert.deepEqual(parseObject('{"booking_id":"B","correlation_id":"C"}', ['booking_id', 'correlation_id']), { booking_id: 'B', correlation_id: 'C' });
  assert.deepEqual(parseObject('{"order":{"id":"O"},"receipt":"r"}', ['order'], ['receipt']), { order: { id: 'O' }, receipt: 'r' });
  await refused(() => parseObject('{', ['order']), 'IP-422', /^The body is not valid JSON\.$/);
  await refused(() => parseObject('[1]', ['order']), 'IP-422', /^The body must be a JSON object with order; got an array\.$/);
  await refused(() => parseObject('{}', ['booking_id', 'correlation_id']), 'IP-422', /^Missing field\(s\): booking_id, correlation_id\.$/);
  await refused(() => parseObject('{"order":{},"amount":1}', ['order']), 'IP-422', /^Unexpected field\(s\): "amount"; send only order\.$/);
  await refused(() => parseObject('{"booking_id":"B\\u0000","correlation_id":"C"}', ['booking_id', 'correlation_id']), 'IP-421', /^"booking_id" must not contain a control character .* got U\+0000 at position 1\.$/);
  await refused(() => parseObject('{"order":{"lines":[{"sku_id":"A\\u007f"}]}}', ['order']), 'IP-421', /^"order\.lines\[0\]\.sku_id" must not contain a control character .* got U\+007F at position 1\.$/);
  assert.deepEqual(parseObject('{"order":{"note":"line\\nbreak"}}', ['order']), { order: { note: 'line\nbreak' } }, 'a field that is no id may hold one');
});

test('depth counts nesting, and stops counting past the limit', () => {
  assert.equal(depthOf('x', 10), 0);
  assert.equal(depthOf({}, 10), 1);
  assert.equal(depthOf({ a: [{ b: 1 }] }, 10), 3);
  let deep: unknown = 1;
  for (let i = 0; i < 5_000; i++) deep = [deep];
  assert.equal(depthOf(deep, 32), 33, 'a 5,000-deep value is refused without walking it all');
});

test('the content type is JSON in UTF-8, or 415 naming what came', async () => {
  for (const ok of ['application/json', 'Application/JSON; charset=UTF-8', 'application/json; charset="utf8"', 'application/json; boundary=x']) checkContentType(ok);
  await refused(() => checkContentType(null), 'IP-415', /^Send the body as application\/json; got no content type\.$/);
  await refused(() => checkContentType('text/plain'), 'IP-415', /got "text\/plain"\.$/);
  await refused(() => checkContentType('application/json; charset=latin1'), 'IP-415', /^Send the body in UTF-8; got charset "latin1"\.$/);
});

test('envelopes: success is 200 with its code and data, a refusal its status and headers, every answer the safety headers', async () => {
  const ok = success('Booked.', { booking_id: 'B' });
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { code: 'IP-201', message: 'Booked.', data: { booking_id: 'B' } });
  const busy = failure(new Refusal('IP-503', 'Try again.', { 'retry-after': '1' }));
  assert.equal(busy.status, 503);
  assert.equal(busy.headers.get('retry-after'), '1');
  assert.deepEqual(await busy.json(), { code: 'IP-503', error_message: 'Try again.' });
  for (const answer of [ok, busy]) for (const [name, value] of Object.entries(JSON_HEADERS)) assert.equal(answer.headers.get(name), value, name);
  assert.equal(failure(new Refusal('IP-999' as 'IP-500', 'odd')).status, 500, 'a code without a status is a 500');
});
