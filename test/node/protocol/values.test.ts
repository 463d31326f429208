import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonical, describeValue, isRecord } from '../../../src/protocol/values.js';

test('isRecord: a JSON object only, never null or an array', () => {
  assert.equal(isRecord({}), true);
  assert.equal(isRecord({ a: 1 }), true);
  for (const value of [null, [], 'x', 1, true, undefined]) assert.equal(isRecord(value), false, String(value));
});

test('describeValue names a wrong value in the same words everywhere, a long string cut at 40', () => {
  assert.equal(describeValue(null), 'null');
  assert.equal(describeValue([1]), 'an array');
  assert.equal(describeValue(''), 'an empty string');
  assert.equal(describeValue('O-1'), 'a string "O-1"');
  assert.equal(describeValue('x'.repeat(41)), `a string "${'x'.repeat(40)}…"`);
  assert.equal(describeValue({}), 'an object');
  assert.equal(describeValue(42), 'number 42');
  assert.equal(describeValue(false), 'boolean false');
  assert.equal(describeValue(undefined), 'undefined');
  assert.equal(describeValue(10n), 'bigint');
});

test('canonical sorts keys at every depth and keeps arrays in order, so two spellings of one order agree', () => {
  const a = canonical({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } });
  const b = canonical({ a: { c: null, d: [{ y: 2, z: 1 }] }, b: 1 });
  assert.equal(JSON.stringify(a), '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  assert.deepEqual(canonical([3, 1, 2]), [3, 1, 2]);
  assert.equal(canonical('O-1'), 'O-1');
});
