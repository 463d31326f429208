/**
 * Every shopper-facing string, keyed, in one table per language. English and Nepali are built in; a
 * merchant replaces any text through the element's `strings` property. Developer-facing messages (the
 * error event's `message`) stay in English and are not here.
 *
 * The element loads its texts in pieces (the labels with the button, the rest with the payment code,
 * the Nepali rest only on Nepali pages); these whole tables are for the package's users.
 */
import { LABELS_EN, LABELS_NE } from './labels.js';
import { TEXTS_EN } from './strings-en.js';
import { TEXTS_NE } from './strings-ne.js';
import { isNepali } from './look.js';

/** English: every text, by key. */
export const STRINGS_EN = { ...LABELS_EN, ...TEXTS_EN } as const;

/** A key of the string table. */
export type StringKey = keyof typeof STRINGS_EN;

/** A string table: one text per key. */
export type StringTable = Readonly<Record<StringKey, string>>;

/** Nepali (`ne`), in Devanagari: keyed like the English table, so no text can slip to another key. */
export const STRINGS_NE: StringTable = { ...LABELS_NE, ...TEXTS_NE };

export { isNepali } from './look.js';

/**
 * The table for a BCP 47 language tag (`ne`, `ne-NP` → Nepali; anything else, or none → English),
 * with the merchant's `overrides` on top.
 */
export function stringsFor(lang: string | null | undefined, overrides?: Partial<StringTable> | null): StringTable {
  const base = isNepali(lang) ? STRINGS_NE : STRINGS_EN;
  return overrides ? { ...base, ...overrides } : base;
}
