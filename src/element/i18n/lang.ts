/**
 * The language rule and the button's wordings: what the element's first module needs beside its own
 * texts, in a module that brings no table with it. The payment module's set-up check uses the wordings
 * too (it warns about one that does not exist); the looks are the set-up check's alone (setup-check.ts).
 */

/** The wordings there are; any other falls back to the default, and the set-up check warns. */
export const LABELS = ['pay', 'checkout', 'buy', 'donate'] as const;

/** The wording in force for a `label` setting: the setting when it is one of {@link LABELS}, else `pay`. */
export const wordingOf = (label: string | null | undefined): (typeof LABELS)[number] =>
  (LABELS as readonly unknown[]).includes(label) ? (label as (typeof LABELS)[number]) : 'pay';

/** True for a BCP 47 language tag the Nepali texts serve (`ne`, `ne-NP`): the one language rule. */
export const isNepali = (lang: string | null | undefined): boolean => /^ne\b/i.test(lang ?? '');

/** The language in force at `node`, as the browser finds it: the nearest `lang`, across shadow roots. */
export function langOf(node: Element): string | null {
  for (let at: Element | null = node; at; ) {
    const found = at.closest('[lang]');
    if (found) return found.getAttribute('lang');
    const root = at.getRootNode();
    at = root instanceof ShadowRoot ? root.host : null;
  }
  return null;
}
