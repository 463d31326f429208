/** The checker's recorder: what it sends and keeps, and how it reads answers (real servers on loopback). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { clip, codeOf, dataOf, describe, pageText, printable, readCapped, Recorder, MAX_ANSWER_BYTES } from '../../../src/check/exchange.js';

/** What the test server does for each path. */
const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void> = {
  '/echo': (req, res, body) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'IP-201', data: { method: req.method, type: req.headers['content-type'] ?? null, key: req.headers['idempotency-key'] ?? null, body } }));
  },
  '/redirect': (_req, res) => {
    res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
    res.end();
  },
  '/plain': (_req, res) => {
    res.writeHead(500, { 'content-type': 'text/html' });
    res.end('<html><style>p{}</style><p>Fatal\u001b[31m error</p></html>');
  },
  '/huge': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('x'.repeat(MAX_ANSWER_BYTES + 10));
  },
  '/silent': () => {},
};
/** Answers to /busy in turn: IP-503 with Retry-After 0, then the envelope. */
let busyCalls = 0;
routes['/busy'] = (_req, res) => {
  busyCalls++;
  if (busyCalls % 2 === 1) {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
    res.end(JSON.stringify({ code: 'IP-503', error_message: 'store unavailable' }));
  } else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'IP-201', data: { booking_id: 'B-1' } }));
  }
};

let server: Server;
let base: string;
before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => (routes[new URL(req.url!, 'http://x').pathname] ?? routes['/echo']!)(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('printable escapes every character that could rewrite a terminal line, and nothing else', () => {
  assert.equal(printable('ok \u001b[2K\r\n\u2028\u202e\u0085 ü'), 'ok \\u001b[2K\\u000d\\u000a\\u2028\\u202e\\u0085 ü');
  assert.equal(printable('plain text'), 'plain text');
});

test('pageText reduces a page to its words; clip flattens, shortens and escapes', () => {
  assert.equal(pageText('{"code":"IP-201"}'), '{"code":"IP-201"}', 'JSON is left alone');
  assert.equal(pageText('<html><script>alert(1)</script><!-- c --><h1>Oops</h1></html>').replace(/\s+/g, ' ').trim(), 'Oops');
  assert.equal(clip('a\n\n  b'), 'a b');
  assert.equal(clip('x'.repeat(20), 5), 'xxxxx… (20 chars)');
  assert.equal(clip('<p>bad\u001b</p>'), 'bad\\u001b');
});

test('readCapped reads a body within its size and time, and cuts one past either', async () => {
  const small = await fetch(`${base}/echo`, { method: 'POST', body: 'hi' });
  assert.match(await readCapped(small, Date.now() + 5_000), /"body":"hi"/);
  const huge = await fetch(`${base}/huge`);
  await assert.rejects(readCapped(huge, Date.now() + 5_000, 1024), /longer than 1024 bytes; the checker stopped reading/);
  const stalled = new Response(new ReadableStream({ pull: () => new Promise(() => {}) }));
  await assert.rejects(readCapped(stalled, Date.now() + 50), /did not end in time \(0 bytes so far\)/);
});

test('the recorder sends JSON with its headers, keeps the exchange, and reads code and data', async () => {
  const recorder = new Recorder();
  const exchange = await recorder.send(`${base}/echo`, { headers: { 'Idempotency-Key': 'k-1' }, body: { order: { id: 'O-1' } } });
  assert.equal(exchange.status, 200);
  assert.equal(codeOf(exchange), 'IP-201');
  assert.deepEqual(dataOf(exchange), { method: 'POST', type: 'application/json', key: 'k-1', body: '{"order":{"id":"O-1"}}' });
  assert.deepEqual(recorder.log, [exchange]);
  assert.equal(describe(exchange), `sent: POST /echo (Idempotency-Key: k-1) {"order":{"id":"O-1"}}; got: 200 ${clip(exchange.text)}`);
  const get = await recorder.send(`${base}/echo`, { method: 'GET' });
  assert.equal(dataOf(get)['type'], null, 'a GET carries no content type');
  const raw = await recorder.send(`${base}/echo`, { body: 'a=1', contentType: 'application/x-www-form-urlencoded' });
  assert.equal(dataOf(raw)['type'], 'application/x-www-form-urlencoded');
  assert.match(describe(raw), /^sent: POST \/echo \(Content-Type: application\/x-www-form-urlencoded\) a=1;/);
});

test('a redirect is an answer, never followed; a page that is not JSON has no code or data', async () => {
  const recorder = new Recorder();
  const redirect = await recorder.send(`${base}/redirect`);
  assert.equal(redirect.status, 302);
  assert.equal(redirect.answerHeaders.get('location'), 'http://127.0.0.1:9/elsewhere');
  const page = await recorder.send(`${base}/plain`);
  assert.equal(page.json, undefined);
  assert.equal(codeOf(page), undefined);
  assert.deepEqual(dataOf(page), {});
  assert.match(describe(page), /got: 500 Fatal\\u001b\[31m error$/);
});

test('an IP-503 with Retry-After is asked once more, and the second answer is the one kept', async () => {
  const recorder = new Recorder();
  busyCalls = 0;
  const exchange = await recorder.send(`${base}/busy`, { body: {} });
  assert.equal(busyCalls, 2);
  assert.equal(exchange.status, 200);
  assert.equal(recorder.log.length, 1);
});

test('no answer is an error on the exchange; two cut answers give the endpoint up for the run', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));
  const refused = await new Recorder().send(`http://127.0.0.1:${port}/book`);
  assert.equal(refused.status, 0);
  assert.match(describe(refused), /got: no answer: fetch failed \(.*ECONNREFUSED/);
  const recorder = new Recorder(200);
  const slow = await recorder.send(`${base}/silent`);
  assert.equal(slow.error, 'no answer within 200 ms');
  assert.equal(recorder.givenUp, undefined, 'one cut is forgiven');
  const huge = await recorder.send(`${base}/huge`);
  assert.match(huge.error!, /longer than 262144 bytes/);
  assert.match(recorder.givenUp!, /^POST \/silent: no answer within 200 ms; then POST \/huge: /);
  const skipped = await recorder.send(`${base}/echo`);
  assert.match(skipped.error!, /^not sent: the endpoint was given up earlier in this run/);
  assert.equal(skipped.status, 0);
  assert.equal(recorder.log.length, 3);
});
