/**
 * Result delivery: each final result reaches `onPaymentResult` once per booking and status, through a
 * claim in the store that every instance respects (see `PaymentStore`), marked when it pays an order
 * twice, and never when it contradicts what is known of its booking.
 *
 * A second payment of one order: the kit keeps one payable booking per order, but two can still be
 * paid (a store that answered late or lost a booking, a service that took a stale app screen's
 * payment after the kit cancelled it). Such a `SUCCESS` is delivered marked as a duplicate of the
 * booking that paid first, and told to `onError` once it is delivered: the merchant refunds it. "Paid
 * first" is decided under a short lease per order (`paid:{order_key}`): the order's paid booking is
 * read, then the `SUCCESS` claimed, with no other `SUCCESS` of the order claimed between, so of two
 * payments arriving at once exactly one is the duplicate. The claim and that check are one step.
 */
import { covers, toPaise } from './amounts.js';
import type { Kit } from './context.js';
import { ImpossibleTransition, LeaseLost, ResultBusy, type Delivery } from './delivery-terms.js';
import { paidBeforeOf } from './fingerprint.js';
import { orderKeyOf } from './order-tag.js';
import type { LeaseHold, ResultClaim } from './store.js';
import type { PaymentHandlerOptions, PaymentResult } from './types.js';

/** Result delivery for one handler: `onPaymentResult` is the merchant's hook. */
export function createDelivery(kit: Kit, onPaymentResult: PaymentHandlerOptions['onPaymentResult']): Delivery {
  const inFlightResults = new Map<string, Promise<void>>();
  const duplicates = createDuplicates(kit);

  /**
   * Hands a final result to the hook once per booking and status. Concurrent deliveries in this process
   * share one call; across processes the store's claim decides, and the losers get {@link ResultBusy}.
   * A status that contradicts what is known of the booking (a failure after its `SUCCESS`, a refund of
   * a booking never paid) is told to `onError` and rejected with {@link ImpossibleTransition}. Under a
   * book's `hold`, a claim refused because the order was taken over rejects with {@link LeaseLost}.
   */
  function deliver(result: PaymentResult, options: { hold?: LeaseHold } = {}): Promise<void> {
    const { correlation_id: correlationId, status } = result;
    const id = `${correlationId}\n${status}`;
    let pending = inFlightResults.get(id);
    if (!pending) {
      pending = (async () => {
        const owner = kit.owner;
        // A book's hold fences the claim when there is one; else the hold of the order's paid lease does.
        const { claim, result: told } = await duplicates.claim(result, (paidHold) => {
          const hold = options.hold ?? paidHold;
          return kit.store.claimResult({ correlationId, status, owner, leaseMs: kit.leaseMs, ...(hold && { hold }) });
        });
        if (claim === 'delivered') return;
        if (claim === 'busy') throw new ResultBusy(`Another instance is delivering ${status} for ${correlationId}.`);
        if (claim === 'stale') throw new LeaseLost(`The order of ${correlationId} was taken over; its ${status} is left to the next check.`);
        let handed = false;
        try {
          await checkTransition(result);
          await onPaymentResult(told);
          handed = true;
          await kit.store.completeResult({ correlationId, status, owner });
        } finally {
          // Not taken by the hook (it threw, or the transition was refused): given back, so the next
          // check retries at once. A hook that finished keeps its claim even when marking it failed, so
          // it is not run again before the claim's lease ends.
          if (!handed) await kit.store.releaseResult({ correlationId, status, owner }).catch((release: unknown) => kit.report(release, { route: 'result' }));
        }
        duplicates.delivered(told);
      })();
      inFlightResults.set(id, pending);
      const forget = () => inFlightResults.delete(id);
      pending.then(forget, forget);
    }
    return pending;
  }

  /**
   * One rule for a status that contradicts what is known of its booking: what says money moved is
   * delivered, what says it did not is not, once money moved. A `SUCCESS` is always delivered (after a
   * `FAILED` or `CANCELED` too: the service says the money arrived). A `REVERTED` always follows its
   * `SUCCESS`: one seen but never delivered (its hook failed, the kit lost the booking, or the booking
   * ended `FAILED` or `CANCELED` first, which is told to `onError`) is delivered first. A `FAILED` or
   * `CANCELED` after a `SUCCESS` is told and not delivered (only a `REVERTED` gives money back). What is
   * known is read from the store in one read, with the deliveries this process runs now.
   */
  async function checkTransition(result: PaymentResult): Promise<void> {
    if (result.status === 'SUCCESS') return;
    const { correlation_id } = result;
    const known = new Set((await kit.store.getResults({ correlationId: correlation_id })).map((r) => r.status));
    for (const status of ['SUCCESS', 'FAILED', 'CANCELED'] as const) if (inFlightResults.has(`${correlation_id}\n${status}`)) known.add(status);
    if (result.status === 'REVERTED') {
      if (known.has('SUCCESS')) return;
      const ended = known.has('FAILED') ? 'FAILED' : known.has('CANCELED') ? 'CANCELED' : undefined;
      if (ended) {
        kit.report(new Error(`Unexpected transition: ${result.source} reported REVERTED for booking ${describe(result)}, which ended ${ended}; delivered after its SUCCESS.`), {
          route: result.source,
          correlation_id: result.correlation_id,
          booking_id: result.booking_id,
        });
      }
      await deliver({ ...result, status: 'SUCCESS' });
      return;
    }
    if (!known.has('SUCCESS')) return;
    const error = new ImpossibleTransition(`Impossible transition: ${result.source} reported ${result.status} for booking ${describe(result)} after its SUCCESS; not delivered.`);
    kit.report(error, { route: result.source, correlation_id: result.correlation_id, booking_id: result.booking_id });
    throw error;
  }

  function describe(result: PaymentResult): string {
    return result.booking_id ?? `with correlation_id ${result.correlation_id}`;
  }

  return { deliver };
}

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
interface Duplicates {
  /**
   * Runs `claim` (the store's claim of this result, under the paid lease's hold for a `SUCCESS`) and answers what it gave with the result to
   * deliver: for a `SUCCESS` of a booking whose order another booking paid for at least its amount,
   * marked `duplicate: true` with `duplicate_of`.
   */
  claim(result: PaymentResult, claim: (hold?: LeaseHold) => Promise<ResultClaim>): Promise<{ claim: ResultClaim; result: PaymentResult }>;
  /** Tells `onError` of a duplicate, once `onPaymentResult` took it. */
  delivered(result: PaymentResult): void;
}

function createDuplicates(kit: Kit): Duplicates {
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
    const others = toPaise(paid) - (own ? toPaise(result.amount ?? 0) : 0);
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
