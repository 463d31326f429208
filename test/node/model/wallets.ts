/**
 * The wallet as a dimension of the generated interleavings: a book names its wallet and channel
 * (eSewa's app through the intent service, eSewa's web checkout through ePay v2, Khalti's web page),
 * and the truth the invariants judge is each booking's record at its own provider on the sandbox:
 * the intent service's booking, the ePay ledger's transaction, Khalti's payment. Neither web checkout
 * cancels, so a booking a switch left stays payable there until it expires; the shopper pays it
 * through the provider's own page, as a stale tab would.
 */
import type { Sandbox } from '../../../src/sandbox/index.js';
import { esewaEpay, khalti } from '../../../src/server/providers.js';
import type { PaymentProvider } from '../../../src/server/provider.js';
import { LOGIN, actionsOf, postForm } from '../sandbox/epay/support.js';
import { onPage } from '../providers/khalti/harness.js';
import type { ServiceBooking } from './invariants.js';

/** eSewa's published test merchant (providers.md): the sandbox's ePay takes it. */
export const EPAY_PRODUCT = 'EPAYTEST';
const EPAY_SECRET = '8gBm/:&EnhH.1/q';
/** The shop's own site, as Khalti asks for it with every payment. */
const WEBSITE_URL = 'http://shop.test/';
/** Every request to the sandbox's pages and controls fails after this long. */
const LIMIT_MS = 5_000;

/** Where a book goes: the wallet named in its body, and the channel that picks the provider. */
export type Via = 'esewa-app' | 'esewa-web' | 'khalti';
export const VIAS: readonly Via[] = ['esewa-app', 'esewa-web', 'khalti'];

/** The book body's `channel` and `wallet` for `via`. */
export function bookBody(via: Via): { channel: 'app' | 'web'; wallet: 'esewa' | 'khalti' } {
  if (via === 'esewa-app') return { channel: 'app', wallet: 'esewa' };
  return { channel: 'web', wallet: via === 'esewa-web' ? 'esewa' : 'khalti' };
}

/** The web checkouts of the shop on the sandbox, each calling out through `fetch` (the instance's gate) within `timeoutMs`. */
export function webProviders(sandbox: Sandbox, doFetch: typeof fetch, timeoutMs: number): PaymentProvider[] {
  return [
    esewaEpay({ productCode: EPAY_PRODUCT, secretKey: EPAY_SECRET, baseUrl: sandbox.baseUrl, timeoutMs, fetch: doFetch }),
    khalti({ secretKey: sandbox.accessKey, websiteUrl: WEBSITE_URL, baseUrl: sandbox.baseUrl, timeoutMs, fetch: doFetch }),
  ];
}

/** A booking a web checkout made for the order, as the instance's provider answered it. */
export interface WebBooking {
  booking_id: string;
  correlation_id: string;
  amount: number;
  wallet: string;
  provider: string;
}

/** A booking handed to a tab: its ids, its wallet and what the element opens to pay it. */
export interface Held {
  booking_id: string;
  correlation_id: string;
  wallet: string;
  /** `esewa-intent`, `esewa-epay` or `khalti`. */
  provider: string;
  web_payment?: { url: string; method: string; fields?: Record<string, string> };
}

async function control(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(LIMIT_MS) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const EPAY_STATUS: Record<string, string> = {
  PENDING: 'PENDING',
  AMBIGUOUS: 'PENDING',
  COMPLETE: 'SUCCESS',
  PARTIAL_REFUND: 'SUCCESS',
  FULL_REFUND: 'REVERTED',
  CANCELED: 'CANCELED',
  // The ledger's expired session: closed, its form refused from now on (the intent service's expiry is CANCELED too).
  NOT_FOUND: 'CANCELED',
};

const KHALTI_STATUS: Record<string, string> = {
  Initiated: 'BOOKED',
  Pending: 'PENDING',
  Completed: 'SUCCESS',
  'Partially Refunded': 'SUCCESS',
  Refunded: 'REVERTED',
  Expired: 'CANCELED',
  'User canceled': 'CANCELED',
};

/**
 * A web booking's record at its provider, in the intent service's words: ePay's form not posted yet is
 * `BOOKED` (a shopper can still post it: eSewa keeps no record before), an unknown Khalti payment fails.
 */
export async function readWebBooking(sandbox: Sandbox, made: WebBooking): Promise<ServiceBooking> {
  const base = { booking_id: made.booking_id, correlation_id: made.correlation_id, amount: made.amount, wallet: `${made.wallet} (${made.provider})` };
  if (made.provider === 'esewa-epay') {
    const { body } = await control(`${sandbox.baseUrl}/sandbox/epay/transactions/${EPAY_PRODUCT}/${encodeURIComponent(made.booking_id)}`);
    const data = body.data as { status?: string; total_amount?: string } | undefined;
    if (!data?.status) return { ...base, status: 'BOOKED' };
    return { ...base, status: EPAY_STATUS[data.status] ?? `unknown ePay status ${data.status}`, amount: Number(data.total_amount ?? made.amount) };
  }
  const { status, body } = await control(`${sandbox.baseUrl}/sandbox/khalti/payments/${encodeURIComponent(made.booking_id)}`);
  if (status !== 200) throw new Error(`the sandbox knows no Khalti payment ${made.booking_id}: ${JSON.stringify(body)}`);
  const state = String(body.status);
  return { ...base, status: KHALTI_STATUS[state] ?? 'FAILED', amount: Number(body.amount) / 100 };
}

/**
 * The shopper at a web checkout's page: pays (or fails, or cancels) with the published test login;
 * `undefined` when the page took it, else what it answered (a closed session, say: not a break).
 */
export async function atWebPage(held: Held, sandbox: Sandbox, action: 'pay' | 'fail' | 'cancel'): Promise<string | undefined> {
  const web = held.web_payment;
  if (!web) return 'no web payment';
  if (held.provider === 'khalti') {
    // Khalti's page has no failing pay: a shopper who does not pay cancels.
    return onPage({ url: web.url, method: web.method }, action === 'pay' ? 'pay' : 'cancel').then(
      () => undefined,
      (error: unknown) => String(error).slice(0, 160),
    );
  }
  const page = await postForm(web.url, web.fields ?? {});
  if (page.status !== 200) return `the form POST answered ${page.status}`;
  const path = actionsOf(page.text)[action];
  if (!path) return `the login page has no ${action}`;
  const answer = await postForm(`${sandbox.baseUrl}${path}`, { ...LOGIN, scenario: '' });
  return answer.status === 302 ? undefined : `the ${action} answered ${answer.status}`;
}

/** eSewa has no refund API: the merchant refunds in its portal, the sandbox's control here; the kit sees it in a status. */
export async function refundAtEsewa(sandbox: Sandbox, bookingId: string): Promise<string> {
  const { body } = await control(`${sandbox.baseUrl}/sandbox/epay/transactions/${EPAY_PRODUCT}/${encodeURIComponent(bookingId)}/refund`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  return `${String(body.code)} ${String((body.data as { status?: string } | undefined)?.status ?? body.message)}`;
}
