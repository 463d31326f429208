/**
 * Result delivery: each final result reaches `onPaymentResult` once per booking and status, through a
 * claim in the store that every instance respects (see `PaymentStore`), marked when it pays more than
 * its order needs, and never when it contradicts what is known of its booking.
 *
 * A payment beyond what its order needs: the kit keeps one payable booking per order, but two can
 * still be paid (a store that answered late or lost a booking, a service that took a stale app screen's
 * payment after the kit cancelled it). A `SUCCESS` of an order its other payments had paid in full is
 * delivered marked as a duplicate of the booking that paid it, whatever its amount; one above what the
 * order still needed carries the excess (`overpayment`). Each is told to `onError` once delivered: the
 * merchant refunds it. A result's amount is the booked one; a callback that says another is told too.
 *
 * The check is part of the result's claim, whichever path the result came by (a callback, a status
 * check, reconcile, or a book closing the order's open bookings under the order's own lease): the store
 * reads the order's payments and claims the `SUCCESS` in one atomic step, serialized per order
 * (`PaymentStore.claimResult`'s `judge`), so no other `SUCCESS` of the order is claimed between, and of
 * two payments arriving at once exactly one is the duplicate. A delivery costs the claim and its mark.
 */
import { toPaise, toRupees, verdictOf } from './amounts.js';
import type { Kit } from './context.js';
import { ImpossibleTransition, LeaseLost, ResultBusy, type DeliveredResult, type Delivery } from './delivery-terms.js';
import { paidBeforeOf } from './fingerprint.js';
import type { KnownResult, LeaseHold, OrderState, StoredBooking } from './store.js';
import type { ErrorContext, PaymentHandlerOptions, PaymentResult } from './types.js';

/** Result delivery for one handler: `onPaymentResult` is the merchant's hook. */
export function createDelivery(kit: Kit, onPaymentResult: PaymentHandlerOptions['onPaymentResult']): Delivery {
  const inFlightResults = new Map<string, Promise<void>>();

  /**
   * Hands a final result to the hook once per booking and status, with its booked amount. Concurrent
   * deliveries in this process share one call; across processes the store's claim decides, and the
   * losers get {@link ResultBusy}.
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
        // One round trip: the claim answers the booking, its known results and (for a SUCCESS) its order.
        const answer = await kit.store.claimResult({
          correlationId,
          status,
          owner,
          leaseMs: kit.leaseMs,
          ...(options.hold && { hold: options.hold }),
          ...(judged(result) && { judge: true }),
        });
        // A result without its booking id is of a booking the store lost: its own facts are all there is.
        const booking = result.booking_id === undefined ? undefined : answer.booking;
        // The booked amount is what the hook gets; a callback's own amount is compared with it.
        const booked: PaymentResult = booking ? { ...result, amount: booking.amount } : result;
        const { claim } = answer;
        const { result: told, errors } = claim === 'claimed' && answer.order ? judge(booked, booking, answer.order) : { result: booked, errors: [] as Error[] };
        if (booking && result.amount !== undefined && toPaise(result.amount) !== toPaise(booking.amount)) {
          errors.unshift(new AmountMismatchError(told, result.amount));
        }
        if (claim === 'delivered') return;
        if (claim === 'busy') throw new ResultBusy(`Another instance is delivering ${status} for ${correlationId}.`);
        if (claim === 'stale') throw new LeaseLost(`The order of ${correlationId} was taken over; its ${status} is left to the next check.`);
        let handed = false;
        try {
          await checkTransition(told, answer.known);
          await onPaymentResult(told);
          handed = true;
          await kit.store.completeResult({ correlationId, status, owner });
        } finally {
          // Not taken by the hook (it threw, or the transition was refused): given back, so the next
          // check retries at once. A hook that finished keeps its claim even when marking it failed, so
          // it is not run again before the claim's lease ends.
          if (!handed) await kit.store.releaseResult({ correlationId, status, owner }).catch((release: unknown) => kit.report(release, { route: 'result' }));
        }
        // Told once the hook took the result: a hook that threw gets it again, and only then is it told.
        const context: ErrorContext = { route: result.source, correlation_id: correlationId, ...(result.booking_id !== undefined && { booking_id: result.booking_id }) };
        for (const error of errors) kit.report(error, context);
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
   * known is what the claim read, with the deliveries this process runs now.
   */
  async function checkTransition(result: PaymentResult, results: KnownResult[]): Promise<void> {
    if (result.status === 'SUCCESS') return;
    const { correlation_id } = result;
    const known = new Set(results.map((r) => r.status));
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

/** A payment of an order its other payments had paid in full: refund it (docs/server.md, "A payment beyond what the order needs"). */
export class DuplicatePaymentError extends Error {
  override name = 'DuplicatePaymentError';

  constructor(
    /** The duplicate, as `onPaymentResult` received it (`duplicate: true`, `duplicate_of`). */
    readonly result: PaymentResult,
    /** The payment that paid the order before it, when the store named it. */
    readonly first?: Pick<StoredBooking, 'booking_id' | 'amount'>,
  ) {
    super(
      `Order ${orderOf(result)} was paid twice: booking ${result.booking_id} ` +
        `(reference_code ${result.reference_code ?? 'unknown'}, amount ${result.amount}) after booking ${result.duplicate_of ?? 'another'}` +
        `${first ? ` (amount ${first.amount})` : ''}. Refund the second payment with the provider; its REVERTED reaches onPaymentResult.`,
    );
  }
}

/** A payment above what its order still needed: refund the excess (docs/server.md, "A payment beyond what the order needs"). */
export class OverpaymentError extends Error {
  override name = 'OverpaymentError';

  constructor(
    /** The payment, as `onPaymentResult` received it (`overpayment`: the excess). */
    readonly result: DeliveredResult,
    /** What the order still needed when it arrived, in rupees. */
    readonly needed: number,
  ) {
    super(
      `Order ${orderOf(result)} was overpaid: booking ${result.booking_id} paid ${result.amount} ` +
        `(reference_code ${result.reference_code ?? 'unknown'}) when the order still needed ${needed}. Refund ${result.overpayment} with the provider.`,
    );
  }
}

/** A result whose amount is not its booking's: the hook got the booked amount; check the payment with the provider. */
export class AmountMismatchError extends Error {
  override name = 'AmountMismatchError';

  constructor(
    /** The result as `onPaymentResult` received it, with the booked amount. */
    readonly result: PaymentResult,
    /** The amount the callback (or status check) reported. */
    readonly reported: number,
  ) {
    super(
      `The ${result.source} reported ${reported} for booking ${result.booking_id}, booked at ${result.amount}: ` +
        `onPaymentResult got ${result.status} with the booked amount. Check the payment with the provider.`,
    );
  }
}

function orderOf(result: PaymentResult): string {
  return result.order_id ?? JSON.stringify(result.order);
}

/** Whether a result is judged against its order: a `SUCCESS` of a booking the kit knows, with its order's id. */
function judged(result: PaymentResult): boolean {
  return result.status === 'SUCCESS' && result.booking_id !== undefined && result.order_id !== undefined;
}

/**
 * A `SUCCESS` judged against its order, as read in the step of its claim: its amount against what the
 * order's other payments left to pay of its total, as the order's latest booking priced it (see `verdictOf`).
 */
function judge(result: PaymentResult, booking: StoredBooking | undefined, state: OrderState): { result: DeliveredResult; errors: Error[] } {
  const id = result.booking_id;
  const paid = toPaise(result.amount ?? 0);
  // This booking's own SUCCESS is counted already when an earlier claim of it lapsed (its process died).
  const ownCounted = state.paid?.booking_id === id || (state.paidOpen?.includes(id!) ?? false);
  const others = toPaise(state.paidAmount ?? state.paid?.amount ?? 0) - (ownCounted ? paid : 0);
  const latest = [booking, state.paid, ...state.open].reduce<StoredBooking | undefined>((last, b) => (b && (!last || b.created_at > last.created_at) ? b : last), undefined);
  if (!latest) return { result, errors: [] };
  const verdict = verdictOf({ paid, others, total: paidBeforeOf(latest.fingerprint) + toPaise(latest.amount) });
  if (verdict.kind === 'payment') return { result, errors: [] };
  if (verdict.kind === 'overpayment') {
    const overpaid: DeliveredResult = { ...result, overpayment: toRupees(verdict.excess) };
    return { result: overpaid, errors: [new OverpaymentError(overpaid, toRupees(verdict.needed))] };
  }
  const first = state.paid && state.paid.booking_id !== id ? state.paid : state.open.find((b) => b.booking_id !== id && state.paidOpen?.includes(b.booking_id));
  const duplicate: PaymentResult = { ...result, duplicate: true, ...(first && { duplicate_of: first.booking_id }) };
  return { result: duplicate, errors: [new DuplicatePaymentError(duplicate, first)] };
}
