/**
 * The intent service's callbacks as the checker writes them: signed as the service signs them (the
 * amount kept as written), forged with another key, and sent only to an origin the checker may reach.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callbackBody, callbackOf, sendCallback } from '../../../../src/check/esewa-intent/callbacks.js';
import { ClauseSkipped, Steps } from '../../../../src/check/steps.js';
import { SIGNED_FIELDS, verifySignature } from '../../../../src/protocol/signature.js';
import { startSandbox, type Sandbox, type SandboxBooking } from '../../../../src/sandbox/index.js';

let server: Server;
let endpoint: string;
let sandbox: Sandbox;
/** The bodies the endpoint received, newest last. */
const received: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"IP-200"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/pay`;
  sandbox = await startSandbox({ accessKey: 'steps-key', productCode: 'STEPS' });
});
after(async () => {
  await sandbox?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function steps(): Steps {
  const made = new Steps({ endpoint, sandboxPort: 1, orderPrefix: 'CHK-', amount: 1000 });
  made.sandbox = sandbox;
  return made;
}

test('a callback body is signed as the service signs it, the amount kept as written', async () => {
  const s = steps();
  const values = { amount: 1250.5, reference_code: 'R-1', correlation_id: 'C-1', status: 'SUCCESS' as const };
  const body = JSON.parse(await callbackBody(s, values)) as Record<string, unknown>;
  assert.equal(body['product_code'], 'STEPS');
  assert.equal(body['signed_field_names'], SIGNED_FIELDS.callback);
  assert.ok(await verifySignature(body, 'steps-key', SIGNED_FIELDS.callback), 'it verifies with the sandbox key');
  const forged = JSON.parse(await callbackBody(s, values, { key: 'wrong-key' })) as Record<string, unknown>;
  assert.ok(!(await verifySignature(forged, 'steps-key', SIGNED_FIELDS.callback)), 'another key does not');
  const altered = JSON.parse(await callbackBody(s, values, { signedOver: { status: 'FAILED' } })) as Record<string, unknown>;
  assert.equal(altered['status'], 'SUCCESS');
  assert.ok(!(await verifySignature(altered, 'steps-key', SIGNED_FIELDS.callback)), 'a status changed under the signature does not');
  const written = await callbackBody(s, values, { amountWritten: '1250.50' });
  assert.match(written, /"amount":1250\.50,/);
});

test("callbackOf writes a booking's callback with its own values and the status given", async () => {
  const booking = { amount: 900, reference_code: 'R-9', correlation_id: 'C-9' } as SandboxBooking;
  const body = JSON.parse(await callbackOf(steps(), booking, 'FAILED')) as Record<string, unknown>;
  assert.deepEqual([body['amount'], body['reference_code'], body['correlation_id'], body['status']], [900, 'R-9', 'C-9', 'FAILED']);
  assert.ok(await verifySignature(body, 'steps-key', SIGNED_FIELDS.callback));
});

test('sendCallback refuses an origin it may not send to, and sends to the endpoint\'s own', async () => {
  const s = steps();
  assert.throws(() => sendCallback(s, 'https://other.example/cb', '{}'), ClauseSkipped);
  const sent = await sendCallback(s, `${endpoint}/callback`, '{"x":1}');
  assert.equal(sent.status, 200);
  assert.equal(received.at(-1), '{"x":1}');
});
