/** The checker's clause on `/order`: a page that lost its booking learns from the proxy whether the order is paid. */
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

/** `order-paid`: unpaid before any payment, paid once its booking is paid at the service. */
export async function orderPaid(s: Steps): Promise<void> {
  await paidIs(s, s.order(), false, 'for an order never booked');
  const booking = await s.paidBooking();
  await paidIs(s, booking.order, true, `after booking ${booking.booking_id} of the order was paid`);
}
