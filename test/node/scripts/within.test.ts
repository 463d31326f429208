import { test } from 'node:test';
import assert from 'node:assert/strict';
import { within } from '../../support/within.js';

test('within passes on what arrives in time, value or error', async () => {
  assert.equal(await within(Promise.resolve(7), 1_000, 'a value'), 7);
  await assert.rejects(within(Promise.reject(new Error('its own error')), 1_000, 'a value'), /^Error: its own error$/);
});

test('within fails naming what was awaited once the time is up', async () => {
  const never = new Promise<never>(() => {});
  await assert.rejects(within(never, 30, 'the element to navigate'), { message: 'Gave up waiting for the element to navigate after 30 ms' });
});
