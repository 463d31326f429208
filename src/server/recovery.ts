/**
 * A booking the store lost, taken back: when the browser presents the order a lost booking's tag
 * proves, the kit asks `lookupOrder` for the order's canonical id and saves the booking again, so its
 * result carries the order and its id, the order's next book sees it (open or paid), and `reconcile()`
 * checks it even when the shopper never comes back.
 */
import type { OrderReference } from '../protocol/contract.js';
import { describeValue, isRecord } from '../protocol/values.js';
import type { Kit } from './context.js';
import { bookingFacts } from './delivery-terms.js';
import { orderKeyOf } from './order-tag.js';
import type { ServiceStatus } from './service-client.js';
import type { StoredBooking } from './store.js';
import type { PaymentResult } from './types.js';

/**
 * The key an adopted booking is saved under: `/` is outside the Idempotency-Key alphabet, so no browser
 * can replay it.
 */
const ADOPTED_PREFIX = 'lost/';

/**
 * Saves a lost booking the presented `order` proved, and answers the facts its results carry. A lookup
 * that fails, or does not answer a payable order (paid, unknown), leaves the booking unsaved: its result
 * still carries the proven order.
 */
export async function adoptLostBooking(
  kit: Kit,
  lost: ServiceStatus,
  proven: { order: OrderReference; amount: number },
  request: Request,
): Promise<Partial<PaymentResult>> {
  const plain: Partial<PaymentResult> = { booking_id: lost.booking_id, transaction_uuid: lost.transaction_id, ...proven };
  let id: string;
  try {
    const details: unknown = await kit.lookup(proven.order, request);
    if (!isRecord(details) || details.paid === true) return plain;
    if (!((typeof details.id === 'string' && details.id.length > 0) || (typeof details.id === 'number' && Number.isFinite(details.id)))) {
      kit.report(new TypeError(`lookupOrder returned the order id ${describeValue(details.id)} for a recovered booking; return the order's own id.`), { route: 'status' });
      return plain;
    }
    id = String(details.id);
  } catch (error) {
    kit.report(error, { route: 'status' });
    return plain;
  }
  const booking: StoredBooking = {
    booking_id: lost.booking_id,
    correlation_id: lost.correlation_id,
    transaction_uuid: lost.transaction_id,
    idempotency_key: `${ADOPTED_PREFIX}${lost.transaction_id}`,
    // The channel is not known again; no request can name this key, so the fingerprint is never compared.
    fingerprint: JSON.stringify(['v2', 'app', id, 'adopted']),
    channel: 'app',
    order: proven.order,
    order_key: await orderKeyOf(id),
    amount: proven.amount,
    deeplink: '',
    created_at: kit.now(),
  };
  // Saved once: a concurrent adoption of the same booking finds the key taken, which is as good.
  await kit.store.insertBooking({ booking });
  return bookingFacts(booking);
}
