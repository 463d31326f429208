import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDOFF_STRINGS_EN, HANDOFF_STRINGS_NE, handoffStringsFor, type HandoffStringKey } from '../../../../src/element/i18n/handoff.js';

test("the hand-off's texts follow the element's language rule", () => {
  for (const lang of ['ne', 'ne-NP', 'NE']) assert.equal(handoffStringsFor(lang), HANDOFF_STRINGS_NE, lang);
  for (const lang of ['en', 'en-NP', 'new', 'hi', '', null, undefined]) assert.equal(handoffStringsFor(lang), HANDOFF_STRINGS_EN, String(lang));
  assert.deepEqual(Object.keys(HANDOFF_STRINGS_NE).sort(), Object.keys(HANDOFF_STRINGS_EN).sort(), 'both tables have every key');
});

test("overrides replace the panel's keys only, and leave the tables themselves untouched", () => {
  const key = Object.keys(HANDOFF_STRINGS_EN)[0] as HandoffStringKey;
  const english = HANDOFF_STRINGS_EN[key];
  const table = handoffStringsFor('en', { [key]: 'Scan me', 'handoff.offer': 'the button text', 'status.done': 'not the panel', [Object.keys(HANDOFF_STRINGS_EN)[1]!]: undefined });
  assert.equal(table[key], 'Scan me');
  assert.ok(!('handoff.offer' in table) && !('status.done' in table), 'no key the panel does not have');
  assert.equal(table[Object.keys(HANDOFF_STRINGS_EN)[1] as HandoffStringKey], HANDOFF_STRINGS_EN[Object.keys(HANDOFF_STRINGS_EN)[1] as HandoffStringKey], 'an undefined override keeps the text');
  assert.equal(HANDOFF_STRINGS_EN[key], english, 'the shared table is not changed');
  assert.equal(handoffStringsFor('ne', null), HANDOFF_STRINGS_NE);
});
