/**
 * `POST /order`: whether an order is paid, for a page that holds no booking of it (a fresh tab after
 * the browser dropped the old one, the shop's link followed again). The answer comes from the kit's
 * own records: a delivered `SUCCESS` of the order not followed by a `REVERTED`, for at least its total
 * now; `lookupOrder` saying `{ paid: true }` is enough too. A booking of the order still open is asked
 * about at the service, so a payment whose callback has not come yet counts, and its result is delivered.
 */
import { CODES, isFinalStatus, type OrderReference, type OrderResult } from '../protocol/contract.js';
import { describeValue, isRecord } from '../protocol/values.js';
import { covers } from './amounts.js';
import { attemptTag } from './attempt.js';
import { depthOf, parseObject, Refusal } from './http.js';
import type { Kit } from './context.js';
import { bookingFacts, ImpossibleTransition, ResultBusy, type Delivery } from './delivery-terms.js';
import { MAX_ORDER_DEPTH } from './limits.js';
import { orderKeyOf } from './order-tag.js';
import type { StoredBooking } from './store.js';

/** Open bookings of one order asked about per request: one in the normal case (a new book cancels the old). */
const MAX_CHECKED = 3;

/** The order half of the handler. */
export interface OrderRoute {
  answer(request: Request, text: string): Promise<OrderResult>;
}

export function createOrderRoute(kit: Kit, delivery: Delivery): OrderRoute {
  async function answer(request: Request, text: string): Promise<OrderResult> {
    const body = parseObject(text, ['order']);
    if (!isRecord(body.order) || depthOf(body.order, MAX_ORDER_DEPTH) > MAX_ORDER_DEPTH) {
      throw new Refusal(CODES.INVALID_REQUEST, `"order" must be the order object sent to /book, e.g. {"id":"A-1001"}; got ${describeValue(body.order)}.`);
    }
    const tag = attemptTag(request);
    const found = await lookup(body.order as OrderReference, request, tag);
    if (found === 'paid') return { paid: true, status: 'SUCCESS' };
    const { paid, open } = await kit.store.getOrderState({ orderKey: await orderKeyOf(found.id) });
    if (paid && covers(paid.amount, found.amount)) return { paid: true, status: 'SUCCESS' };
    return ask(open.slice(-MAX_CHECKED).reverse(), found.amount);
  }

  /** The order's canonical id and total, or `paid` when `lookupOrder` says so. */
  async function lookup(order: OrderReference, request: Request, tag: { attempt?: string }): Promise<{ id: string; amount: number } | 'paid'> {
    const details = await kit.lookup(order, request, 'order');
    if (details === undefined || details === null) throw new Refusal(CODES.UNKNOWN_ORDER, 'This order is unknown or cannot be paid.');
    if (isRecord(details) && details.paid === true) return 'paid';
    const { id, amount } = isRecord(details) ? details : {};
    if ((typeof id === 'string' && id.length > 0) || (typeof id === 'number' && Number.isFinite(id))) {
      if (typeof amount === 'number' && Number.isFinite(amount) && amount > 0) return { id: String(id), amount };
    }
    kit.report(new TypeError(`lookupOrder returned ${describeValue(details)} for /order; return { id, amount }, { paid: true } or undefined.`), { route: 'order', ...tag });
    throw new Refusal(CODES.INTERNAL, 'The server could not look up this order.');
  }

  /**
   * Asks the service about the order's open bookings, newest first, delivering each final status: paid
   * when one is `SUCCESS` for the total; else the newest one's status while it is open. A service that
   * cannot be asked leaves the answer to the records (told to `onError`): a book still asks it first.
   */
  async function ask(open: StoredBooking[], total: number): Promise<OrderResult> {
    let waiting: OrderResult['status'];
    for (const booking of open) {
      const { booking_id, correlation_id } = booking;
      let answer;
      try {
        answer = await kit.client.status({ booking_id, correlation_id });
      } catch (error) {
        kit.report(error, { route: 'order', booking_id, correlation_id });
        continue;
      }
      if (!isFinalStatus(answer.status)) {
        waiting ??= answer.status;
        continue;
      }
      await delivery
        .deliver({ source: 'status', status: answer.status, correlation_id, reference_code: answer.reference_code, ...bookingFacts(booking) })
        .catch((error: unknown) => {
          if (!(error instanceof ResultBusy) && !(error instanceof ImpossibleTransition)) kit.report(error, { route: 'order', booking_id, correlation_id });
        });
      if (answer.status === 'SUCCESS' && covers(booking.amount, total)) return { paid: true, status: 'SUCCESS' };
    }
    return waiting === undefined ? { paid: false } : { paid: false, status: waiting };
  }

  return { answer };
}
