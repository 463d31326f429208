/**
 * The checker's clauses for a backend in its Khalti mode (`provider: 'khalti'`): Khalti KPG-2 signs
 * nothing, neither the return's query nor anything else, so the return is a hint and only the lookup,
 * made with the secret key, decides; a lookup answering HTTP 400 with `Expired` or `User canceled` is
 * the cancellation it reports, not an error.
 */
import { codeOf, dataOf, describe } from '../exchange.js';
import { khaltiBooking, khaltiReturn, openPage, payKhalti } from './steps.js';
import type { ClauseId } from '../clauses.js';
import { fail, orderIsPaid, statusOf, visit, type ClauseBody, type Steps } from '../steps.js';

/** `khalti-book`: web and app bookings initiate at Khalti with the Key header, in paisa, and answer its page to open by GET. */
export async function khaltiBook(s: Steps): Promise<void> {
  for (const channel of ['web', 'app'] as const) await openPage(s, await khaltiBooking(s, channel, true));
}

/** `khalti-return-not-trusted`: a return saying `status=Completed` for a payment Khalti's lookup calls Initiated fulfils nothing. */
export async function khaltiReturnNotTrusted(s: Steps): Promise<void> {
  const booking = await khaltiBooking(s);
  await openPage(s, booking);
  await visit(s, khaltiReturn(booking, { status: 'Completed' }));
  if (await orderIsPaid(s, booking.order)) fail('a return with status=Completed made the order paid while Khalti\'s lookup says Initiated: the return\'s query is unsigned, only the lookup\'s Completed fulfils');
  const status = await statusOf(s, booking);
  if (status !== 'BOOKED') fail(`after a return with status=Completed of an unpaid payment (lookup: Initiated), /status answered ${status}, not BOOKED`);
}

/** `khalti-lookup-400-canceled`: a payment the shopper cancelled (lookup: HTTP 400, `User canceled`) is answered CANCELED, not an error. */
export async function khaltiLookup400(s: Steps): Promise<void> {
  const booking = await khaltiBooking(s);
  const back = await payKhalti(s, booking, 'KHALTI-005');
  const page = await visit(s, back);
  if (page >= 500) fail(`the return of a cancelled payment (lookup: HTTP 400, "User canceled") was answered HTTP ${page}: a 400 lookup is an answer, the cancellation`);
  const exchange = await s.post('status', booking);
  if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201' || dataOf(exchange).status !== 'CANCELED') {
    fail(`Khalti's lookup answers HTTP 400 {"status": "User canceled"}, and /status must answer 200 IP-201 CANCELED (a 400 lookup is a cancellation, not an error); ${describe(exchange)}`);
  }
  if (await orderIsPaid(s, booking.order)) fail('a payment the shopper cancelled at Khalti made the order paid');
}

/** `khalti-forged-return`: forged returns (a pidx never made, another order's id, a cancel of a paid one) change nothing. */
export async function khaltiForgedReturn(s: Steps): Promise<void> {
  const paid = await khaltiBooking(s);
  await visit(s, await payKhalti(s, paid, 'KHALTI-001'));
  if (!(await orderIsPaid(s, paid.order))) fail('after Khalti\'s own return of a Completed payment, the order is not paid (the return page looks the pidx up)');
  const other = await khaltiBooking(s);
  const unknown = await visit(s, khaltiReturn(other, { pidx: `CHK${s.runId}NeverInitiated` }));
  if (unknown < 400 || unknown > 499) fail(`a return naming a pidx the proxy never initiated was answered HTTP ${unknown}, not refused with a 4xx`);
  await visit(s, khaltiReturn(paid, { purchase_order_id: other.payment.purchase_order_id, purchase_order_name: other.payment.purchase_order_name }));
  if (await orderIsPaid(s, other.order)) fail('a return naming a paid pidx and another order\'s purchase_order_id made that other order paid: fulfil the booking the pidx names, never the order the query names');
  await visit(s, khaltiReturn(paid, { status: 'User canceled', transaction_id: '', tidx: '', txnId: '', mobile: '' }));
  if (!(await orderIsPaid(s, paid.order))) fail('a forged return with status=User canceled unpaid an order Khalti\'s lookup calls Completed');
  const status = await statusOf(s, paid);
  if (status !== 'SUCCESS') fail(`after a forged "User canceled" return of a Completed payment, /status answered ${status}, not SUCCESS`);
}

/** Each Khalti clause's body, by its id (src/check/khalti/clause-list.ts declares them). */
export const KHALTI_BODIES = {
  'khalti-book': khaltiBook,
  'khalti-return-not-trusted': khaltiReturnNotTrusted,
  'khalti-lookup-400-canceled': khaltiLookup400,
  'khalti-forged-return': khaltiForgedReturn,
} satisfies Partial<Record<ClauseId, ClauseBody>>;
