/**
 * A stored booking's fingerprint: the key's content (`['v2', channel, order id, 'handoff'?]`, compared
 * on a replay of the key) and, for a booking made while the order was paid in part, what was paid then
 * (`{ paid_before }`, in paise, last). A later payment of the order is a second payment of it only when
 * it was not among those: a balance's `SUCCESS` after the payment it follows is no duplicate.
 */

interface PaidBefore {
  paid_before: number;
}

function parse(stored: string): unknown[] | undefined {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isPaidBefore(value: unknown): value is PaidBefore {
  return typeof value === 'object' && value !== null && typeof (value as PaidBefore).paid_before === 'number';
}

/** The fingerprint saved with a booking: `content` as it is when nothing was paid before it. */
export function storedFingerprint(content: string, paidBeforePaise: number): string {
  const parts = parse(content);
  return paidBeforePaise > 0 && parts ? JSON.stringify([...parts, { paid_before: paidBeforePaise }]) : content;
}

/** The key's content of a stored fingerprint, as a request's is computed (what a replay is compared with). */
export function contentOf(stored: string): string {
  const parts = parse(stored);
  return parts && isPaidBefore(parts.at(-1)) ? JSON.stringify(parts.slice(0, -1)) : stored;
}

/** What the order had paid, in paise, when the booking was made (0 when nothing, or not recorded). */
export function paidBeforeOf(stored: string): number {
  const last = parse(stored)?.at(-1);
  return isPaidBefore(last) ? last.paid_before : 0;
}
