import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isStoreUnavailable, StoreUnavailableError } from '../../../src/server/store-errors.js';

test('the error carries its reason, message, cause and name', () => {
  const cause = new Error('socket hang up');
  const error = new StoreUnavailableError('unreachable', 'The database cannot be reached.', { cause });
  assert.equal(error.reason, 'unreachable');
  assert.equal(error.message, 'The database cannot be reached.');
  assert.equal(error.cause, cause);
  assert.equal(error.name, 'StoreUnavailableError');
  assert.ok(error instanceof Error);
});

test("isStoreUnavailable knows this copy's error and another copy's by its mark, and nothing else", async () => {
  assert.ok(isStoreUnavailable(new StoreUnavailableError('deadline', 'late')));
  // A second copy of the module, as a store bundled with its own copy of the package loads it.
  const other = (await import(`../../../src/server/store-errors.js?copy=${Date.now()}`)) as typeof import('../../../src/server/store-errors.js');
  assert.notEqual(other.StoreUnavailableError, StoreUnavailableError, 'a separate copy');
  const foreign = new other.StoreUnavailableError('deadline', 'late');
  assert.ok(!(foreign instanceof StoreUnavailableError), 'instanceof misses it');
  assert.ok(isStoreUnavailable(foreign), 'the mark does not');
  const lookalike = Object.assign(new Error('late'), { name: 'StoreUnavailableError', reason: 'deadline' });
  for (const value of [lookalike, new Error('late'), 'StoreUnavailableError', null, undefined, { reason: 'deadline' }]) assert.ok(!isStoreUnavailable(value), String(value));
});
