/**
 * The checker's clause on what comes back late: a payment of the intent service that lands after the
 * merchant's cancel (the sandbox's WPS-006), told by its signed callback.
 */
import { findScenario } from '../../sandbox/esewa-intent/scenarios.js';
import { codeOf, dataOf, describe, printable } from '../exchange.js';
import { fail, type Steps } from '../steps.js';
import { callbackTarget, freshBooking, pay } from './steps.js';

/** The delivery of a booking's `status` callback once it ended (delivered or given up), or undefined at the time limit. */
async function settledCallback(s: Steps, bookingId: string, status: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const delivery = s.sandbox.callbackDeliveries({ booking_id: bookingId }).find((d) => d.status === status && (d.state === 'delivered' || d.state === 'dead'));
    if (delivery) return delivery;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/**
 * `paid-after-cancel`: the shopper's payment is PENDING, the merchant cancels (IP-210), and the payment
 * lands anyway (WPS-006). The money is the shopper's: the SUCCESS is recorded and the order is paid,
 * where a proxy that ignores anything after CANCELED leaves it unpaid and asks the shopper to pay again.
 */
export async function paidAfterCancel(s: Steps): Promise<string> {
  s.relyOn('order-paid', 'whether the order is paid from /order');
  const scenario = findScenario('WPS-006')!;
  const booking = await freshBooking(s);
  callbackTarget(s, booking.service);
  await pay(s, booking.booking_id, 'WPS-006', 'PENDING');
  const cancelled = await s.post('cancel', booking);
  if (cancelled.status !== 200 || codeOf(cancelled) !== 'IP-210') fail(`cancelling the PENDING booking ${booking.booking_id}: expected 200 IP-210; ${describe(cancelled)}`);
  await s.sandbox.clock.advance(scenario.paidAfterCancelMs! + 1000);
  const landed = s.sandbox.getBooking(booking.booking_id)?.status;
  if (landed !== 'SUCCESS') throw new Error(`the sandbox did not land the payment of ${booking.booking_id} after the cancel (it is ${landed}).`);
  const delivery = await settledCallback(s, booking.booking_id, 'SUCCESS');
  const answered = delivery?.attempts.at(-1);
  const told = answered ? (answered.status ? `answered HTTP ${answered.status}` : `not answered: ${printable(answered.error ?? '')}`) : 'never settled';
  const order = await s.http.send(s.url('order'), { headers: { accept: 'application/json' }, body: { order: booking.order } });
  if (dataOf(order).paid !== true) {
    fail(
      `the booking was cancelled while PENDING, then paid at the service (its signed SUCCESS callback ${told}), and /order still calls the order unpaid: ` +
        `a SUCCESS after a cancel is delivered, never dropped, or the shopper who paid is asked to pay again; ${describe(order)}`,
    );
  }
  return `the SUCCESS after the cancel was delivered (callback ${told})`;
}
