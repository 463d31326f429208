/**
 * The checker's clauses for a backend in its ePay v2 mode (`provider: 'epay'`): eSewa sends no server
 * callback, only the signed `data` of the shopper's success redirect, so the return is read from its
 * raw text, verified, and taken as a hint; the status check decides, and only its COMPLETE fulfils.
 */
import { EPAY_TEST_SECRET } from '../../sandbox/epay/rules.js';
import { epayBooking, payEpay, postForm, signedReturn, writtenAmount } from './steps.js';
import type { ClauseId } from '../clauses.js';
import { fail, orderIsPaid, statusOf, visit, type ClauseBody, type Steps } from '../steps.js';

/** `epay-book`: web and app bookings both answer eSewa's signed eleven-field form, which eSewa takes. */
export async function epayBook(s: Steps): Promise<void> {
  for (const channel of ['web', 'app'] as const) {
    const booking = await epayBooking(s, channel);
    await postForm(s, booking);
  }
}

/** `epay-return-forged-refused`: a return signed with another key, or altered under its signature, is refused and fulfils nothing. */
export async function epayForgedReturn(s: Steps): Promise<void> {
  const booking = await epayBooking(s);
  await postForm(s, booking);
  const amount = writtenAmount(s.options.amount, false);
  const forged = await signedReturn(s, booking, { amount, key: `${EPAY_TEST_SECRET}(` });
  const genuine = await signedReturn(s, booking, { amount, status: 'PENDING' });
  const altered = genuine.replace(/data=(.*)$/, (_, data: string) => `data=${Buffer.from(Buffer.from(data, 'base64').toString('utf8').replace('"PENDING"', '"COMPLETE"')).toString('base64')}`);
  for (const [what, url] of [['signed with another key', forged], ['with its status changed under its signature', altered]] as const) {
    const status = await visit(s, url);
    if (status < 400 || status > 499) fail(`a return ${what} was answered HTTP ${status}, not refused with a 4xx: verify the signature before anything else`);
  }
  if (await orderIsPaid(s, booking.order)) fail('a forged return made the order paid');
}

/** `epay-return-raw-text`: a signed return verifies with total_amount as eSewa writes it, a JSON number 1000.0 or text "2,700.0". */
export async function epayRawText(s: Steps): Promise<void> {
  for (const [what, amount] of [
    ['a JSON number with a trailing zero', writtenAmount(s.options.amount, false)],
    ['text with a thousands comma', JSON.stringify(writtenAmount(s.options.amount, true))],
  ] as const) {
    const booking = await epayBooking(s);
    await payEpay(s, await postForm(s, booking), 'EPAY-001');
    const status = await visit(s, await signedReturn(s, booking, { amount }));
    if (status >= 400) fail(`eSewa's signed return with total_amount ${amount} (${what}) was refused (HTTP ${status}): rebuild the message from the raw text (1000.0 stays 1000.0) and drop "," from total_amount`);
    if (!(await orderIsPaid(s, booking.order))) fail(`after eSewa's signed return with total_amount ${amount} (${what}) of a COMPLETE payment, the order is not paid`);
  }
}

/** `epay-status-decides`: a genuinely signed COMPLETE return of a transaction eSewa has not been paid fulfils nothing. */
export async function epayStatusDecides(s: Steps): Promise<void> {
  const booking = await epayBooking(s);
  await postForm(s, booking);
  await visit(s, await signedReturn(s, booking, { amount: writtenAmount(s.options.amount, false) }));
  if (await orderIsPaid(s, booking.order)) {
    fail('a signed COMPLETE return made the order paid while eSewa\'s status check answers PENDING: the return is a hint, only the status check\'s COMPLETE fulfils');
  }
}

/** `epay-ambiguous-open`: a payment eSewa reports AMBIGUOUS stays open: not fulfilled, /status PENDING. */
export async function epayAmbiguous(s: Steps): Promise<void> {
  const booking = await epayBooking(s);
  const failure = await payEpay(s, await postForm(s, booking), 'EPAY-004');
  await visit(s, failure);
  const status = await statusOf(s, booking);
  if (await orderIsPaid(s, booking.order)) fail('eSewa reports the payment AMBIGUOUS (halted), and the order was fulfilled: only COMPLETE fulfils');
  if (status !== 'PENDING') fail(`eSewa reports AMBIGUOUS, and /status answered ${status}, not PENDING (still open)`);
}

/** `epay-full-refund-reverted`: a paid order that eSewa then refunds in full is reported REVERTED and is unpaid again. */
export async function epayFullRefund(s: Steps): Promise<void> {
  const booking = await epayBooking(s);
  const success = await payEpay(s, await postForm(s, booking), 'EPAY-001');
  await visit(s, success);
  if (!(await orderIsPaid(s, booking.order))) fail('after eSewa\'s own success redirect of a COMPLETE payment, the order is not paid');
  const { product_code: code, transaction_uuid: uuid } = booking.fields;
  const refund = await fetch(`${s.sandbox.baseUrl}/sandbox/epay/transactions/${encodeURIComponent(code!)}/${encodeURIComponent(uuid!)}/refund`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(10_000),
  });
  if (!refund.ok) throw new Error(`the sandbox did not refund ${code}/${uuid} (HTTP ${refund.status}).`);
  const status = await statusOf(s, booking);
  if (status !== 'REVERTED') fail(`eSewa's status check answers FULL_REFUND, and /status answered ${status}, not REVERTED`);
  if (await orderIsPaid(s, booking.order)) fail('eSewa refunded the payment in full (FULL_REFUND), and /order still calls the order paid');
}

/** Each ePay clause's body, by its id (src/check/epay/clause-list.ts declares them). */
export const EPAY_BODIES = {
  'epay-book': epayBook,
  'epay-return-forged-refused': epayForgedReturn,
  'epay-return-raw-text': epayRawText,
  'epay-status-decides': epayStatusDecides,
  'epay-ambiguous-open': epayAmbiguous,
  'epay-full-refund-reverted': epayFullRefund,
} satisfies Partial<Record<ClauseId, ClauseBody>>;
