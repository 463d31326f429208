import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDeadline, withinDeadline } from '../../../src/server/store-deadline.js';
import { StoreUnavailableError } from '../../../src/server/store-errors.js';

const never = () => undefined;

test('a call answered in time passes its value; its own error passes unchanged when not an outage', async () => {
  assert.equal(await withinDeadline(async () => 'row', 1_000, never), 'row');
  const own = new Error('duplicate key');
  await assert.rejects(withinDeadline(() => Promise.reject(own), 1_000, never), (error) => error === own);
});

test('a call past its deadline is a deadline outage, and its late failure is not left unhandled', async () => {
  let late: (error: Error) => void = () => {};
  const started = Date.now();
  await assert.rejects(
    withinDeadline(() => new Promise((_, reject) => (late = reject)), 40, never),
    (error) => error instanceof StoreUnavailableError && error.reason === 'deadline' && error.message === "The payment store's database did not answer within 40 ms.",
  );
  assert.ok(Date.now() - started < 1_000);
  // An unhandled rejection would fail this test file.
  late(new Error('the answer came after all'));
  await new Promise((resolve) => setImmediate(resolve));
});

test("the driver's error is classified: an outage named by classify, or one already read, is passed as such", async () => {
  const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  const classify = (error: unknown) => (error === cause ? new StoreUnavailableError('unreachable', 'gone', { cause }) : undefined);
  await assert.rejects(withinDeadline(() => Promise.reject(cause), 1_000, classify), (error) => error instanceof StoreUnavailableError && error.reason === 'unreachable' && error.cause === cause);
  const read = new StoreUnavailableError('deadline', 'already read');
  await assert.rejects(withinDeadline(() => Promise.reject(read), 1_000, () => assert.fail('not classified again')), (error) => error === read);
});

test('checkDeadline takes a positive number of milliseconds only', () => {
  assert.equal(checkDeadline(250), 250);
  assert.equal(checkDeadline(0.5), 0.5);
  for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.throws(() => checkDeadline(bad), { name: 'TypeError', message: 'deadlineMs must be a positive number of milliseconds.' });
});
