/**
 * The tables a translator edits (src/element/i18n/en.ts, ne.ts): Nepali's has exactly English's
 * sections and keys, which its type enforces (a missing or extra key does not type-check).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EN, type LanguageTable } from '../../../src/element/i18n/en.js';
import { NE } from '../../../src/element/i18n/ne.js';

test("the Nepali table has exactly English's sections and keys", () => {
  assert.deepEqual(Object.keys(NE), Object.keys(EN));
  for (const section of Object.keys(EN) as (keyof typeof EN)[]) {
    assert.deepEqual(Object.keys(NE[section]).sort(), Object.keys(EN[section]).sort(), section);
  }
});

test('a table with a missing or an extra key is a type error', () => {
  const { 'button.pay': _dropped, ...labels } = NE.labels;
  // @ts-expect-error: a table without `button.pay` is not a language's table.
  const missing: LanguageTable = { ...NE, labels };
  // @ts-expect-error: `button.pay-now` is a key English lacks.
  const extra: LanguageTable = { ...NE, labels: { ...NE.labels, 'button.pay-now': 'x' } };
  // @ts-expect-error: a section English lacks.
  const section: LanguageTable = { ...NE, footer: {} };
  assert.ok(!('button.pay' in missing.labels) && 'button.pay-now' in extra.labels && 'footer' in section);
});
