/**
 * Khalti KPG-2 (ePayment) as a provider of the kit (facts and sources: providers.md, "Khalti KPG-2").
 * A book initiates a payment (`pidx`, `payment_url`, `expires_at`); the shopper pays on Khalti's page
 * (a GET, on every device: Khalti documents no app link); the return's query is unsigned, so only a
 * lookup with the secret key decides. Khalti has no cancel: a left booking is superseded and looked up
 * until it expires. Refunds, in full or in part, go through Khalti's refund API.
 */
import { CODES } from '../../protocol/contract.js';
import type { PaymentProvider, ProviderBookingRef, ProviderStatus } from '../../server/provider.js';
import { AnswerTooLarge, readCapped, ServiceError, type ServiceOperation } from '../../server/service-error.js';
import {
  fromPaisa,
  KHALTI_HOSTS,
  KhaltiAmountError,
  KhaltiAnswerError,
  KhaltiAuthError,
  khaltiHeaders,
  khaltiInitiateBody,
  KhaltiLimitError,
  khaltiRefundBody,
  kitStatusOfKhalti,
  readKhaltiInitiate,
  readKhaltiLookup,
  readKhaltiRefund,
} from './wire.js';

/** Options of {@link khalti}. */
export interface KhaltiOptions {
  /** The merchant's `live_secret_key` (test-admin.khalti.com's for the test host): sent as `Authorization: Key …`, never to the browser. */
  secretKey: string;
  /** The shop's own site, which Khalti requires with every payment (`website_url`), e.g. `https://shop.example`. */
  websiteUrl: string;
  /** Khalti's test host (`test`, the default: dev.khalti.com) or production (`live`: khalti.com). */
  environment?: 'test' | 'live';
  /**
   * One base for the API and refunds, e.g. the local sandbox (`http://127.0.0.1:4010`): the kit adds
   * Khalti's own paths (`/api/v2/epayment/…`, `/api/merchant-transaction/…`).
   */
  baseUrl?: string;
  /** Per call. Default 10 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Khalti's payment link lives 60 minutes in production by its docs (its sample says 30): reconcile looks up at least this long. */
const LINK_LIFETIME_MS = 60 * 60 * 1000;

/** What the kit keeps with a Khalti booking: where the shopper pays, and until when. */
interface KhaltiData {
  u: string;
  e: number;
}

/**
 * Khalti as a provider.
 *
 * @throws {TypeError} at once for a set-up mistake, naming the option and the fix.
 */
export function khalti(options: KhaltiOptions): PaymentProvider {
  const { secretKey } = options;
  if (typeof secretKey !== 'string' || secretKey.length === 0) throw new TypeError('khalti: secretKey is required (the live_secret_key of Khalti\'s dashboard).');
  if (/^test_secret_key_/.test(secretKey)) {
    throw new TypeError('khalti: secretKey is a KPG-1 test_secret_key, which KPG-2 refuses; use the live_secret_key of test-admin.khalti.com (test) or admin.khalti.com (live).');
  }
  const environment = options.environment ?? 'test';
  if (environment !== 'test' && environment !== 'live') throw new TypeError(`khalti: environment must be "test" or "live"; got ${JSON.stringify(environment)}.`);
  checkUrl('websiteUrl', options.websiteUrl);
  const base = options.baseUrl?.replace(/\/+$/, '');
  if (base !== undefined) checkUrl('baseUrl', base);
  const api = base ? `${base}/api/v2/` : KHALTI_HOSTS[environment].api;
  const refundBase = base ? `${base}/api/merchant-transaction/` : KHALTI_HOSTS[environment].refund;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function call<T>(operation: ServiceOperation, url: string, body: unknown, read: (status: number, text: string) => T): Promise<T> {
    const { status, text } = await post(doFetch, operation, url, secretKey, body, timeoutMs);
    try {
      return read(status, text);
    } catch (error) {
      throw asServiceError(operation, error, status);
    }
  }

  async function lookup(booking: ProviderBookingRef) {
    return call('status', `${api}epayment/lookup/`, { pidx: booking.booking_id }, readKhaltiLookup);
  }

  return {
    name: 'khalti',
    wallet: 'khalti',
    account: 'khalti',
    secret: secretKey,
    capabilities: { channels: ['web'], cancel: false, outcome: 'unsigned-return', refund: true, bookingLifetimeMs: LINK_LIFETIME_MS, minAmount: 10 },

    async book(input) {
      let body;
      try {
        body = khaltiInitiateBody({
          amount: input.amount,
          purchaseOrderId: input.reference,
          purchaseOrderName: input.properties.item ?? `Order ${input.orderId}`,
          returnUrl: input.returnUrl,
          websiteUrl: options.websiteUrl,
        });
      } catch (error) {
        if (error instanceof KhaltiAmountError) throw new ServiceError('book', 'rejected', CODES.INVALID_REQUEST, undefined, error.message);
        throw error;
      }
      const made = await call('book', `${api}epayment/initiate/`, body, readKhaltiInitiate);
      const data: KhaltiData = { u: made.payment_url, e: made.expires_at };
      return { booking_id: made.pidx, correlation_id: made.pidx, data: JSON.stringify(data) };
    },

    async payment(booking) {
      const data = JSON.parse(booking.provider_data) as KhaltiData;
      return { web_payment: { url: data.u, method: 'GET' } };
    },

    async status(booking): Promise<ProviderStatus> {
      const answer = await lookup(booking);
      const status = kitStatusOfKhalti(answer.status);
      return {
        status,
        amount: fromPaisa(answer.total_amount),
        ...(answer.transaction_id ? { reference_code: answer.transaction_id } : {}),
        ...(/^partially refunded$/i.test(answer.status) ? { partialRefund: {} } : {}),
        raw: answer,
      };
    },

    async refund(booking, amount) {
      const paid = await lookup(booking);
      if (!paid.transaction_id) {
        throw new ServiceError('refund', 'rejected', CODES.ALREADY_PROCESSED, undefined, `Khalti's payment ${booking.booking_id} has no transaction to refund (status ${paid.status}).`);
      }
      const body = khaltiRefundBody(amount === undefined ? {} : { amountPaisa: Math.round(amount * 100) });
      await call('refund', `${refundBase}${encodeURIComponent(paid.transaction_id)}/refund/`, body, readKhaltiRefund);
    },

    explain(error) {
      const cause = error instanceof ServiceError ? error.cause : error;
      if (cause instanceof KhaltiAuthError || cause instanceof KhaltiLimitError) return new Error(cause.message, { cause: error });
      return error as Error;
    },
  };
}

/** A wire module's refusal as the kit's `ServiceError`: a refused key or limit is the merchant's set-up; not found passes through. */
function asServiceError(operation: ServiceOperation, error: unknown, status: number): unknown {
  if (!(error instanceof KhaltiAnswerError)) return error;
  const code =
    error.kind === 'auth'
      ? CODES.UNKNOWN_MERCHANT
      : error.kind === 'not-found'
        ? CODES.UNKNOWN_BOOKING
        : error.kind === 'validation'
          ? CODES.INVALID_REQUEST
          : CODES.UPSTREAM_UNAVAILABLE;
  const kind = status >= 500 || error.kind === 'unexpected' ? 'unavailable' : 'rejected';
  return new ServiceError(operation, kind, code, status, error.message, { cause: error });
}

function checkUrl(name: string, value: unknown): void {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new TypeError(`khalti: ${name} must be an absolute http(s) URL; got ${JSON.stringify(value)}.`);
  }
}

/** One POST to Khalti with the key, its answer capped; failures to answer as the kit's `ServiceError`. */
async function post(doFetch: typeof fetch, operation: ServiceOperation, url: string, secretKey: string, body: unknown, timeoutMs: number): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await doFetch(url, { method: 'POST', headers: { ...khaltiHeaders(secretKey), accept: 'application/json' }, body: JSON.stringify(body), signal: controller.signal });
    return { status: response.status, text: await readCapped(response, 65_536, controller.signal) };
  } catch (error) {
    if (error instanceof AnswerTooLarge) throw new ServiceError(operation, 'unavailable', CODES.UPSTREAM_UNAVAILABLE, undefined, `Khalti answered ${operation} with more than 64 KiB.`);
    if (controller.signal.aborted) throw new ServiceError(operation, 'timeout', CODES.UPSTREAM_TIMEOUT, undefined, `Khalti did not answer ${operation} within ${timeoutMs} ms.`);
    throw new ServiceError(operation, 'unavailable', CODES.UPSTREAM_UNAVAILABLE, undefined, `Khalti could not be reached for ${operation}: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
