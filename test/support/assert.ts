/** Assertions that `node:assert` lacks, for the Node tests of the core. */
import assert from 'node:assert/strict';

/** Asserts that `actual` is an object whose own values under `subset`'s keys deep-equal `subset`'s. */
export function assertHas(actual: unknown, subset: Record<string, unknown>, message?: string): void {
  assert.ok(typeof actual === 'object' && actual !== null, message ?? `expected an object, got ${String(actual)}`);
  const picked = Object.fromEntries(Object.keys(subset).map((key) => [key, (actual as Record<string, unknown>)[key]]));
  assert.deepEqual(picked, subset, message);
}

/** Asserts that the string or array `actual` contains `part` (a substring, or an element by `===`). */
export function assertIncludes(actual: unknown, part: unknown, message?: string): void {
  assert.ok(typeof actual === 'string' || Array.isArray(actual), message ?? `expected a string or an array, got ${String(actual)}`);
  assert.ok((actual as string | unknown[]).includes(part as string), message ?? `expected ${JSON.stringify(actual)} to include ${JSON.stringify(part)}`);
}

/** Asserts that the string or array `actual` does not contain `part`. */
export function assertLacks(actual: unknown, part: unknown, message?: string): void {
  assert.ok(typeof actual === 'string' || Array.isArray(actual), message ?? `expected a string or an array, got ${String(actual)}`);
  assert.ok(!(actual as string | unknown[]).includes(part as string), message ?? `expected ${JSON.stringify(actual)} not to include ${JSON.stringify(part)}`);
}
