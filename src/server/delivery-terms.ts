/**
 * What the booking half and the order route need of result delivery, and the facts a result carries:
 * the one place both halves of the handler meet, so neither imports the other.
 */
import type { LeaseHold, StoredBooking } from './store.js';
import type { PaymentResult } from './types.js';

/** How a final result reaches the merchant: what booking needs of the result half, and nothing more. */
export interface Delivery {
  /**
   * Hands a final result to `onPaymentResult` once per booking and status; rejects with
   * {@link ResultBusy} when another instance holds the delivery. With `hold` (a book delivering the
   * result of an old booking of the order it holds), rejects with {@link LeaseLost} once the order was
   * taken over, and claims nothing; a `SUCCESS` is claimed under the order's paid lease all the same.
   */
  deliver(result: PaymentResult, options?: { hold?: LeaseHold }): Promise<void>;
}

/** A result as delivery hands it to `onPaymentResult` (with `overpayment` where it says so). */
export type DeliveredResult = PaymentResult;

/** Another instance holds the claim on this result and is delivering it. */
export class ResultBusy extends Error {
  override name = 'ResultBusy';
}

/** The order's lease was taken over while a book held it (paused, or its renewals failing past the lease's end). */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/** The facts of a stored booking that a result carries. */
export function bookingFacts(
  booking: StoredBooking,
): Pick<PaymentResult, 'booking_id' | 'order' | 'order_id' | 'transaction_uuid' | 'amount' | 'provider'> {
  const facts: Pick<PaymentResult, 'booking_id' | 'order' | 'order_id' | 'transaction_uuid' | 'amount' | 'provider'> = {
    booking_id: booking.booking_id,
    order: booking.order,
    transaction_uuid: booking.transaction_uuid,
    amount: booking.amount,
    // A booking saved before bookings named their provider was the intent service's.
    provider: booking.provider || 'esewa-intent',
  };
  const id = orderIdOf(booking.fingerprint);
  if (id !== undefined) facts.order_id = id;
  return facts;
}

/**
 * The canonical order id a fingerprint carries (see booking.ts: `[channel, order id, ...]`); undefined
 * for a fingerprint written before bookings were keyed by the merchant's id.
 */
function orderIdOf(fingerprint: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(fingerprint);
    if (Array.isArray(parsed) && parsed[0] === 'v2' && typeof parsed[2] === 'string') return parsed[2];
  } catch {
    // An older fingerprint: no id in it.
  }
  return undefined;
}

/** A final status that cannot follow what is known of its booking: told to `onError`, never delivered. */
export class ImpossibleTransition extends Error {
  override name = 'ImpossibleTransition';
}
