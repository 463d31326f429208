/**
 * `expectCallback`: `count: 0` is "no callback within T" and fails when one comes (a step that checked
 * `matching.length >= 0` passed whatever the desk held); a count of n waits for n and fails with what
 * the desk holds when the time runs out. A real sandbox and a real merchant receiver on loopback.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { expectCallback } from '../../../../src/sandbox/esewa-intent/expect-callback.js';
import { book, cancel, pay, startReceiver, type Receiver } from '../support.js';

let sandbox: Sandbox;
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ productCode: 'EXP01', callbackRetry: { attempts: 1, baseDelayMs: 0 } });
});
after(async () => {
  await sandbox.close();
  await receiver.close();
});

async function booked(): Promise<string> {
  const { body } = await book(sandbox.baseUrl, { key: sandbox.accessKey, product: 'EXP01', callbackUrl: receiver.url });
  return body.data!['booking_id']!;
}

test('count 0 fails when a callback was delivered, and says which', async () => {
  const id = await booked();
  await pay(sandbox.baseUrl, id);
  await expectCallback(sandbox, id, { status: 'SUCCESS', within: '10s' });
  await assert.rejects(expectCallback(sandbox, id, { count: 0, within: 200 }), /^Error: expected no callback of BK?.* within 200 ms, but CB-\d+ \(SUCCESS, delivered\) was at the desk after \d+ ms\.$/);
  // Another status's absence is still expressible beside it.
  assert.deepEqual(await expectCallback(sandbox, id, { count: 0, status: 'REVERTED', within: 100 }), []);
});

test('count 0 passes only after the whole time without a callback, and fails as soon as one comes within it', async () => {
  const quiet = await booked();
  assert.equal((await cancel(sandbox.baseUrl, sandbox.accessKey, 'EXP01', quiet)).status, 200);
  const started = Date.now();
  assert.deepEqual(await expectCallback(sandbox, quiet, { count: 0, within: '300ms' }), []);
  assert.ok(Date.now() - started >= 300, `waited ${Date.now() - started} ms of 300`);

  const late = await booked();
  receiver.answer = () => 500; // a callback that fails is still a callback sent
  const waiting = expectCallback(sandbox, late, { count: 0, within: '10s' });
  const paidAt = Date.now();
  await pay(sandbox.baseUrl, late);
  await assert.rejects(waiting, /expected no callback of .* within 10000 ms, but CB-\d+ \(SUCCESS, (dead|scheduled)\)/);
  assert.ok(Date.now() - paidAt < 5_000, 'it failed when the callback came, not at the end of the time');
  receiver.answer = () => 200;
});

test('a count of n waits for n delivered callbacks; too few within the time fails with what the desk holds', async () => {
  const id = await booked();
  await pay(sandbox.baseUrl, id);
  const [delivery] = await expectCallback(sandbox, id, { within: 10_000 });
  assert.equal(delivery?.status, 'SUCCESS');
  await assert.rejects(expectCallback(sandbox, id, { count: 2, within: 150 }), /expected 2 callback \(delivered\) of .* within 150 ms; the desk has CB-\d+ SUCCESS delivered\./);
  await assert.rejects(expectCallback(sandbox, id, { status: 'FAILED', within: 100 }), /expected 1 FAILED callback \(delivered\)/);
});

test('a count or a time that is not one is refused by name', async () => {
  await assert.rejects(expectCallback(sandbox, 'BK-x', { count: -1 }), /count must be a whole number of at least 0; got -1/);
  await assert.rejects(expectCallback(sandbox, 'BK-x', { count: 0.5 }), /count must be a whole number/);
  await assert.rejects(expectCallback(sandbox, 'BK-x', { within: 'soon' }), /"soon" is not a duration/);
});
