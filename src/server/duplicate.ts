/**
 * A second payment of one order. The kit keeps one payable booking per order, but two can still be
 * paid: a store that answered late or lost a booking, a service that took a stale app screen's
 * payment after the kit cancelled it. Such a `SUCCESS` is delivered marked as a duplicate of the
 * booking that paid first, and told to `onError` once it is delivered: the merchant refunds it.
 *
 * "Paid first" is decided under a short lease per order (`paid:{order_key}`): the order's paid
 * booking is read, then the `SUCCESS` claimed, with no other `SUCCESS` of the order claimed between,
 * so of two payments arriving at once exactly one is the duplicate.
 */
import { paidBeforeOf } from './fingerprint.js';
import type { Kit } from './context.js';
import { ResultBusy } from './delivery-terms.js';
import { orderKeyOf } from './order-tag.js';
import type { LeaseHold, ResultClaim } from './store.js';
import type { PaymentResult } from './types.js';

/** A payment of an order another booking had already paid: refund it (docs/server.md, "A second payment"). */
export class DuplicatePaymentError extends Error {
  override name = 'DuplicatePaymentError';

  constructor(
    /** The duplicate, as `onPaymentResult` received it (`duplicate: true`, `duplicate_of`). */
    readonly result: PaymentResult,
  ) {
    super(
      `Order ${result.order_id ?? JSON.stringify(result.order)} was paid twice: booking ${result.booking_id} ` +
        `(reference_code ${result.reference_code ?? 'unknown'}, amount ${result.amount}) after booking ${result.duplicate_of}. ` +
        'Refund the second payment with the provider; its REVERTED reaches onPaymentResult.',
    );
  }
}

/** How long the order's lease holds: it covers one read and one claim. */
const PAID_LEASE_MS = 4_000;
/** How long a delivery waits for another delivery of the same order before giving up (it is retried). */
const PAID_WAIT_MS = 5_000;

/** The duplicate check around a result's claim. */
export interface Duplicates {
  /**
   * Runs `claim` (the store's claim of this result, under the paid lease's hold for a `SUCCESS`) and answers what it gave with the result to
   * deliver: for a `SUCCESS` of a booking whose order another booking paid for at least its amount,
   * marked `duplicate: true` with `duplicate_of`.
   */
  claim(result: PaymentResult, claim: (hold?: LeaseHold) => Promise<ResultClaim>): Promise<{ claim: ResultClaim; result: PaymentResult }>;
  /** Tells `onError` of a duplicate, once `onPaymentResult` took it. */
  delivered(result: PaymentResult): void;
}

export function createDuplicates(kit: Kit): Duplicates {
  async function claim(result: PaymentResult, take: (hold?: LeaseHold) => Promise<ResultClaim>): Promise<{ claim: ResultClaim; result: PaymentResult }> {
    const { booking_id: bookingId, order_id: orderId } = result;
    // A result without its booking's order (a booking the store lost) cannot be matched to a payment.
    if (result.status !== 'SUCCESS' || bookingId === undefined || orderId === undefined) return { claim: await take(), result };
    const orderKey = await orderKeyOf(orderId);
    // One owner per delivery: two deliveries in this process must exclude each other too.
    const hold = await acquire(`paid:${orderKey}`, `${kit.owner}:${result.correlation_id}`);
    try {
      const { paid, paidAmount } = await kit.store.getOrderState({ orderKey });
      // Claimed under the hold: a holder paused past the lease (another read and claimed meanwhile) claims nothing.
      const outcome = await take(hold);
      const twice =
        outcome === 'claimed' &&
        paid !== undefined &&
        paid.booking_id !== bookingId &&
        covers(paid.amount, result.amount ?? 0) &&
        !(await isBalance(result, paidAmount ?? paid.amount));
      return { claim: outcome, result: twice ? { ...result, duplicate: true, duplicate_of: paid.booking_id } : result };
    } finally {
      await kit.store.releaseLease(hold).catch((error: unknown) => kit.report(error, { route: result.source, correlation_id: result.correlation_id }));
    }
  }

  /**
   * Whether the booking of `result` was made for what was left to pay after the order's other payments
   * (`paid`, in rupees, as the order's read counts them): its `SUCCESS` then adds to them, it repeats none.
   */
  async function isBalance(result: PaymentResult, paid: number): Promise<boolean> {
    const booking = await kit.store.findBookingByCorrelationId({ correlationId: result.correlation_id });
    const before = booking === undefined ? 0 : paidBeforeOf(booking.fingerprint);
    if (before === 0) return false;
    // This booking's own SUCCESS is counted already when an earlier claim of it was given back.
    const own = (await kit.store.getResults({ correlationId: result.correlation_id })).some((r) => r.status === 'SUCCESS');
    const others = Math.round(paid * 100) - (own ? Math.round((result.amount ?? 0) * 100) : 0);
    return others <= before;
  }

  async function acquire(lease: string, owner: string): Promise<LeaseHold> {
    const deadline = kit.now() + PAID_WAIT_MS;
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      const token = await kit.store.acquireLease({ lease, owner, leaseMs: PAID_LEASE_MS });
      if (token !== undefined) return { lease, owner, token };
      if (kit.now() >= deadline) throw new ResultBusy(`Another payment of this order is being recorded (${lease}).`);
      await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random())));
    }
  }

  function delivered(result: PaymentResult): void {
    if (result.duplicate) {
      kit.report(new DuplicatePaymentError(result), { route: result.source, correlation_id: result.correlation_id, booking_id: result.booking_id });
    }
  }

  return { claim, delivered };
}

/** Amounts in paise, as the booking's own rule. */
function covers(paid: number, amount: number): boolean {
  return Math.round(paid * 100) >= Math.round(amount * 100);
}
