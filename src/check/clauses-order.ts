/**
 * The checker's clause on `/order`: a page that lost its booking learns from the proxy whether the order
 * is paid, by the kit's one rule of "paid" (src/server/order-paid.ts), and `/book` says the same: an
 * order `/order` calls paid is refused `IP-412` to a new key, so a fresh tab never offers a pay button
 * for an order the book refuses.
 */
import { toPaise } from '../server/amounts.js';
import { isPaid } from '../server/order-paid.js';
import { codeOf, dataOf, describe } from './exchange.js';
import { fail, type Steps } from './steps.js';

/** Asks the proxy whether `order` is paid; fails unless it answers 200 IP-201 with `paid` as expected. */
async function paidIs(s: Steps, order: Record<string, unknown>, expected: boolean, when: string): Promise<void> {
  const exchange = await s.http.send(s.url('order'), { headers: { accept: 'application/json' }, body: { order } });
  if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') fail(`/order ${when}: expected 200 IP-201; ${describe(exchange)}`);
  const { paid, status } = dataOf(exchange);
  if (paid !== expected) fail(`/order ${when} must answer data.paid ${expected}; ${describe(exchange)}`);
  if (expected && status !== 'SUCCESS') fail(`/order of a paid order must answer data.status "SUCCESS"; ${describe(exchange)}`);
}

/**
 * `order-paid`: unpaid before any payment; once its booking is paid at the service, paid by the one
 * rule (the payments the service records against the total the proxy booked), and `/book` agrees.
 */
export async function orderPaid(s: Steps): Promise<void> {
  await paidIs(s, s.order(), false, 'for an order never booked');
  const booking = await s.paidBooking();
  // The proxy booked the order's whole total; the service holds its one payment.
  const total = booking.service.amount;
  const expected = isPaid({ id: String((booking.order as { id?: unknown }).id), amount: total }, booking.service.status === 'SUCCESS' ? toPaise(booking.service.amount) : 0);
  await paidIs(s, booking.order as Record<string, unknown>, expected, `after booking ${booking.booking_id} of the order was paid`);
  if (!expected) return;
  // The IP-412 below is judged by its own clause; here it is only the agreement of the two routes.
  s.relyOn('paid-order-refused', 'a paid order from the IP-412 of a new key');
  const again = await s.book('app', booking.order, s.key());
  if (codeOf(again) !== 'IP-412') {
    fail(`/order calls the order paid, so /book must refuse a new key for it with IP-412 (one meaning of paid on every route); ${describe(again)}`);
  }
}
