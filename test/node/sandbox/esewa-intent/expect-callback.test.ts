/**
 * `expectCallback`: `count: 0` is "no callback within T" and fails when one comes (a step that checked
 * `matching.length >= 0` passed whatever the desk held); a count of n waits for n and fails with what
 * the desk holds when the time runs out. A real sandbox and a real merchant receiver on loopback.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectCallback } from '../../../../src/sandbox/esewa-intent/expect-callback.js';
import { callbackBench, cancel, pay } from '../support.js';

const bench = callbackBench();
const { booked } = bench;

test('count 0 fails when a callback was delivered, and says which', async () => {
  const id = await booked();
  await pay(bench.sandbox.baseUrl, id);
  await expectCallback(bench.sandbox, id, { status: 'SUCCESS', within: '10s' });
  await assert.rejects(expectCallback(bench.sandbox, id, { count: 0, within: 200 }), /^Error: expected no callback of BK?.* within 200 ms, but CB-\d+ \(SUCCESS, delivered\) was at the desk after \d+ ms\.$/);
  // Another status's absence is still expressible beside it.
  assert.deepEqual(await expectCallback(bench.sandbox, id, { count: 0, status: 'REVERTED', within: 100 }), []);
});

test('count 0 passes only after the whole time without a callback, and fails as soon as one comes within it', async () => {
  const quiet = await booked();
  assert.equal((await cancel(bench.sandbox.baseUrl, bench.sandbox.accessKey, 'EXP01', quiet)).status, 200);
  const started = Date.now();
  assert.deepEqual(await expectCallback(bench.sandbox, quiet, { count: 0, within: '300ms' }), []);
  assert.ok(Date.now() - started >= 300, `waited ${Date.now() - started} ms of 300`);

  const late = await booked();
  bench.receiver.answer = () => 500; // a callback that fails is still a callback sent
  const waiting = expectCallback(bench.sandbox, late, { count: 0, within: '10s' });
  const paidAt = Date.now();
  await pay(bench.sandbox.baseUrl, late);
  await assert.rejects(waiting, /expected no callback of .* within 10000 ms, but CB-\d+ \(SUCCESS, (dead|scheduled)\)/);
  assert.ok(Date.now() - paidAt < 5_000, 'it failed when the callback came, not at the end of the time');
  bench.receiver.answer = () => 200;
});

test('a count of n waits for n delivered callbacks; too few within the time fails with what the desk holds', async () => {
  const id = await booked();
  await pay(bench.sandbox.baseUrl, id);
  const [delivery] = await expectCallback(bench.sandbox, id, { within: 10_000 });
  assert.equal(delivery?.status, 'SUCCESS');
  await assert.rejects(expectCallback(bench.sandbox, id, { count: 2, within: 150 }), /expected 2 callback \(delivered\) of .* within 150 ms; the desk has CB-\d+ SUCCESS delivered\./);
  await assert.rejects(expectCallback(bench.sandbox, id, { status: 'FAILED', within: 100 }), /expected 1 FAILED callback \(delivered\)/);
});

test('a count or a time that is not one is refused by name', async () => {
  await assert.rejects(expectCallback(bench.sandbox, 'BK-x', { count: -1 }), /count must be a whole number of at least 0; got -1/);
  await assert.rejects(expectCallback(bench.sandbox, 'BK-x', { count: 0.5 }), /count must be a whole number/);
  await assert.rejects(expectCallback(bench.sandbox, 'BK-x', { within: 'soon' }), /"soon" is not a duration/);
});
