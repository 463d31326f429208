/** The steps clauses are made of, on their own: a loopback endpoint that echoes, and a real sandbox. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { ClauseFailure, ClauseSkipped, fail, Steps } from '../../../src/check/steps.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { ATTEMPT_HEADER, IDEMPOTENCY_HEADER } from '../../../src/protocol/contract.js';
import type { Exchange } from '../../../src/check/exchange.js';

let server: Server;
let endpoint: string;
let sandbox: Sandbox;
/** What the endpoint received, newest last. */
const received: Array<{ path: string; headers: Record<string, unknown>; body: string }> = [];

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url!, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'IP-201', data: { booking_id: 'B-1', correlation_id: 'C-1' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/pay`;
  sandbox = await startSandbox({ accessKey: 'steps-key', productCode: 'STEPS' });
});
after(async () => {
  await sandbox?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const stepsFor = (extra: Partial<ConstructorParameters<typeof Steps>[0]> = {}) => {
  const steps = new Steps({ endpoint: `${endpoint}//`, sandboxPort: 1, orderPrefix: 'CHK-', amount: 1000, ...extra });
  steps.sandbox = sandbox;
  return steps;
};
/** An exchange as the recorder would keep it. */
const answered = (status: number, json: unknown): Exchange => ({ method: 'POST', url: `${endpoint}/book`, headers: {}, body: '{}', status, answerHeaders: new Headers(), text: JSON.stringify(json), json });

test('fresh orders, keys and route URLs: the prefix and run id, never the same twice', () => {
  const steps = stepsFor();
  assert.equal(steps.endpoint, endpoint, 'trailing slashes dropped');
  assert.equal(steps.url('book'), `${endpoint}/book`);
  const [first, second] = [steps.order(), steps.order({ amount: 5 })];
  assert.equal(first['id'], `CHK-${steps.runId}-1`);
  assert.deepEqual(second, { id: `CHK-${steps.runId}-2`, amount: 5 });
  assert.notEqual(steps.key(), steps.key());
  assert.match(steps.key(), /^check-[0-9a-f-]{36}$/);
});

test('callbacks go only to the endpoint\'s origin and those named', () => {
  const steps = stepsFor({ callbackOrigins: ['https://public.example'] });
  assert.ok(steps.callbackAllowed(`${new URL(endpoint).origin}/api/pay/callback`));
  assert.ok(steps.callbackAllowed('https://public.example/cb'));
  assert.ok(!steps.callbackAllowed('https://other.example/cb'));
  assert.ok(!steps.callbackAllowed('not a url'));
});

test('a clause that reads through a failed clause is skipped', () => {
  const steps = stepsFor();
  steps.relyOn('order-paid', '/order');
  steps.failedClauses.add('order-paid');
  assert.throws(() => steps.relyOn('order-paid', '/order'), (e: Error) => e instanceof ClauseSkipped && e.message === 'not judged: it reads /order, and order-paid failed');
});

test('book sends the key and a fresh attempt id as the element does; post sends the held ids', async () => {
  const steps = stepsFor();
  await steps.book('app', { id: 'O-1' }, 'key-1234567890abcdef', { handoff: true });
  await steps.book('web', { id: 'O-2' }, undefined);
  const [one, two] = received.slice(-2);
  assert.equal(one!.headers[IDEMPOTENCY_HEADER.toLowerCase()], 'key-1234567890abcdef');
  assert.equal(one!.headers[ATTEMPT_HEADER.toLowerCase()], `check-${steps.runId}-1`);
  assert.deepEqual(JSON.parse(one!.body), { channel: 'app', order: { id: 'O-1' }, handoff: true });
  assert.equal(two!.headers[IDEMPOTENCY_HEADER.toLowerCase()], undefined, 'no key when none is given');
  assert.equal(two!.headers[ATTEMPT_HEADER.toLowerCase()], `check-${steps.runId}-2`);
  await steps.post('status', { booking_id: 'B-1', correlation_id: 'C-1', order: { id: 'O-1' }, receipt: 'r' }, { correlation_id: 'C-x' });
  assert.deepEqual(JSON.parse(received.at(-1)!.body), { booking_id: 'B-1', correlation_id: 'C-x', order: { id: 'O-1' }, receipt: 'r' });
  assert.equal(received.at(-1)!.path, '/api/pay/status');
});

test('booked and expectCode fail the clause with what came back', () => {
  const steps = stepsFor();
  assert.deepEqual(steps.booked(answered(200, { code: 'IP-201', data: { booking_id: 'B', correlation_id: 'C' } })).booking_id, 'B');
  const failure = (run: () => unknown, message: RegExp) => assert.throws(run, (e: Error) => e instanceof ClauseFailure && message.test(e.message));
  failure(() => steps.booked(answered(409, { code: 'IP-409' }), 'the retry'), /^expected 200 IP-201 for the retry; sent: POST \/api\/pay\/book .*got: 409/);
  failure(() => steps.booked(answered(200, { code: 'IP-201', data: { booking_id: '' } })), /data\.booking_id and data\.correlation_id must be non-empty strings/);
  failure(() => steps.expectCode(answered(200, { code: 'IP-201' }), 404, 'IP-404', 'a wrong correlation id'), /^a wrong correlation id: expected 404 IP-404; sent:/);
  failure(() => fail('plain'), /^plain$/);
});
