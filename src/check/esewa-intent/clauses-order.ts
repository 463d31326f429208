/**
 * The checker's clauses on `/order`: a page that lost its booking learns from the proxy whether the order
 * is paid, by the kit's one rule of "paid" (src/server/order-paid.ts), and `/book` says the same: an
 * order `/order` calls paid is refused `IP-412` to a new key, so a fresh tab never offers a pay button
 * for an order the book refuses. And the shopper is often back before the callback: `/order` then asks
 * the service about the order's open booking instead of answering from records that do not know yet.
 */
import { toPaise } from '../../server/amounts.js';
import { isPaid } from '../../server/order-paid.js';
import { codeOf, dataOf, describe, type Exchange } from '../exchange.js';
import { fail, type Steps } from '../steps.js';
import { freshBooking, intentRecord, pay, paidBooking } from './steps.js';

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
  const booking = await paidBooking(s);
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

/** How soon `/order` must call an order paid once the service holds its SUCCESS, with no callback yet. */
export const PAID_BEFORE_CALLBACK_MS = 5_000;

/**
 * `order-paid-before-callback`: paid at the service with the callback held back (WPS-007, and the
 * checker's own hold), as when the shopper is back, in another browser, before the callback comes (or
 * ePay v2, which sends none). `/order` is asked first, as a fresh tab asks: it must answer paid within
 * seconds, having asked the service about the order's open booking; then `/status` answers SUCCESS.
 */
export async function orderPaidBeforeCallback(s: Steps): Promise<string> {
  s.relyOn('order-paid', 'whether the order is paid from /order');
  const booking = await freshBooking(s);
  intentRecord(s).dropped.add(booking.booking_id);
  await pay(s, booking.booking_id, 'WPS-007');
  const order = booking.order as Record<string, unknown>;
  const started = Date.now();
  let answer: Exchange;
  for (;;) {
    answer = await s.http.send(s.url('order'), { headers: { accept: 'application/json' }, body: { order } });
    if (answer.status === 200 && dataOf(answer).paid === true) break;
    if (Date.now() - started >= PAID_BEFORE_CALLBACK_MS) {
      fail(
        `booking ${booking.booking_id} is SUCCESS at the service, its callback not come, and /order still does not answer paid after ${PAID_BEFORE_CALLBACK_MS / 1000} s: ` +
          'while a booking of the order is open, ask the service (at most once per booking per few seconds) and record its SUCCESS; ' +
          `the shopper is often back before the callback, and ePay v2 sends none; ${describe(answer)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (dataOf(answer).status !== 'SUCCESS') fail(`/order of a paid order must answer data.status "SUCCESS"; ${describe(answer)}`);
  const status = await s.post('status', booking);
  if (status.status !== 200 || dataOf(status).status !== 'SUCCESS') {
    fail(`/order calls the order paid, and /status of its booking ${booking.booking_id} must answer data.status "SUCCESS" (the service's); ${describe(status)}`);
  }
  return `paid on /order after ${Date.now() - started} ms, with no callback`;
}
