import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logIndent, markerText } from '../../../demo/log-layout.js';

test('the log indent grows with the line count, so no number is clipped', () => {
  assert.equal(logIndent(0), '3ch');
  assert.equal(logIndent(9), '3ch');
  assert.equal(logIndent(10), '4ch');
  assert.equal(logIndent(99), '4ch');
  assert.equal(logIndent(100), '5ch');
  assert.equal(logIndent(12_345), '7ch');
});

test('every marker of a list fits the indent set for that list', () => {
  for (const lines of [1, 9, 10, 11, 99, 100, 101, 1000]) {
    const indent = Number.parseInt(logIndent(lines), 10);
    for (let n = 1; n <= lines; n++) assert.ok(markerText(n).length <= indent, `line ${n} of ${lines}`);
  }
});
