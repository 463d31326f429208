/**
 * The tables a translator edits (src/element/i18n/en.ts, ne.ts): Nepali's has exactly English's
 * sections and keys, which its type enforces (a missing or extra key does not type-check).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AFTER_FAILED_LOAD, EN, type LanguageTable } from '../../../src/element/i18n/en.js';
import { NE } from '../../../src/element/i18n/ne.js';
import { PAGE_TEXTS } from '../../../src/sandbox/page-texts.js';

test("the Nepali table has exactly English's sections and keys, its words for a failed load in its own chunk's section", () => {
  assert.deepEqual(Object.keys(NE), Object.keys(EN));
  const later: readonly string[] = AFTER_FAILED_LOAD;
  const moved = { labels: Object.keys(EN.labels).filter((key) => !later.includes(key)), payment: [...Object.keys(EN.payment), ...later] };
  for (const section of Object.keys(EN) as (keyof typeof EN)[]) {
    const keys = section === 'handoff' ? Object.keys(EN[section]) : moved[section];
    assert.deepEqual(Object.keys(NE[section]).sort(), keys.sort(), section);
  }
  // Each is a key of English's first module, so English still says it where no chunk came.
  for (const key of later) assert.ok(key in EN.labels && !(key in NE.labels), key);
  assert.ok('action.retry' in NE.labels, "the way forward's label is not one of them");
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

/** Every text of a table, with its key, for the checks over what a shopper reads. */
function texts(table: LanguageTable | typeof EN): Array<[string, string]> {
  return Object.values(table).flatMap((section) => Object.entries(section as Readonly<Record<string, string>>));
}

const WAIT_EN = "We'll update this page when your payment is done.";
const WAIT_NE = 'तपाईंको भुक्तानी पूरा भएपछि हामी यो पृष्ठ अपडेट गर्नेछौं।';

test('while the shopper pays elsewhere, the page says we will update it when the payment is done', () => {
  for (const key of ['status.inapp', 'handoff.steps'] as const) {
    const section = key === 'status.inapp' ? 'payment' : 'handoff';
    assert.ok((EN[section] as Readonly<Record<string, string>>)[key]!.endsWith(WAIT_EN), `en ${key}`);
    assert.ok((NE[section] as Readonly<Record<string, string>>)[key]!.endsWith(WAIT_NE), `ne ${key}`);
  }
  // "Follows your payment by itself" read as if the page acted on its own; nothing says it any more.
  for (const [key, text] of texts(EN)) assert.doesNotMatch(text, /by itself/, `en ${key}`);
  for (const [key, text] of texts(NE)) assert.doesNotMatch(text, /आफैं|आफैँ/, `ne ${key}`);
});

test('a paid order thanks the shopper: "already paid" greeted one who had just paid elsewhere as if paying twice', () => {
  assert.equal(EN.payment['status.paid'], 'Payment received, thank you.');
  assert.equal(NE.payment['status.paid'], 'भुक्तानी प्राप्त भयो, धन्यवाद।');
  for (const [key, text] of texts(EN)) assert.doesNotMatch(text, /already paid/i, `en ${key}`);
  for (const [key, text] of texts(NE)) assert.doesNotMatch(text, /भइसकेको/, `ne ${key}`);
});

/**
 * Words Nepali writes more than one way: each group lists the spellings met in practice, the first
 * being the table's. A table that uses two of a group reads as careless to a Nepali reader.
 */
const SPELLINGS: ReadonlyArray<readonly [string, ...string[]]> = [
  ['लिंक', 'लिङ्क', 'लिन्क'], // link
  ['भुक्तानी', 'भुक्तान', 'भूक्तानी', 'भुक्तानि', 'भुगतान'], // payment
  ['वालेट', 'वालेट्', 'वलेट', 'वाॅलेट', 'वालट'], // wallet
  ['ब्राउजर', 'ब्राउज़र', 'ब्राउसर', 'ब्राउजर्'], // browser
  ['एप', 'एप्प', 'एप्स', 'अप्प'], // app
  ['इन्टरनेट', 'इन्टरनेट्', 'इंटरनेट', 'ईन्टरनेट'], // internet
  ['अफलाइन', 'अफ्लाइन', 'अफ़लाइन'], // offline
];

/** The spellings of `group` a text uses, each counted where it is a whole word or a word's stem. */
function spellingsUsed(allTexts: readonly string[], group: readonly string[]): string[] {
  // Longer spellings first, so 'भुक्तानी' is not also counted as 'भुक्तान'.
  const sorted = [...group].sort((a, b) => b.length - a.length);
  const used = new Set<string>();
  for (const text of allTexts) {
    let rest = text;
    for (const spelling of sorted) {
      if (rest.includes(spelling)) used.add(spelling);
      rest = rest.split(spelling).join(' ');
    }
  }
  return [...used];
}

test("each Nepali word has one spelling across the table and the sandbox's stand-in pages (link, payment, wallet, browser, app, internet, offline)", () => {
  // A shopper reads the element and then the sandbox's pages in one payment: one spelling across both.
  const all = [...texts(NE).map(([, text]) => text), ...Object.values(PAGE_TEXTS.ne)];
  assert.ok(all.some((text) => text.startsWith('स्यान्डबक्स')), "the sandbox's texts are counted");
  for (const group of SPELLINGS) {
    const used = spellingsUsed(all, group);
    assert.ok(used.length <= 1, `${group[0]}: the table spells it ${used.join(' and ')}; keep one`);
  }
  // The check itself: two spellings of "link" in one table are caught.
  assert.deepEqual(spellingsUsed(['भुक्तानी लिङ्कको QR कोड', 'लिंक कपी गर्नुहोस्'], SPELLINGS[0]!).sort(), ['लिंक', 'लिङ्क'].sort());
  assert.deepEqual(spellingsUsed(['भुक्तानी गर्नुहोस्', 'भुक्तान गर्नुहोस्'], SPELLINGS[1]!).sort(), ['भुक्तान', 'भुक्तानी'].sort());
});
