/** The checker's clauses on status and cancel, and on the one payable booking per order. */
import { randomUUID } from 'node:crypto';
import { type PaymentStatus } from '../../protocol/contract.js';
import { codeOf, dataOf, describe } from '../exchange.js';
import { fail, type HeldBooking, type Steps } from '../steps.js';
import { freshBooking, pay, paidBooking } from './steps.js';

/** `status-wrong-correlation`, `cancel-wrong-correlation`: ids that do not belong together are IP-404. */
export async function wrongCorrelation(s: Steps, route: 'status' | 'cancel'): Promise<void> {
  const booking = await freshBooking(s);
  s.expectCode(await s.post(route, booking, { correlation_id: randomUUID() }), 404, 'IP-404', `${route} with another correlation id`);
  s.expectCode(await s.post(route, booking, { booking_id: `BK-${randomUUID()}` }), 404, 'IP-404', `${route} with a booking id the proxy never made`);
  const status = s.sandbox.getBooking(booking.booking_id)?.status;
  if (status !== 'BOOKED') fail(`after ${route} with the wrong correlation id the booking is ${status} at the service, not BOOKED`);
}

/** Asks the proxy for the status and fails unless it reads `expected`. */
async function statusIs(s: Steps, booking: HeldBooking, expected: PaymentStatus, when: string): Promise<void> {
  const exchange = await s.post('status', booking);
  if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') fail(`status ${when}: expected 200 IP-201; ${describe(exchange)}`);
  const data = dataOf(exchange);
  if (data.booking_id !== booking.booking_id || data.status !== expected) {
    fail(`status ${when} must read ${expected} for ${booking.booking_id}; ${describe(exchange)}`);
  }
}

/** `status-follows-service`: the status reads what the service says, before and after a payment. */
export async function statusFollowsService(s: Steps): Promise<void> {
  const booking = await freshBooking(s);
  await statusIs(s, booking, 'BOOKED', 'before the payment');
  await pay(s, booking.booking_id);
  await statusIs(s, booking, 'SUCCESS', 'after the payment at the service');
}

/** `cancel-open`: an open booking is cancelled at the service. */
export async function cancelOpen(s: Steps): Promise<void> {
  const booking = await freshBooking(s);
  const exchange = await s.post('cancel', booking);
  s.expectCode(exchange, 200, 'IP-210', 'cancel of an open booking');
  if (dataOf(exchange).status !== 'CANCELED') fail(`data.status must be CANCELED; ${describe(exchange)}`);
  const status = s.sandbox.getBooking(booking.booking_id)?.status;
  if (status !== 'CANCELED') fail(`the booking is ${status} at the service after the cancel; ${describe(exchange)}`);
}

/** `cancel-paid`: a paid booking cannot be cancelled (IP-410). */
export async function cancelPaid(s: Steps): Promise<void> {
  const booking = await freshBooking(s);
  await pay(s, booking.booking_id);
  s.expectCode(await s.post('cancel', booking), 409, 'IP-410', 'cancel of a paid booking');
}

/** `paid-order-refused`: a paid order is not booked again (IP-412). */
export async function paidOrderRefused(s: Steps): Promise<void> {
  const booking = await paidBooking(s, false);
  // The proxy may learn the payment from the callback or from a status check: both have happened.
  await s.post('status', booking);
  const before = s.bookingCount();
  const exchange = await s.book('app', booking.order, s.key());
  s.expectCode(exchange, 409, 'IP-412', 'a new key for an order already paid');
  if (s.bookingCount() !== before) fail(`the paid order was booked again at the service; ${describe(exchange)}`);
}

/** `open-booking-replaced`: a new key while an older booking is open books anew, the older one cancelled. */
export async function openBookingReplaced(s: Steps): Promise<void> {
  const first = await freshBooking(s);
  const exchange = await s.book('app', first.order, s.key());
  if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') {
    fail(`a new key for an order whose older booking ${first.booking_id} is still open must book anew (the older one cancelled first); ${describe(exchange)}`);
  }
  const second = s.booked(exchange, 'the new attempt');
  if (second.booking_id === first.booking_id) fail(`a new key answered the older booking ${first.booking_id}; ${describe(exchange)}`);
  const older = s.sandbox.getBooking(first.booking_id)?.status;
  if (older !== 'CANCELED') {
    fail(`the older booking ${first.booking_id} is still ${older} at the service after a new booking of its order: the shopper could pay both; ${describe(exchange)}`);
  }
}
