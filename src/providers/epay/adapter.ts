/**
 * eSewa's production web checkout, ePay v2, as a provider of the kit (facts and sources:
 * providers.md, "eSewa ePay v2"). A booking makes no call: the kit names the transaction and signs the
 * eleven form fields, which the browser posts to eSewa's form as a top-level navigation. eSewa sends
 * no server callback; the signed `data` on the success redirect is a hint, and the status check
 * decides. eSewa has no cancel and no refund API: a left booking expires there (`NOT_FOUND`), and a
 * refund is seen in a status (`FULL_REFUND`, `PARTIAL_REFUND`).
 */
import { CODES } from '../../protocol/contract.js';
import type { PaymentProvider, ProviderBookingRef, ProviderStatus } from '../../server/provider.js';
import { AnswerTooLarge, readCapped, ServiceError } from '../../server/service-error.js';
import { readEpayReturn } from './return.js';
import { EPAY_HOSTS, EPAY_TEST_CREDENTIALS, EpayAnswerError, epayFormFields, epayPaisa, epayStatusUrl, kitStatusOfEpay, readEpayStatus } from './wire.js';

/** Options of {@link esewaEpay}. */
export interface EsewaEpayOptions {
  /** The merchant code eSewa issued (`EPAYTEST` for eSewa's test service). */
  productCode: string;
  /** The ePay v2 secret eSewa issued with it: signs the form, checks the return; never reaches the browser. */
  secretKey: string;
  /** eSewa's test service (`test`, the default: rc-epay.esewa.com.np) or production (`live`: epay.esewa.com.np). */
  environment?: 'test' | 'live';
  /**
   * One base for both the form and the status check, e.g. the local sandbox (`http://127.0.0.1:4010`):
   * the kit adds eSewa's own paths (`/api/epay/main/v2/form`, `/api/epay/transaction/status/`).
   */
  baseUrl?: string;
  /**
   * The status check's base, when it is not the environment's. Sources disagree on eSewa's hosts for
   * it (rc.esewa.com.np, uat.esewa.com.np, rc-epay.esewa.com.np in test; epay.esewa.com.np or
   * esewa.com.np live): the default is what eSewa's developer page names.
   */
  statusUrl?: string;
  /**
   * How long after a booking an unknown transaction (`NOT_FOUND`) still reads as not yet started
   * rather than expired. eSewa documents no lifetime for the form (its app SDK ends a session after 5
   * idle minutes). Default 30 minutes.
   */
  sessionLifetimeMs?: number;
  /** Per status check. Default 10 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

const FORM_PATH = '/api/epay/main/v2/form';
const DEFAULT_LIFETIME_MS = 30 * 60 * 1000;

/** What the kit keeps with an ePay booking: the success and failure addresses its form names. */
interface EpayData {
  s: string;
  f: string;
}

/**
 * eSewa ePay v2 as a provider.
 *
 * @throws {TypeError} at once for a set-up mistake, naming the option and the fix: a missing product
 * code or secret; a live configuration with eSewa's published test code or test secret.
 */
export function esewaEpay(options: EsewaEpayOptions): PaymentProvider {
  const { productCode, secretKey } = options;
  if (typeof productCode !== 'string' || productCode.length === 0) throw new TypeError('esewaEpay: productCode is required (EPAYTEST for eSewa\'s test service).');
  if (typeof secretKey !== 'string' || secretKey.length === 0) throw new TypeError('esewaEpay: secretKey is required (the ePay v2 secret eSewa issued with the product code).');
  const environment = options.environment ?? 'test';
  if (environment !== 'test' && environment !== 'live') throw new TypeError(`esewaEpay: environment must be "test" or "live"; got ${JSON.stringify(environment)}.`);
  if (environment === 'live' && (productCode === EPAY_TEST_CREDENTIALS.productCode || secretKey.startsWith(EPAY_TEST_CREDENTIALS.secretKey))) {
    throw new TypeError(
      'esewaEpay: environment "live" with eSewa\'s published test ' +
        `${productCode === EPAY_TEST_CREDENTIALS.productCode ? 'product code EPAYTEST' : 'secret key'}: ` +
        'set the product code and secret eSewa issued for your merchant account (the merchant portal), or use environment "test".',
    );
  }
  const base = options.baseUrl?.replace(/\/+$/, '');
  const formUrl = base ? `${base}${FORM_PATH}` : EPAY_HOSTS[environment].form;
  const statusBase = options.statusUrl ?? base ?? EPAY_HOSTS[environment].status;
  checkUrl('baseUrl', formUrl);
  checkUrl('statusUrl', statusBase);
  const lifetimeMs = options.sessionLifetimeMs ?? DEFAULT_LIFETIME_MS;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function status(booking: ProviderBookingRef): Promise<ProviderStatus> {
    const url = epayStatusUrl(statusBase, { productCode, totalAmount: booking.amount, transactionUuid: booking.booking_id });
    const { status: httpStatus, text } = await get(doFetch, url, timeoutMs);
    let answer;
    try {
      answer = readEpayStatus(text);
    } catch (error) {
      if (!(error instanceof EpayAnswerError)) throw error;
      throw new ServiceError('status', 'unavailable', CODES.UPSTREAM_UNAVAILABLE, httpStatus, `eSewa's status check answered HTTP ${httpStatus}: ${error.message}`);
    }
    if (httpStatus < 200 || httpStatus > 299) {
      throw new ServiceError('status', 'unavailable', CODES.UPSTREAM_UNAVAILABLE, httpStatus, `eSewa's status check answered HTTP ${httpStatus}.`);
    }
    if (answer.transaction_uuid !== booking.booking_id || answer.product_code !== productCode) {
      throw new ServiceError('status', 'unavailable', CODES.UPSTREAM_UNAVAILABLE, httpStatus,
        `eSewa's status check answered about ${answer.product_code}/${answer.transaction_uuid}, not ${productCode}/${booking.booking_id}.`);
    }
    // Unknown before the session could have ended is a form not (yet) posted: still payable.
    if (answer.status === 'NOT_FOUND' && now() < booking.created_at + lifetimeMs) return { status: 'BOOKED', raw: answer };
    // eSewa's CANCELED reverses a payment only after a SUCCESS the kit delivered; the delivery rules read it so (a
    // CANCELED after a delivered SUCCESS is told to onError), as the adapter does not know the earlier status.
    const mapped = kitStatusOfEpay(answer.status, { wasSuccess: false });
    return {
      status: mapped,
      ...(answer.status === 'NOT_FOUND' ? {} : { amount: answer.total_amount }),
      ...(answer.ref_id ? { reference_code: answer.ref_id } : {}),
      ...(answer.status === 'PARTIAL_REFUND' ? { partialRefund: {} } : {}),
      raw: answer,
    };
  }

  return {
    name: 'esewa-epay',
    wallet: 'esewa',
    account: productCode,
    secret: secretKey,
    capabilities: { channels: ['web'], cancel: false, outcome: 'signed-return', refund: false, bookingLifetimeMs: lifetimeMs, minAmount: 0.01 },

    async book(input) {
      // eSewa's transaction ids are letters, digits and "-": the kit's reference in that alphabet.
      const uuid = input.reference.replace(/[^A-Za-z0-9-]/g, '-');
      const data: EpayData = { s: withBooking(input.returnUrl, uuid), f: withBooking(input.returnUrl, uuid) };
      // Signed now, so a bad amount or address fails the book, not the shopper's press later.
      await epayFormFields({ amount: input.amount, transactionUuid: uuid, productCode, successUrl: data.s, failureUrl: data.f }, secretKey);
      return { booking_id: uuid, correlation_id: uuid, data: JSON.stringify(data) };
    },

    async payment(booking) {
      const data = JSON.parse(booking.provider_data) as EpayData;
      const fields = await epayFormFields(
        { amount: booking.amount, transactionUuid: booking.booking_id, productCode, successUrl: data.s, failureUrl: data.f },
        secretKey,
      );
      return { web_payment: { url: formUrl, method: 'POST', fields } };
    },

    status,

    async readReturn(query, booking) {
      const data = dataOf(query);
      if (data === undefined) return { ok: true };
      const reading = await readEpayReturn(data, { secretKey, productCode });
      if (!reading.ok) return { ok: false, reason: reading.reason, message: reading.message };
      const { value } = reading;
      // Signed by eSewa for this merchant, yet about another payment: replayed from another booking.
      if (value.transaction_uuid !== booking.booking_id || epayPaisa(value.total_amount) !== epayPaisa(booking.amount)) {
        return {
          ok: false,
          reason: 'booking',
          message: `eSewa's signed return names transaction ${value.transaction_uuid} for ${value.total_amount_text}, not booking ${booking.booking_id} for ${booking.amount}.`,
        };
      }
      return { ok: true, ...(value.status === 'COMPLETE' ? { status: 'SUCCESS' as const } : {}) };
    },

    explain(error) {
      if (error instanceof ServiceError && error.operation === 'status' && error.httpStatus !== undefined && error.httpStatus < 500) {
        return new Error(
          `eSewa's status check at ${statusBase} answered HTTP ${error.httpStatus} (${error.message}). Sources disagree on eSewa's status host: ` +
            'check the statusUrl option of esewaEpay (and that productCode and environment match the account).',
          { cause: error },
        );
      }
      return error as Error;
    },
  };
}

/**
 * The return address with the kit's own reference: eSewa adds nothing to its failure redirect, and
 * glues `?data=` onto the success one even after a query (`…&booking_id=X?data=…`), so the reference
 * goes last and a reader cuts it at `?`.
 */
function withBooking(returnUrl: string, uuid: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('booking_id', uuid);
  return url.href;
}

/**
 * The `data` of a return address's query, read defensively: eSewa glues `?data=` onto a URL that has a
 * query already (`…&booking_id=X?data=…`), so it is found after a `?` or `&` anywhere, and its value
 * is taken raw up to the next `&` (a `+` in base64 must not become a space).
 */
function dataOf(query: string): string | undefined {
  const match = /(?:^|[?&])data=([^&#]*)/.exec(query);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1];
  }
}

function checkUrl(name: string, value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new TypeError(`esewaEpay: ${name} must be an absolute http(s) URL; got ${JSON.stringify(value)}.`);
  }
}

/** One GET of the status check, its answer capped; failures as the kit's `ServiceError`. */
async function get(doFetch: typeof fetch, url: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await doFetch(url, { headers: { accept: 'application/json' }, signal: controller.signal });
    return { status: response.status, text: await readCapped(response, 65_536, controller.signal) };
  } catch (error) {
    if (error instanceof AnswerTooLarge) throw new ServiceError('status', 'unavailable', CODES.UPSTREAM_UNAVAILABLE, undefined, 'eSewa\'s status check answered more than 64 KiB.');
    if (controller.signal.aborted) throw new ServiceError('status', 'timeout', CODES.UPSTREAM_TIMEOUT, undefined, `eSewa's status check did not answer within ${timeoutMs} ms.`);
    throw new ServiceError('status', 'unavailable', CODES.UPSTREAM_UNAVAILABLE, undefined, `eSewa's status check could not be reached: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
