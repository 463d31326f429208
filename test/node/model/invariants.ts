/**
 * The money rules the generated interleavings check after every step, stated once. Each takes what
 * was observed (the sandbox's bookings of the order, what the tabs were handed, what reached
 * `onPaymentResult`, the answers) and returns the breaks it finds, as sentences; an empty list holds.
 */
import type { SandboxBooking } from '../../../src/sandbox/index.js';

/** The invariants by name, in the words of docs/faults.md. */
export const INVARIANTS = {
  onePayable: 'never two payable bookings for one order',
  oneSuccess: 'never two SUCCESS at the service for one order without the kit reporting the duplicate',
  deliveredOnce: 'each final result delivered once',
  reconciled: 'an order paid at the service is delivered after one reconcile()',
  neverCalledPaid: 'an order not paid is never answered "paid"',
  storeFault503: 'a store fault is answered IP-503, never IP-500',
} as const;

export type InvariantName = keyof typeof INVARIANTS;

/** One call of `onPaymentResult`: `returned` false when the hook threw (the kit delivers again, as documented). */
export interface HookCall {
  correlation_id: string;
  status: string;
  amount: number | undefined;
  returned: boolean;
  /** The kit marked it `duplicate: true`: a second payment of the order. */
  duplicate?: boolean;
}

/** An answer of the handler to a tab, the service or the model. */
export interface Answer {
  route: string;
  http: number;
  code: string;
  /** A store fault was injected while the request ran. */
  underFault: boolean;
  data?: Record<string, unknown>;
}

export interface Break {
  invariant: InvariantName;
  detail: string;
}

const OPEN = new Set(['BOOKED', 'PENDING']);

/** Paise, so sums of rupees compare exactly. */
const paise = (rupees: number) => Math.round(rupees * 100);

/** The order's SUCCESS payments at the service (a refund would be REVERTED), in paise. */
export function paidAtService(bookings: readonly SandboxBooking[]): number {
  return bookings.filter((b) => b.status === 'SUCCESS').reduce((sum, b) => sum + paise(b.amount), 0);
}

/**
 * Payable: open at the service (not paid, failed, cancelled or expired) and handed to a tab, so a
 * shopper can pay it. At most one per order.
 */
export function onePayable(bookings: readonly SandboxBooking[], handedOut: ReadonlySet<string>): Break[] {
  const payable = bookings.filter((b) => OPEN.has(b.status) && handedOut.has(b.booking_id));
  return payable.length > 1
    ? [{ invariant: 'onePayable', detail: `${payable.length} payable bookings: ${payable.map((b) => b.booking_id).join(', ')}` }]
    : [];
}

/**
 * No double charge: the SUCCESS payments of one order never add up past its total (the total only
 * grows in the model, so a second payment is fine when it paid a balance the order still owed),
 * leaving out the ones the kit reported as duplicates (`duplicate: true` to the hook and a
 * DuplicatePaymentError to onError, `reported` by correlation id). A payment the hook has not taken
 * yet may still be reported: the sum is judged once each of them reached the hook (`delivered`),
 * which one healthy reconcile() ensures.
 */
export function oneSuccess(bookings: readonly SandboxBooking[], total: number, reported: ReadonlySet<string>, delivered: ReadonlySet<string>): Break[] {
  const counted = bookings.filter((b) => b.status === 'SUCCESS' && !reported.has(b.correlation_id));
  const paid = counted.reduce((sum, b) => sum + paise(b.amount), 0);
  if (paid <= paise(total) || counted.some((b) => !delivered.has(b.correlation_id))) return [];
  return [{ invariant: 'oneSuccess', detail: `paid ${paid / 100} for a total of ${total}, no duplicate reported: ${counted.map((b) => `${b.booking_id} (${b.amount})`).join(', ')}` }];
}

/** A final result reaches the hook once: two calls that returned for one booking and status is a break. */
export function deliveredOnce(calls: readonly HookCall[]): Break[] {
  const count = new Map<string, number>();
  for (const call of calls) {
    if (!call.returned) continue;
    const id = `${call.correlation_id} ${call.status}`;
    count.set(id, (count.get(id) ?? 0) + 1);
  }
  return [...count].filter(([, n]) => n > 1).map(([id, n]) => ({ invariant: 'deliveredOnce', detail: `${id} delivered ${n} times` }));
}

/** After one healthy `reconcile()`, every SUCCESS at the service has reached the hook. */
export function reconciled(bookings: readonly SandboxBooking[], calls: readonly HookCall[]): Break[] {
  const delivered = new Set(calls.filter((c) => c.returned && c.status === 'SUCCESS').map((c) => c.correlation_id));
  return bookings
    .filter((b) => b.status === 'SUCCESS' && !delivered.has(b.correlation_id))
    .map((b) => ({ invariant: 'reconciled', detail: `${b.booking_id} is SUCCESS at the service, not delivered after reconcile()` }));
}

/** An `IP-412` to a book while the service holds less than the order's total. */
export function neverCalledPaid(answer: Answer, bookings: readonly SandboxBooking[], total: number): Break[] {
  if (answer.route !== 'book' || answer.code !== 'IP-412') return [];
  const paid = paidAtService(bookings);
  return paid >= paise(total) ? [] : [{ invariant: 'neverCalledPaid', detail: `book answered IP-412 with ${paid / 100} paid of ${total}` }];
}

/**
 * No `IP-500` to a shopper. (A callback's 5xx is how the kit asks the service to retry, by design, so
 * callbacks are left out.)
 */
export function storeFault503(answer: Answer): Break[] {
  if (answer.route === 'callback' || answer.http !== 500) return [];
  return [{ invariant: 'storeFault503', detail: `${answer.route} answered ${answer.code} (HTTP 500)${answer.underFault ? ' under a store fault' : ''}` }];
}
