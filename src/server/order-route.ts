/**
 * `POST /order`: whether an order is paid, for a page that holds no booking of it (a fresh tab after
 * the browser dropped the old one, the shop's link followed again). "Paid" is decided as `/book`
 * decides it (order-paid.ts: one reader of `lookupOrder`, one rule over the kit's delivered
 * payments). A booking of the order still open is asked about at the service, so a payment whose
 * callback has not come yet counts, and its result is delivered; each open booking is asked at most
 * once per {@link STATUS_WINDOW_MS}, however often and however many tabs ask.
 */
import { CODES, isFinalStatus, type OrderReference, type OrderResult } from '../protocol/contract.js';
import { describeValue, isRecord } from '../protocol/values.js';
import { toPaise } from './amounts.js';
import { depthOf, parseObject, Refusal } from './http.js';
import type { Kit } from './context.js';
import { bookingFacts, ImpossibleTransition, ResultBusy, type Delivery } from './delivery-terms.js';
import { MAX_ORDER_DEPTH } from './limits.js';
import { countedOpen, isPaid, paidInRecords, paidPaiseOf, readOrder, type PayableOrder } from './order-paid.js';
import type { ProviderStatus } from './provider.js';
import type { OrderState, StoredBooking } from './store.js';

/** Open bookings of one order asked about per request: one in the normal case (a new book cancels the old). */
const MAX_CHECKED = 3;

/**
 * How long one answer of the service about an open booking serves every `/order` of it: a page polling
 * from many tabs, or a script, costs the service one status call per booking per window.
 */
export const STATUS_WINDOW_MS = 2_000;

/** The order half of the handler. */
export interface OrderRoute {
  answer(request: Request, text: string): Promise<OrderResult>;
}

/** What one check of an open booking learned: its status at the service, its final result delivered. */
type Checked = { status: ProviderStatus['status'] } | { failed: true };

export function createOrderRoute(kit: Kit, delivery: Delivery): OrderRoute {
  /** The one call this route makes to the service. */
  const statusAtService = (booking: StoredBooking): Promise<ProviderStatus> => kit.providers.of(booking).status(booking);
  const checks = createSharedChecks(kit.now, (booking) => check(booking));

  async function answer(request: Request, text: string): Promise<OrderResult> {
    const body = parseObject(text, ['order']);
    if (!isRecord(body.order) || depthOf(body.order, MAX_ORDER_DEPTH) > MAX_ORDER_DEPTH) {
      throw new Refusal(CODES.INVALID_REQUEST, `"order" must be the order object sent to /book, e.g. {"id":"A-1001"}; got ${describeValue(body.order)}.`);
    }
    const read = await readOrder(kit, body.order as OrderReference, request, 'order');
    const found = await paidInRecords(kit, read);
    if (found.paid) {
      // Paid: a booking of it still open (superseded at a provider that cannot cancel, a stale page
      // paid anyway) is asked too, so a second payment is delivered, as the duplicate it is, at once.
      await Promise.all((found.state?.open ?? []).slice(-MAX_CHECKED).map((booking) => checks.of(booking)));
      return { paid: true, status: 'SUCCESS' };
    }
    return ask(found.state.open.slice(-MAX_CHECKED).reverse(), found.order, found.state);
  }

  /**
   * Asks the service about the order's open bookings, newest first, delivering each final status: paid
   * when the ones found paid, with what the records count, cover what the order owes; else the newest
   * one's status while it is open. A service that cannot be asked leaves the answer to the records.
   */
  async function ask(open: StoredBooking[], order: PayableOrder, state: OrderState): Promise<OrderResult> {
    let waiting: OrderResult['status'];
    let paid = paidPaiseOf(state);
    const counted = countedOpen(state);
    for (const booking of open) {
      const checked = await checks.of(booking);
      if ('failed' in checked) continue;
      if (!isFinalStatus(checked.status)) {
        waiting ??= checked.status;
        continue;
      }
      if (checked.status === 'SUCCESS') {
        // An open booking whose SUCCESS is being delivered is counted by the records already.
        if (!counted.has(booking.booking_id)) paid += toPaise(booking.amount);
        if (isPaid(order, paid)) return { paid: true, status: 'SUCCESS' };
      }
    }
    return waiting === undefined ? { paid: false } : { paid: false, status: waiting };
  }

  /** One check of an open booking: its status at the service, a final one delivered (told to `onError` when that fails). */
  async function check(booking: StoredBooking): Promise<Checked> {
    const { booking_id, correlation_id } = booking;
    let answer: ProviderStatus;
    try {
      answer = await statusAtService(booking);
    } catch (error) {
      kit.report(error, { route: 'order', booking_id, correlation_id });
      return { failed: true };
    }
    if (isFinalStatus(answer.status)) {
      await delivery
        .deliver({ source: 'status', status: answer.status, correlation_id, reference_code: answer.reference_code, ...bookingFacts(booking) })
        .catch((error: unknown) => {
          if (!(error instanceof ResultBusy) && !(error instanceof ImpossibleTransition)) kit.report(error, { route: 'order', booking_id, correlation_id });
        });
    }
    return { status: answer.status };
  }

  return { answer };
}

/**
 * Checks of open bookings shared for {@link STATUS_WINDOW_MS}: a check started within the window is
 * answered to every request that asks about the same booking, running or done. Entries are kept in the
 * order they started, so the expired ones are dropped from the front: the map holds at most the
 * bookings checked within one window.
 */
export function createSharedChecks<T>(now: () => number, run: (booking: StoredBooking) => Promise<T>): { of(booking: StoredBooking): Promise<T> } {
  const started = new Map<string, { at: number; check: Promise<T> }>();
  return {
    of(booking) {
      const time = now();
      for (const [id, entry] of started) {
        if (time - entry.at < STATUS_WINDOW_MS && entry.at <= time) break;
        started.delete(id);
      }
      const entry = started.get(booking.booking_id);
      if (entry) return entry.check;
      const check = run(booking);
      started.set(booking.booking_id, { at: time, check });
      return check;
    },
  };
}
