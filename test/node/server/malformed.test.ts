/**
 * refuseMalformed: what a Fetch-style server answers before routing, as the node adapter does. The
 * Requests are built as Bun and Deno hand them over (a Host that is no URL; a TRACE). And
 * refuseMalformedRequest: the same for a node server that routes its other requests elsewhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { refuseMalformed } from '../../../src/server/index.js';
import { refuseMalformedRequest } from '../../../src/server/node.js';
import { listen } from './helpers.js';

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

test("a node server's own routes (a Next.js custom server) behind refuseMalformedRequest: a bad Host is 400 IP-420, TRACE 405 IP-405 with its Allow, the rest reach the routes", async () => {
  const server = await listen((request, response) => {
    if (!refuseMalformedRequest(request, response, 'GET, HEAD, POST')) response.end('the shop');
  });
  const { port } = new URL(server.url);
  const send = (method: string, host: string) =>
    new Promise<{ status: number; allow: unknown; body: string }>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: '/', method, headers: { host } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body }));
      });
      request.setTimeout(5_000, () => request.destroy(new Error(`no answer to ${method} in 5 s`)));
      request.on('error', reject);
      request.end();
    });
  try {
    const badHost = await send('GET', 'bad host:x:y');
    assert.deepEqual([badHost.status, JSON.parse(badHost.body)], [400, { code: 'IP-420', error_message: 'The Host header or the request target is malformed.' }]);
    const trace = await send('TRACE', '127.0.0.1');
    assert.deepEqual([trace.status, trace.allow, JSON.parse(trace.body)], [405, 'GET, HEAD, POST', { code: 'IP-405', error_message: 'Use GET, HEAD, POST; got TRACE.' }]);
    assert.deepEqual(await send('GET', '127.0.0.1'), { status: 200, allow: undefined, body: 'the shop' });
  } finally {
    await server.close();
  }
});
