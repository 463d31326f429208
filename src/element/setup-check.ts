/**
 * The element's set-up, checked where a developer looks first: one `console.warn` per problem, naming
 * the attribute, its value and the fix, each written once per page (as Lit's development warnings are).
 */
import type { SettingsProblem } from '../core/settings.js';

/** The looks there are (the `variant` attribute); any other falls back to the default, and the check warns. */
export const VARIANTS = ['dark', 'light', 'outline', 'auto'] as const;

const warned = new Set<string>();

/** Writes each problem not written before. */
export function warnOnce(problems: readonly SettingsProblem[]): void {
  for (const { message } of problems) {
    if (warned.has(message)) continue;
    warned.add(message);
    console.warn(`<wallet-pay-button>: ${message}`);
  }
}

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
export function misspelledAttributes(names: readonly string[], known: readonly string[]): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  for (const name of names) {
    if (known.includes(name)) continue;
    const near = known.find((candidate) => candidate.length > 3 && distance(name, candidate) <= 2);
    if (near) {
      problems.push({ kind: 'config', attribute: name, value: '', message: `${name} is not an attribute of <wallet-pay-button>: did you mean ${near}?` });
    }
  }
  return problems;
}
