/**
 * Small value checks that the booking client, the server kit and the sandbox all use, so that every
 * part reads a JSON value the same way and names a wrong one in the same words.
 */

/** True for a JSON object: not `null`, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Names a value for an error message: `null`, `an array`, `an empty string`, `a string "…"`, `number 42`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    return value.length === 0 ? 'an empty string' : `a string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  }
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' || typeof value === 'boolean' ? `${typeof value} ${String(value)}` : typeof value;
}

/**
 * Object keys sorted at every depth, so two spellings of one order give one fingerprint: the server's
 * order key and the browser's kept-booking key are both written in this order.
 */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}
