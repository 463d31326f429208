/** The node:http adapter on real loopback servers: requests through, malformed ones refused, errors answered. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { refuseMalformedRequest, toNodeListener } from '../../../src/server/node.js';

const servers: Server[] = [];
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** What the handler saw of each request. */
const seen: Array<{ method: string; url: string; body: string; type: string | null }> = [];
const echo = async (request: Request) => {
  const body = request.method === 'GET' ? '' : await request.text();
  seen.push({ method: request.method, url: request.url, body, type: request.headers.get('content-type') });
  return new Response(JSON.stringify({ code: 'IP-201', data: { body } }), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'x-extra': 'yes' } });
};

/** A raw HTTP/1.1 exchange, for what fetch refuses to send. */
function raw(base: string, head: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(head));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

test('a request reaches the handler with its method, path, headers and raw body; the answer comes back whole', async () => {
  const base = await listen(toNodeListener(echo));
  const answer = await fetch(`${base}/api/pay/callback?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1000.0}' });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('x-extra'), 'yes');
  assert.deepEqual(await answer.json(), { code: 'IP-201', data: { body: '{"amount":1000.0}' } });
  assert.deepEqual(seen.at(-1), { method: 'POST', url: `${base}/api/pay/callback?x=1`, body: '{"amount":1000.0}', type: 'application/json' });
});

test('behind a body parser: a string or Buffer body is used as the raw text, a parsed object is refused to next()', async () => {
  const listener = toNodeListener(echo);
  const errors: unknown[] = [];
  const parsed = (body: unknown): RequestListener => (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => listener(Object.assign(req, { body }), res, (error) => {
      errors.push(error);
      res.writeHead(500).end('from next');
    }));
  };
  const asText = await listen(parsed('{"amount":1000.0}'));
  assert.deepEqual(await (await fetch(`${asText}/book`, { method: 'POST', body: 'ignored' })).json(), { code: 'IP-201', data: { body: '{"amount":1000.0}' } });
  const asBuffer = await listen(parsed(Buffer.from('{"n":1}')));
  assert.deepEqual(await (await fetch(`${asBuffer}/book`, { method: 'POST', body: 'ignored' })).json(), { code: 'IP-201', data: { body: '{"n":1}' } });
  const asObject = await listen(parsed({ amount: 1000 }));
  const refused = await fetch(`${asObject}/book`, { method: 'POST', body: '{"amount":1000.0}' });
  assert.equal(await refused.text(), 'from next');
  assert.match(String(errors.at(-1)), /already parsed into an object; mount the payment handler before any body parser/);
});

test('a handler that throws is a 500 envelope when there is no next()', async () => {
  const failing = toNodeListener(async () => {
    throw new Error('store gone');
  });
  const plain = await listen(failing);
  const answer = await fetch(`${plain}/book`, { method: 'POST', body: '{}' });
  assert.equal(answer.status, 500);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.deepEqual(await answer.json(), { code: 'IP-500', error_message: 'The server could not handle this request.' });
});

test('a method no Request can carry is 405 with Allow, a target that is no URL is IP-420; neither reaches the handler', async () => {
  const before = seen.length;
  const base = await listen(toNodeListener(echo));
  const trace = await raw(base, 'TRACE /book HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n');
  assert.match(trace, /^HTTP\/1\.1 405 /);
  assert.match(trace, /\r\nallow: POST\r\n/i);
  assert.match(trace, /"code":"IP-405","error_message":"Use POST; got TRACE\."/);
  const badHost = await raw(base, 'POST /book HTTP/1.1\r\nHost: bad host:x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  assert.match(badHost, /^HTTP\/1\.1 400 /);
  assert.match(badHost, /"code":"IP-420"/);
  assert.equal(seen.length, before);
});

test('refuseMalformedRequest answers only what it refuses, with the Allow it is given', async () => {
  const passed: string[] = [];
  const base = await listen((req, res) => {
    if (refuseMalformedRequest(req, res, 'GET, POST')) return;
    passed.push(req.method!);
    res.end('ok');
  });
  assert.equal(await (await fetch(`${base}/page`)).text(), 'ok');
  const trace = await raw(base, 'TRACE /page HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n');
  assert.match(trace, /\r\nallow: GET, POST\r\n/i);
  assert.deepEqual(passed, ['GET']);
});
