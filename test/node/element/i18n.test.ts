/**
 * The element's texts (src/element/i18n/): one module per language and part, the Nepali tables keyed
 * like the English ones, a key in one part only, the table chosen by the language tag.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AFTER_FAILED_LOAD } from '../../../src/element/i18n/en.js';
import { LABELS_EN } from '../../../src/element/i18n/en/labels.js';
import { TEXTS_EN } from '../../../src/element/i18n/en/texts.js';
import { HANDOFF_STRINGS_EN as HANDOFF_PART_EN } from '../../../src/element/i18n/en/handoff.js';
import { LABELS_NE } from '../../../src/element/i18n/ne/labels.js';
import { TEXTS_NE } from '../../../src/element/i18n/ne/texts.js';
import { HANDOFF_STRINGS_NE as HANDOFF_PART_NE } from '../../../src/element/i18n/ne/handoff.js';
import {
  HANDOFF_STRINGS_EN,
  HANDOFF_STRINGS_NE,
  handoffStringsFor,
  isNepali,
} from '../../../src/element/i18n/index.js';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const I18N = join(ROOT, 'src/element/i18n');

type Table = Readonly<Record<string, string>>;
const PARTS: ReadonlyArray<{ part: string; en: Table; ne: Table }> = [
  { part: 'labels', en: LABELS_EN, ne: LABELS_NE },
  { part: 'payment', en: TEXTS_EN, ne: TEXTS_NE },
  { part: 'handoff', en: HANDOFF_PART_EN, ne: HANDOFF_PART_NE },
];

test('each part of the Nepali texts has the English keys, in the same order, but the words for a failed load: with the Nepali chunk', () => {
  const later: readonly string[] = AFTER_FAILED_LOAD;
  for (const { part, en, ne } of PARTS) {
    assert.ok(Object.keys(en).length > 0, `${part}: the English part is empty`);
    const keys = part === 'labels' ? Object.keys(en).filter((key) => !later.includes(key)) : part === 'payment' ? [...Object.keys(en), ...later] : Object.keys(en);
    assert.deepEqual(Object.keys(ne), keys, `${part}: the Nepali keys differ from the English ones`);
  }
});

test('no text is empty, and each Nepali text is in Devanagari', () => {
  for (const { part, en, ne } of PARTS) {
    for (const [lang, table] of [['en', en], ['ne', ne]] as const) {
      for (const [key, text] of Object.entries(table)) {
        assert.equal(typeof text, 'string', `${lang}/${part} ${key}`);
        assert.notEqual(text.trim(), '', `${lang}/${part} ${key} is empty`);
        if (lang === 'ne') assert.match(text, /[\u0900-\u097F]/, `ne/${part} ${key} is not in Devanagari`);
      }
    }
  }
});

test('a key lives in one part only', () => {
  const seen = new Map<string, string>();
  for (const { part, en } of PARTS) {
    for (const key of Object.keys(en)) {
      assert.ok(!seen.has(key), `${key} is in both ${seen.get(key)} and ${part}`);
      seen.set(key, part);
    }
  }
});

test('the table follows the language tag', () => {
  assert.equal(isNepali('ne-NP'), true);
  assert.equal(isNepali('en'), false);
  assert.equal(isNepali(undefined), false);
  assert.equal(handoffStringsFor('ne'), HANDOFF_STRINGS_NE);
  assert.equal(handoffStringsFor(undefined), HANDOFF_STRINGS_EN);
});

test('the Nepali rule follows BCP 47 tags', () => {
  for (const lang of ['ne', 'NE', 'ne-NP', 'ne-Deva-NP']) assert.equal(isNepali(lang), true, lang);
  for (const lang of ['new', 'en', 'en-NE', 'hi', '', null, undefined]) assert.equal(isNepali(lang), false, String(lang));
});

test('the modules the first module and the Nepali chunk load import no other table', () => {
  // A value import here would put another part's texts into the chunk that loads this module.
  for (const file of ['en/labels.ts', 'ne/labels.ts', 'ne/texts.ts', 'en/texts.ts', 'lang.ts']) {
    const imports = readFileSync(join(I18N, file), 'utf8').match(/^import\b.*$/gm) ?? [];
    for (const line of imports) assert.match(line, /^import type /, `${file}: ${line}`);
  }
});
