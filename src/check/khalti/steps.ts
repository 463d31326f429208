/**
 * The steps of the checker's Khalti clauses (a backend started in its Khalti mode, its KHALTI_BASE_URL
 * the sandbox, its secret key the sandbox's access key): a Khalti booking and the payment the sandbox
 * holds for it, the pay page opened and paid (or cancelled) with Khalti's test login, and return
 * addresses made as Khalti makes them. Khalti signs nothing, so the checker can forge any return.
 */
import type { KhaltiPayment } from '../../sandbox/khalti/index.js';
import { describe, printable } from '../exchange.js';
import { fail, type Steps } from '../steps.js';

/** A Khalti booking the proxy made: its ids, order, page and the payment the sandbox initiated. */
export interface KhaltiBooking {
  booking_id: string;
  correlation_id: string;
  order: Record<string, unknown>;
  paymentUrl: string;
  payment: KhaltiPayment;
}

const TIMEOUT_MS = 10_000;
/** Khalti's published test login (a Khalti ID of 9800000000 to 9800000005). */
const TEST_LOGIN = { khalti_id: '9800000000', mpin: '1111', otp: '987654' } as const;
const PAY_PATH = '/khalti/pay/';
const HINT = 'is the backend in its Khalti mode (PROVIDER=khalti), KHALTI_BASE_URL set to the sandbox and KHALTI_SECRET_KEY its access key?';

/** The merchant's amount in paisa (Khalti's unit), exactly. */
export const paisaOf = (amount: number): number => Math.round(amount * 100);

/** The sandbox's record of a Khalti payment, or undefined when it initiated none of that pidx. */
export async function khaltiPayment(s: Steps, pidx: string): Promise<KhaltiPayment | undefined> {
  const response = await fetch(`${s.sandbox.baseUrl}/sandbox/khalti/payments/${encodeURIComponent(pidx)}`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) throw new Error(`the sandbox did not show Khalti payment ${pidx} (HTTP ${response.status}).`);
  return (await response.json()) as KhaltiPayment;
}

/**
 * Books `channel` for a fresh order: a pidx the sandbox initiated (so with `Authorization: Key <secret>`)
 * and Khalti's page. With `strict` (the `khalti-book` clause), the page must be opened by GET, the
 * amount the merchant's in paisa and the return on the proxy's own origin; other clauses judge only their own rule.
 */
export async function khaltiBooking(s: Steps, channel: 'web' | 'app' = 'web', strict = false): Promise<KhaltiBooking> {
  const order = s.order();
  const exchange = await s.book(channel, order, s.key());
  if (exchange.status >= 500) fail(`a Khalti booking failed: Khalti's initiate answers 401 without "Authorization: Key <secret key>"; ${HINT}; ${describe(exchange)}`);
  const ids = s.booked(exchange, `a Khalti booking of channel "${channel}"`);
  const payment = ids.data.web_payment as { url?: unknown; method?: unknown } | undefined;
  if (ids.data.channel !== 'web' || ids.data.wallet !== 'khalti') fail(`a Khalti booking answers channel "web" and wallet "khalti" (a wallet paid on the web only): ${HINT}; ${describe(exchange)}`);
  const pageUrl = `${s.sandbox.baseUrl}${PAY_PATH}?pidx=${encodeURIComponent(ids.booking_id)}`;
  if (payment?.url !== pageUrl || (strict && payment.method !== 'GET')) {
    fail(`data.web_payment must be Khalti's payment_url, opened by GET (here ${pageUrl}, its pidx the booking_id); ${HINT}; ${describe(exchange)}`);
  }
  const record = await khaltiPayment(s, ids.booking_id);
  if (!record) fail(`the booking_id ${printable(ids.booking_id)} is no pidx Khalti initiated; ${describe(exchange)}`);
  if (strict && record!.amount !== paisaOf(s.options.amount)) {
    fail(`Khalti was asked for ${record!.amount} paisa, not the merchant's ${s.options.amount} rupees (${paisaOf(s.options.amount)} paisa): amounts go to Khalti in paisa, exactly`);
  }
  if (strict && !s.callbackAllowed(record!.return_url)) fail(`the return_url ${printable(record!.return_url)} is not on --endpoint's origin (PUBLIC_URL must be the proxy's own)`);
  return { booking_id: ids.booking_id, correlation_id: ids.correlation_id, order, paymentUrl: pageUrl, payment: record! };
}

/** Opens the booking's page as the browser does (GET); fails the clause unless Khalti shows it. */
export async function openPage(s: Steps, booking: KhaltiBooking): Promise<void> {
  const response = await fetch(booking.paymentUrl, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const page = await response.text();
  if (response.status !== 200) fail(`Khalti's page of ${booking.booking_id} did not open by GET (HTTP ${response.status}): ${printable(page.slice(0, 200))}`);
}

/** Pays (or cancels) on the sandbox's pay page with Khalti's test login, in a `KHALTI-…` scenario; returns where Khalti sends the shopper. */
export async function payKhalti(s: Steps, booking: KhaltiBooking, scenario: string, action: 'pay' | 'cancel' = 'pay'): Promise<string> {
  if (!s.driven.includes(scenario)) s.driven.push(scenario);
  const response = await fetch(`${s.sandbox.baseUrl}${PAY_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ pidx: booking.booking_id, ...TEST_LOGIN, scenario: action === 'pay' ? scenario : '', action }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location) throw new Error(`paying ${booking.booking_id} on the sandbox's Khalti page (${scenario}, ${action}) sent no redirect (HTTP ${response.status}).`);
  return location;
}

/** A return to `return_url` as Khalti writes it (its query unsigned), with `params` over the booking's own. */
export function khaltiReturn(booking: KhaltiBooking, params: Record<string, string>): string {
  const amount = String(booking.payment.amount);
  const query = new URLSearchParams({
    pidx: booking.booking_id,
    txnId: 'CHKForgedTxn0000000001',
    amount,
    total_amount: amount,
    status: 'Completed',
    mobile: '98XXXXX000',
    tidx: 'CHKForgedTxn0000000001',
    purchase_order_id: booking.payment.purchase_order_id,
    purchase_order_name: booking.payment.purchase_order_name,
    transaction_id: 'CHKForgedTxn0000000001',
    ...params,
  });
  const url = new URL(booking.payment.return_url);
  url.search = url.search ? `${url.search}&${query}` : `?${query}`;
  return url.href;
}
