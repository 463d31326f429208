/**
 * The hand-off's texts as its module loads them: both languages' tables and the choice between them,
 * without the element's other texts (the whole face, `index.ts`, would bring those along).
 */
import { HANDOFF_STRINGS_EN, type HandoffStringKey, type HandoffStrings } from './en/handoff.js';
import { HANDOFF_STRINGS_NE } from './ne/handoff.js';
import { isNepali } from './lang.js';

export { HANDOFF_STRINGS_EN, HANDOFF_STRINGS_NE, type HandoffStringKey, type HandoffStrings };

/**
 * The hand-off's texts for a BCP 47 language tag, by the element's rule (`ne`, `ne-NP` → Nepali;
 * anything else → English), with the entries of `overrides` for the panel's keys on top. The element's
 * whole `strings` object can be passed: other keys are ignored (`handoff.offer` too: the offer is the
 * button's text, not the panel's).
 */
export function handoffStringsFor(lang: string | null | undefined, overrides?: Readonly<Record<string, string | undefined>> | null): HandoffStrings {
  const base: HandoffStrings = isNepali(lang) ? HANDOFF_STRINGS_NE : HANDOFF_STRINGS_EN;
  if (!overrides) return base;
  const table = { ...base };
  for (const key of Object.keys(base) as HandoffStringKey[]) {
    const text = overrides[key];
    if (typeof text === 'string') table[key] = text;
  }
  return table;
}
