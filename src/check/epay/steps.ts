/**
 * The steps of the checker's ePay v2 clauses (a backend started in its ePay mode, pointed at the
 * sandbox's eSewa paths): an ePay booking and its eleven form fields, the form posted and paid on the
 * sandbox's login page, the return eSewa sends the shopper to (the sandbox's own or one the checker
 * signs), and what the proxy then says of the order. Return pages are HTML and redirects, so they are
 * fetched apart from the recorder, whose JSON answers the transport clauses judge.
 */
import { signMessage, verifyMessage } from '../../protocol/signature.js';
import { EPAY_FORM_FIELDS, EPAY_FORM_PATH, EPAY_REQUEST_SIGNED_FIELDS, EPAY_RESPONSE_SIGNED_FIELDS, EPAY_SESSION_PREFIX, EPAY_TEST_LOGIN, epayKeyFor } from '../../sandbox/epay/rules.js';
import { describe, printable } from '../exchange.js';
import { fail, type Steps } from '../steps.js';

/** An ePay booking the proxy made: its ids, order and the form fields it answered. */
export interface EpayBooking {
  booking_id: string;
  correlation_id: string;
  order: Record<string, unknown>;
  fields: Record<string, string>;
}

const TIMEOUT_MS = 10_000;

/** Rupees as eSewa's return may write them: one decimal at least and a trailing zero (1000.0, 1250.50), a thousands comma with `comma`. */
export function writtenAmount(amount: number, comma: boolean): string {
  const [whole = '0', fraction = ''] = String(amount).split('.');
  const digits = comma ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  return `${digits}.${fraction === '' ? '0' : fraction.padEnd(2, '0')}`;
}

/** Books `channel` for a fresh order and checks the answer is an ePay form eSewa would take. */
export async function epayBooking(s: Steps, channel: 'web' | 'app' = 'web'): Promise<EpayBooking> {
  const order = s.order();
  const exchange = await s.book(channel, order, s.key());
  const ids = s.booked(exchange, `an ePay booking of channel "${channel}"`);
  const { data } = ids;
  const payment = data.web_payment as { url?: unknown; method?: unknown; fields?: unknown } | undefined;
  if (data.channel !== 'web' || data.wallet !== 'esewa') fail(`an ePay booking answers channel "web" and wallet "esewa" (a wallet paid on the web only): is the backend in its ePay mode, EPAY_FORM_URL set to the sandbox?; ${describe(exchange)}`);
  const formUrl = `${s.sandbox.baseUrl}${EPAY_FORM_PATH}`;
  if (payment?.url !== formUrl || payment.method !== 'POST') fail(`data.web_payment must POST to eSewa's form, here ${formUrl} (EPAY_FORM_URL set to the sandbox); ${describe(exchange)}`);
  const fields = (payment!.fields ?? {}) as Record<string, unknown>;
  const names = Object.keys(fields).sort();
  if (names.join() !== [...EPAY_FORM_FIELDS].sort().join() || !Object.values(fields).every((v) => typeof v === 'string' && v !== '')) {
    fail(`web_payment.fields must be eSewa's eleven fields, all non-empty text (${EPAY_FORM_FIELDS.join(', ')}); ${describe(exchange)}`);
  }
  const form = fields as Record<string, string>;
  const paisa = (name: string) => Math.round(Number(form[name]) * 100);
  const sum = ['amount', 'tax_amount', 'product_service_charge', 'product_delivery_charge'].reduce((total, name) => total + paisa(name), 0);
  if (paisa('total_amount') !== sum || paisa('total_amount') !== Math.round(s.options.amount * 100)) {
    fail(`total_amount must be the sum of amount, tax and charges, and the merchant's ${s.options.amount}; ${describe(exchange)}`);
  }
  if (form['transaction_uuid'] !== ids.booking_id) fail(`transaction_uuid must be the booking_id the proxy answers; ${describe(exchange)}`);
  const key = keyOf(s, form['product_code']!);
  const message = EPAY_REQUEST_SIGNED_FIELDS.split(',').map((name) => `${name}=${form[name]}`).join(',');
  if (form['signed_field_names'] !== EPAY_REQUEST_SIGNED_FIELDS || !(await verifyMessage(message, form['signature']!, key))) {
    fail(`the form must be signed over ${EPAY_REQUEST_SIGNED_FIELDS} (HMAC-SHA256 of "${message}", base64); ${describe(exchange)}`);
  }
  return { booking_id: ids.booking_id, correlation_id: ids.correlation_id, order, fields: form };
}

/** The secret of a product code as the sandbox knows it (eSewa's published one for EPAYTEST). */
function keyOf(s: Steps, productCode: string): string {
  const key = epayKeyFor(productCode, s.sandbox);
  if (key === undefined) fail(`the form's product_code ${printable(productCode)} is unknown to eSewa's test service: use EPAYTEST and its published secret`);
  return key!;
}

/** Posts the booking's form to eSewa's form URL as the browser does; returns the login page's session id. */
export async function postForm(s: Steps, booking: EpayBooking): Promise<string> {
  const response = await fetch(`${s.sandbox.baseUrl}${EPAY_FORM_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(booking.fields).toString(),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const page = await response.text();
  const session = new RegExp(`${EPAY_SESSION_PREFIX}([^/"]+)/pay`).exec(page);
  if (response.status !== 200 || !session) fail(`eSewa's form refused the proxy's fields (HTTP ${response.status}): ${printable(page.slice(0, 300))}`);
  return decodeURIComponent(session![1]!);
}

/** Pays the session on the login page with eSewa's test login, in an ePay scenario; returns where eSewa sends the shopper. */
export async function payEpay(s: Steps, sessionId: string, scenario: string): Promise<string> {
  if (!s.driven.includes(scenario)) s.driven.push(scenario);
  const response = await fetch(`${s.sandbox.baseUrl}${EPAY_SESSION_PREFIX}${encodeURIComponent(sessionId)}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ esewa_id: EPAY_TEST_LOGIN.ids[0], password: EPAY_TEST_LOGIN.password, token: EPAY_TEST_LOGIN.token, scenario }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location) throw new Error(`paying session ${sessionId} on the sandbox's page (${scenario}) sent no redirect (HTTP ${response.status}).`);
  return location;
}

/** A return eSewa's way: `data` signed over its fields with the booking's secret (or `key`), `total_amount` written `amount` (a JSON literal). */
export async function signedReturn(s: Steps, booking: EpayBooking, options: { amount: string; status?: string; key?: string }): Promise<string> {
  const productCode = booking.fields['product_code']!;
  const values = { transaction_code: '000CHK1', status: options.status ?? 'COMPLETE', total_amount: options.amount, transaction_uuid: booking.booking_id, product_code: productCode };
  const plain = options.amount.replace(/[",]/g, '');
  const message = `transaction_code=${values.transaction_code},status=${values.status},total_amount=${plain},transaction_uuid=${values.transaction_uuid},product_code=${productCode},signed_field_names=${EPAY_RESPONSE_SIGNED_FIELDS}`;
  const signature = await signMessage(message, options.key ?? keyOf(s, productCode));
  const j = JSON.stringify;
  const json = `{"transaction_code":${j(values.transaction_code)},"status":${j(values.status)},"total_amount":${options.amount},"transaction_uuid":${j(values.transaction_uuid)},"product_code":${j(productCode)},"signed_field_names":${j(EPAY_RESPONSE_SIGNED_FIELDS)},"signature":${j(signature)}}`;
  // eSewa glues ?data= onto success_url and does not percent-encode the base64.
  return `${booking.fields['success_url']}?data=${Buffer.from(json, 'utf8').toString('base64')}`;
}
