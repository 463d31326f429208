/**
 * Result delivery: each final result reaches `onPaymentResult` once per booking and status, through a
 * claim in the store that every instance respects (see `PaymentStore`), marked when it pays an order
 * twice (duplicate.ts), and never when it contradicts what is known of its booking.
 */
import type { Kit } from './context.js';
import { ImpossibleTransition, LeaseLost, ResultBusy, type Delivery } from './delivery-terms.js';
import { createDuplicates } from './duplicate.js';
import type { LeaseHold } from './store.js';
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
