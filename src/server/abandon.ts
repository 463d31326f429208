/**
 * Bookings the shopper left without paying: `reconcile()` cancels at the service a booking still
 * open past the service's expiry, so a stale app screen cannot pay it later, and delivers the
 * outcome. The element's own `/cancel` (the shopper came back without paying) is the route in
 * result-routes.ts.
 */
import { ALREADY_PROCESSED, isFinalStatus, type PaymentStatus } from '../protocol/contract.js';
import { bookingFacts, type Delivery } from './delivery-terms.js';
import { ServiceError, type ServiceClient } from './service-client.js';
import type { StoredBooking } from './store.js';

/**
 * The default of `ReconcileOptions.cancelAfterMs`: the sandbox's expiry of an unpaid booking (its
 * `bookingTtlMs`, 15 minutes). The spec shows no expiry; a service that keeps bookings longer gets
 * them cancelled here.
 */
export const DEFAULT_CANCEL_AFTER_MS = 15 * 60 * 1000;

/**
 * Cancels an open booking at the service and delivers its final status (source `cancel`). One the
 * service says is already processed (paid, failed or expired meanwhile) is asked about instead, and
 * what it says is delivered (source `reconcile`). Answers the booking's status at the service now.
 */
export async function cancelAtService(client: ServiceClient, booking: StoredBooking, delivery: Delivery): Promise<PaymentStatus> {
  const { booking_id, correlation_id } = booking;
  try {
    const { status } = await client.cancel({ booking_id });
    if (isFinalStatus(status)) await delivery.deliver({ source: 'cancel', status, correlation_id, ...bookingFacts(booking) });
    return status;
  } catch (error) {
    if (!(error instanceof ServiceError && error.kind === 'rejected' && error.code === ALREADY_PROCESSED)) throw error;
  }
  const { status, reference_code } = await client.status({ booking_id, correlation_id });
  if (isFinalStatus(status)) await delivery.deliver({ source: 'reconcile', status, correlation_id, reference_code, ...bookingFacts(booking) });
  return status;
}
