/**
 * The element's set-up, checked where a developer looks first: what is wrong is found here, cheaply,
 * each time the settings are read; the sentences that say it (one `console.warn` per mistake, each
 * once per page) are in `setup-sentences.ts`, a chunk loaded only when there is a mistake to report.
 */
import type { Notice } from './setup-sentences.js';

/** The looks there are (the `variant` attribute); any other falls back to the default, and the check warns. */
export const VARIANTS = ['dark', 'light', 'outline', 'auto'] as const;

/** One mistake to report (its kinds and sentences are in the set-up sentences' chunk). */
export type { Notice };

/** Reports under way: their messages are loading. */
const pending = new Set<Promise<void>>();

/** Reports `notices` in the console (nothing is loaded when there are none); resolves once written. */
export function report(notices: readonly Notice[]): Promise<void> {
  if (!notices.length) return Promise.resolve();
  const written = import('./setup-sentences.js').then(
    (messages) => messages.write(notices),
    () => {
      // The messages could not be loaded (offline): a developer's console stays quiet; the shopper's way is unchanged.
    },
  );
  const tracked = written.finally(() => pending.delete(tracked));
  pending.add(tracked);
  return tracked;
}

/** Resolves once every report made so far (and any made meanwhile) is written: the element's `loadsSettled` waits for it. */
export async function reportsSettled(): Promise<void> {
  while (pending.size) await Promise.allSettled(pending);
}

/** A look-only mistake when `value` is not in `list`: reported, never in the way of a payment. */
export const oneOf = (attribute: string, value: string, list: readonly string[], fallback: string): Notice[] =>
  list.includes(value) ? [] : [{ kind: 'one-of', attribute, value, list, fallback }];

/** Edit distance, for "did you mean": small strings only. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * The attributes of `names` that are none of `known` but nearly one of them (a typo such as
 * `sucess-url`): a misspelled attribute is silently ignored by the browser.
 */
export function misspelledAttributes(names: readonly string[], known: readonly string[]): Notice[] {
  const notices: Notice[] = [];
  for (const name of names) {
    if (known.includes(name)) continue;
    const near = known.find((candidate) => candidate.length > 3 && distance(name, candidate) <= 2);
    if (near) notices.push({ kind: 'misspelled', name, near });
  }
  return notices;
}
