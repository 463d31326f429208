import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentOf, paidBeforeOf, storedFingerprint } from '../../../src/server/fingerprint.js';

const CONTENT = JSON.stringify(['v2', 'app', 'O-1']);

test('nothing paid before: the fingerprint is the content as it is', () => {
  assert.equal(storedFingerprint(CONTENT, 0), CONTENT);
  assert.equal(contentOf(CONTENT), CONTENT);
  assert.equal(paidBeforeOf(CONTENT), 0);
});

test('paid in part before: what was paid goes last, and both halves read back', () => {
  const stored = storedFingerprint(CONTENT, 50_000);
  assert.equal(stored, JSON.stringify(['v2', 'app', 'O-1', { paid_before: 50_000 }]));
  assert.equal(contentOf(stored), CONTENT, 'a replay of the key compares the content alone');
  assert.equal(paidBeforeOf(stored), 50_000);
  const handoff = JSON.stringify(['v2', 'app', 'O-1', 'handoff']);
  assert.equal(contentOf(storedFingerprint(handoff, 1)), handoff);
});

test('a fingerprint of another shape (an older release, not JSON) is kept and read as nothing paid', () => {
  for (const old of ['app:O-1', '{"v":1}', '']) {
    assert.equal(storedFingerprint(old, 100), old);
    assert.equal(contentOf(old), old);
    assert.equal(paidBeforeOf(old), 0);
  }
  assert.equal(paidBeforeOf(JSON.stringify(['v2', { paid_before: 'x' }])), 0, 'a paid_before that is not a number is not one');
});
