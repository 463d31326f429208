/**
 * `handler.refund()`: a payment refunded, in full or in part, through its provider's refund API (where
 * the provider has one), and what the provider then says of it delivered to `onPaymentResult` (a full
 * refund is `REVERTED`, source `refund`).
 */
import { isFinalStatus } from '../protocol/contract.js';
import { toPaise } from './amounts.js';
import type { Kit } from './context.js';
import { bookingFacts, ImpossibleTransition, ResultBusy, type Delivery } from './delivery-terms.js';
import { ServiceError } from './service-error.js';
import type { RefundReport, RefundRequest } from './types.js';

/** The refund half of the handler. */
export function createRefund(kit: Kit, delivery: Delivery): (request: RefundRequest) => Promise<RefundReport> {
  return async ({ booking_id, amount }) => {
    const state = await kit.store.getBookingState({ bookingId: booking_id });
    if (!state) throw new RangeError(`refund: no booking ${JSON.stringify(booking_id)} in this handler's store.`);
    const { booking } = state;
    const provider = kit.providers.of(booking);
    if (!provider.refund || !provider.capabilities.refund) {
      throw new TypeError(`refund: ${provider.name} has no refund API; refund booking ${booking_id} from the provider's merchant portal (the kit sees it in a status).`);
    }
    if (amount !== undefined && (typeof amount !== 'number' || !(toPaise(amount) > 0) || toPaise(amount) > toPaise(booking.amount))) {
      throw new RangeError(`refund: amount must be a positive number of rupees up to the booked ${booking.amount}; got ${String(amount)}.`);
    }
    try {
      await provider.refund(booking, amount);
    } catch (error) {
      // The provider's own words, with the fix where the adapter knows one (a new account's limit).
      throw error instanceof ServiceError ? (provider.explain?.(error) ?? error) : error;
    }
    const after = await provider.status(booking);
    if (isFinalStatus(after.status)) {
      await delivery
        .deliver({ source: 'refund', status: after.status, correlation_id: booking.correlation_id, reference_code: after.reference_code, ...bookingFacts(booking) })
        .catch((error: unknown) => {
          if (!(error instanceof ResultBusy) && !(error instanceof ImpossibleTransition)) throw error;
        });
    }
    return { status: after.status, amount: amount ?? booking.amount };
  };
}
