/**
 * Every shopper-facing string, keyed. A translator edits one table per language, `en.ts` and `ne.ts`,
 * with a section per bundle; a merchant replaces any text through the element's `strings` property.
 * Developer-facing messages (the error event's `message`) stay in English and are not here.
 *
 * The element loads its texts in parts, and the build puts each in the chunk that first needs it:
 * `npm run texts` writes each section of a table to its part's module, which the chunks import:
 * - `en/labels.ts`, `ne/labels.ts`: the first module's (the button's labels, the offer to pay on the
 *   phone; English's also the words for payment code that could not be loaded);
 * - `en/texts.ts`: with the payment code; `ne/texts.ts`: a chunk of its own, Nepali pages only, also
 *   with Nepali's words for a failed load (`AFTER_FAILED_LOAD`, en.ts: English stands in without it);
 * - `en/handoff.ts`, `ne/handoff.ts`: with the phone hand-off (`handoff.ts` chooses between them).
 * The language rule and the wordings list are `lang.ts`'s. This module is the face: the whole tables
 * for the package's users, and the types; the element's chunks import their values from the parts,
 * never from this module.
 */
import { LABELS_EN } from './en/labels.js';
import { TEXTS_EN } from './en/texts.js';
import { LABELS_NE } from './ne/labels.js';
import { TEXTS_NE } from './ne/texts.js';

/** English: every text of the button and the payment, by key (the hand-off panel's are `HANDOFF_STRINGS_EN`). */
export const STRINGS_EN = { ...LABELS_EN, ...TEXTS_EN } as const;

/** A key of the string table. */
export type StringKey = keyof typeof STRINGS_EN;

/** A string table: one text per key. */
export type StringTable = Readonly<Record<StringKey, string>>;

/** Nepali (`ne`), in Devanagari: keyed like the English table, so no text can slip to another key. */
export const STRINGS_NE: StringTable = { ...LABELS_NE, ...TEXTS_NE };

export { LABELS, isNepali, langOf } from './lang.js';
export { LABELS_EN, LABELS_NE, TEXTS_EN, TEXTS_NE };
export type { LabelKey } from './en/labels.js';
export type { TextKey } from './en/texts.js';
export { handoffStringsFor, HANDOFF_STRINGS_EN, HANDOFF_STRINGS_NE, type HandoffStringKey, type HandoffStrings } from './handoff.js';
