import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '../../support/poll.js';

test('pollUntil resolves with the first truthy answer, sync or async', async () => {
  let calls = 0;
  assert.equal(await pollUntil(() => ++calls >= 3 && 'ready', { what: 'the third call', intervalMs: 1, timeoutMs: 1_000 }), 'ready');
  assert.equal(calls, 3);
  const row = { id: 'B-1' };
  assert.equal(await pollUntil(async () => row, { what: 'a row' }), row);
});

test('pollUntil fails naming what it waited for, and the last answer', async () => {
  const started = Date.now();
  await assert.rejects(pollUntil(() => 0, { what: 'the callback delivered', timeoutMs: 60, intervalMs: 10 }), {
    message: 'Gave up waiting for the callback delivered after 60 ms (the check last answered 0)',
  });
  assert.ok(Date.now() - started < 1_000, 'it gave up near its time limit');
});

test('pollUntil fails in time when the check itself hangs', async () => {
  await assert.rejects(pollUntil(() => new Promise<boolean>(() => {}), { what: 'a hung store', timeoutMs: 50 }), {
    message: 'Gave up waiting for a hung store after 50 ms (the check itself did not answer)',
  });
});

test('an error thrown by the check fails the wait at once', async () => {
  const started = Date.now();
  await assert.rejects(
    pollUntil(() => {
      throw new Error('the store is closed');
    }, { what: 'a row', timeoutMs: 5_000 }),
    { message: 'the store is closed' },
  );
  assert.ok(Date.now() - started < 1_000, 'it did not wait out its time limit');
});
