/**
 * refuseMalformed: what a Fetch-style server answers before routing, as the node adapter does. The
 * Requests are built as Bun and Deno hand them over (a Host that is no URL; a TRACE).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refuseMalformed } from '../../../src/server/index.js';

/** A Request as a runtime hands one over; `url` and `method` as the runtime read them off the wire. */
const handedOver = (url: string, method: string, host: string) =>
  ({ url, method, headers: new Headers({ host }) }) as unknown as Request;

test('a Host that is no URL is 400 IP-420; TRACE, TRACK and CONNECT are 405 IP-405 with Allow; anything else goes on', async () => {
  const bad = refuseMalformed(handedOver('http://[bad/api/pay/book', 'POST', '[bad'))!;
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), { code: 'IP-420', error_message: 'The Host header or the request target is malformed.' });
  for (const method of ['TRACE', 'track', 'CONNECT']) {
    const refused = refuseMalformed(handedOver('http://shop.test/', method, 'shop.test'), 'GET, HEAD, POST')!;
    assert.equal(refused.status, 405, method);
    assert.equal(refused.headers.get('allow'), 'GET, HEAD, POST');
    assert.equal(((await refused.json()) as { code: string }).code, 'IP-405');
  }
  assert.equal(refuseMalformed(new Request('http://shop.test/api/pay/book', { method: 'POST', body: '{}' })), undefined);
  assert.equal(refuseMalformed(handedOver('http://127.0.0.1:3000/', 'GET', '127.0.0.1:3000')), undefined);
});
