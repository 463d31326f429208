/**
 * The money rules the generated interleavings check after every step, stated once. Each takes what
 * was observed (the order's bookings at their providers, what the tabs were handed, what reached
 * `onPaymentResult`, the answers) and returns the breaks it finds, as sentences; an empty list holds.
 */

/** The invariants by name, in the words of docs/faults.md. */
export const INVARIANTS = {
  onePayable: 'never two payable bookings for one order',
  oneSuccess: 'never two SUCCESS at the service for one order without the kit reporting the duplicate',
  paidInFull: 'every SUCCESS after the order was paid in full is delivered as a duplicate',
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
  /** What the kit said was paid above what the order still needed (`overpayment`), in rupees. */
  overpayment?: number;
}

/** A `SUCCESS` claim the store granted, in the order it granted them, with the order's total then. */
export interface SuccessClaim {
  correlation_id: string;
  /**
   * A refund of the payment, at the moment its `REVERTED` reached the hook: from then on the order
   * owes that payment again (the kit's "paid" is a SUCCESS with no delivered REVERTED since).
   */
  reverted?: true;
  /**
   * The total the order's latest booking was priced at when the claim was granted: the largest the
   * order had while that booking's request was in flight, so never below what the kit booked it for.
   */
  total: number;
}

/**
 * One booking of the order at its provider on the sandbox (the intent service's booking, the ePay
 * ledger's transaction, Khalti's payment), its status in the intent service's words.
 */
export interface ServiceBooking {
  booking_id: string;
  correlation_id: string;
  status: string;
  amount: number;
  /** The wallet and provider that made it, named in a break. */
  wallet?: string;
}

/** What a break names of a booking: its id, its wallet, and its amount. */
const named = (b: ServiceBooking) => `${b.booking_id}${b.wallet ? ` on ${b.wallet}` : ''} (${b.amount})`;

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
export function paidAtService(bookings: readonly ServiceBooking[]): number {
  return bookings.filter((b) => b.status === 'SUCCESS').reduce((sum, b) => sum + paise(b.amount), 0);
}

/**
 * Payable: open at the service (not paid, failed, cancelled or expired) and handed to a tab, so a
 * shopper can pay it. At most one per order.
 */
export function onePayable(bookings: readonly ServiceBooking[], handedOut: ReadonlySet<string>): Break[] {
  const payable = bookings.filter((b) => OPEN.has(b.status) && handedOut.has(b.booking_id));
  return payable.length > 1
    ? [{ invariant: 'onePayable', detail: `${payable.length} payable bookings: ${payable.map(named).join(', ')}` }]
    : [];
}

/**
 * No double charge: the SUCCESS payments of one order never add up past the largest total it had (a
 * second payment is fine when it paid a balance the order still owed; a payment booked before the total
 * fell may exceed the total now), leaving out what the kit reported: a duplicate whole (`duplicate:
 * true` to the hook and a DuplicatePaymentError to onError), an overpayment's excess (`overpayment` and
 * an OverpaymentError). `reported`: rupees left out by correlation id. A payment the hook has not taken
 * yet may still be reported: the sum is judged once each of them reached the hook (`delivered`), which
 * one healthy reconcile() ensures.
 */
export function oneSuccess(bookings: readonly ServiceBooking[], total: number, reported: ReadonlyMap<string, number>, delivered: ReadonlySet<string>): Break[] {
  const counted = bookings.filter((b) => b.status === 'SUCCESS');
  const paid = counted.reduce((sum, b) => sum + paise(b.amount) - paise(reported.get(b.correlation_id) ?? 0), 0);
  if (paid <= paise(total) || counted.some((b) => !delivered.has(b.correlation_id))) return [];
  return [{ invariant: 'oneSuccess', detail: `paid ${paid / 100} for a total of ${total}, not reported: ${counted.map(named).join(', ')}` }];
}

/**
 * Once the order is paid in full, any further SUCCESS is a duplicate, whatever its amount: taken in
 * the order the store granted their claims, a SUCCESS claimed when the payments before it (those the
 * hook took, not as duplicates) covered the total then (`SuccessClaim.total`) reached the hook with
 * `duplicate: true`. A result claimed again (its hook threw) is judged at its last claim; one the hook
 * has not taken yet is judged once it has. A refund whose `REVERTED` reached the hook takes its payment
 * out of what was paid, from then on.
 */
export function paidInFull(claims: readonly SuccessClaim[], calls: readonly HookCall[]): Break[] {
  const last = new Map<string, number>();
  claims.forEach((claim, at) => {
    if (!claim.reverted) last.set(claim.correlation_id, at);
  });
  const breaks: Break[] = [];
  const counted = new Map<string, number>();
  let paid = 0;
  claims.forEach((claim, at) => {
    if (claim.reverted) {
      paid -= counted.get(claim.correlation_id) ?? 0;
      counted.delete(claim.correlation_id);
      return;
    }
    const call = calls.find((c) => c.returned && c.status === 'SUCCESS' && c.correlation_id === claim.correlation_id);
    if (last.get(claim.correlation_id) !== at || !call || call.duplicate) return;
    if (paid >= paise(claim.total)) breaks.push({ invariant: 'paidInFull', detail: `${claim.correlation_id} (${call.amount}) delivered as a payment after ${paid / 100} paid of ${claim.total}` });
    paid += paise(call.amount ?? 0);
    counted.set(claim.correlation_id, paise(call.amount ?? 0));
  });
  return breaks;
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

/**
 * After one healthy `reconcile()`, every SUCCESS at the service has reached the hook, but of a booking
 * whose FAILED or CANCELED the hook took first: the kit settled it, and a payment that lands after the
 * merchant's cancel (WPS-006) is learned from its callback, or the tab's status check, alone.
 */
export function reconciled(bookings: readonly ServiceBooking[], calls: readonly HookCall[]): Break[] {
  const delivered = new Set(calls.filter((c) => c.returned && c.status === 'SUCCESS').map((c) => c.correlation_id));
  const settled = new Set(calls.filter((c) => c.returned && (c.status === 'FAILED' || c.status === 'CANCELED')).map((c) => c.correlation_id));
  return bookings
    .filter((b) => b.status === 'SUCCESS' && !delivered.has(b.correlation_id) && !settled.has(b.correlation_id))
    .map((b) => ({ invariant: 'reconciled', detail: `${named(b)} is SUCCESS at its provider, not delivered after reconcile()` }));
}

/**
 * An `IP-412` to a book, or `paid: true` to a lookup (`/order`), while the providers hold less than the
 * order's total. `paidWhileAsked`: the most they held (paise) while the request was in flight, which
 * its answer may have been decided on before a refund took it back.
 */
export function neverCalledPaid(answer: Answer, bookings: readonly ServiceBooking[], total: number, paidWhileAsked = 0): Break[] {
  const told = (answer.route === 'book' && answer.code === 'IP-412') || (answer.route === 'order' && answer.data?.paid === true);
  if (!told) return [];
  const paid = Math.max(paidAtService(bookings), paidWhileAsked);
  return paid >= paise(total) ? [] : [{ invariant: 'neverCalledPaid', detail: `${answer.route} answered ${answer.route === 'book' ? 'IP-412' : 'paid'} with ${paid / 100} paid of ${total}` }];
}

/**
 * No `IP-500` to a shopper. (A callback's 5xx is how the kit asks the service to retry, by design, so
 * callbacks are left out.)
 */
export function storeFault503(answer: Answer): Break[] {
  if (answer.route === 'callback' || answer.http !== 500) return [];
  return [{ invariant: 'storeFault503', detail: `${answer.route} answered ${answer.code} (HTTP 500)${answer.underFault ? ' under a store fault' : ''}` }];
}
