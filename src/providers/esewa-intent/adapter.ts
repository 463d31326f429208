/**
 * eSewa's intent payment service as a provider of the kit (the spec in intent-payment-service.md):
 * signed book, status and cancel calls (`client.ts`), a signed server callback (`callback.ts`), a
 * deeplink for the wallet app, and the web payment form the kit signs for the provider's page.
 */
import { CODES } from '../../protocol/contract.js';
import { createSignature, WEB_PAYMENT_SIGNED_FIELDS } from '../../protocol/signature.js';
import { CallbackVerificationError, verifyCallback } from './callback.js';
import { Refusal } from '../../server/http.js';
import type { PaymentProvider } from '../../server/provider.js';
import { createServiceClient } from './client.js';
import { ServiceError } from '../../server/service-error.js';

/** Options of {@link esewaIntent}. */
export interface EsewaIntentOptions {
  /** The service's `{base_url}`, without the API path (`https://pay.example`, not `.../api/client/intent/payment`). */
  serviceUrl: string;
  productCode: string;
  /** The access key: signs requests, verifies callbacks, never reaches the browser. */
  accessKey: string;
  /** The provider's web payment page. Default `${serviceUrl}/web/pay`. */
  webPaymentUrl?: string;
  /** Per call to the service. Default 10 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The path the service client adds to `serviceUrl`; a `serviceUrl` that already ends with it is a set-up mistake. */
const API_PATH = '/api/client/intent/payment';

/** How long the service keeps an unpaid booking payable (the sandbox's default; the spec names none). */
const BOOKING_LIFETIME_MS = 15 * 60 * 1000;

/**
 * The intent service as a provider.
 *
 * @throws {TypeError} at once for a set-up mistake (a missing option, a `serviceUrl` that carries the
 * API path), naming the option and the fix.
 */
export function esewaIntent(options: EsewaIntentOptions): PaymentProvider {
  for (const name of ['serviceUrl', 'productCode', 'accessKey'] as const) {
    if (typeof options[name] !== 'string' || options[name].length === 0) throw new TypeError(`${name} is required.`);
  }
  const { productCode, accessKey } = options;
  checkServiceUrl(options.serviceUrl);
  const client = createServiceClient({ baseUrl: options.serviceUrl, accessKey, productCode, timeoutMs: options.timeoutMs, fetch: options.fetch });
  const webPaymentUrl = options.webPaymentUrl ?? `${options.serviceUrl.replace(/\/+$/, '')}/web/pay`;

  return {
    name: 'esewa-intent',
    wallet: 'esewa',
    account: productCode,
    secret: accessKey,
    capabilities: { channels: ['app', 'web'], cancel: true, outcome: 'signed-callback', refund: false, bookingLifetimeMs: BOOKING_LIFETIME_MS, minAmount: 0.01 },

    async book(input) {
      const booked = await client.book({
        amount: input.amount,
        transaction_uuid: input.reference,
        callback_url: input.callbackUrl,
        redirect_url: input.returnUrl,
        properties: input.properties,
      });
      return { booking_id: booked.booking_id, correlation_id: booked.correlation_id, deeplink: booked.deeplink };
    },

    async payment(booking) {
      if (booking.channel === 'app') return { deeplink: booking.deeplink };
      const { booking_id, correlation_id } = booking;
      const signature = await createSignature({ booking_id, correlation_id }, WEB_PAYMENT_SIGNED_FIELDS, accessKey);
      return {
        web_payment: {
          url: webPaymentUrl,
          method: 'POST',
          fields: { booking_id, correlation_id, signed_field_names: WEB_PAYMENT_SIGNED_FIELDS, signature },
        },
      };
    },

    async status({ booking_id, correlation_id }) {
      const answer = await client.status({ booking_id, correlation_id });
      return { status: answer.status, reference_code: answer.reference_code, updated_at: answer.updated_at, raw: answer };
    },

    async cancel({ booking_id }) {
      const answer = await client.cancel({ booking_id });
      return { status: answer.status, raw: answer };
    },

    async callback(rawBody) {
      let payload;
      try {
        payload = await verifyCallback(rawBody, accessKey);
      } catch (error) {
        if (!(error instanceof CallbackVerificationError)) throw error;
        const code =
          error.reason === 'bad_signature'
            ? CODES.INVALID_SIGNATURE
            : error.reason === 'wrong_signed_fields'
              ? CODES.INVALID_SIGNED_FIELDS
              : CODES.INVALID_REQUEST;
        throw new Refusal(code, error.message);
      }
      if (payload.product_code !== productCode) {
        throw new Refusal(CODES.UNKNOWN_MERCHANT, `Callback refused: product_code "${payload.product_code}" is not this merchant's.`);
      }
      return { correlation_id: payload.correlation_id, status: payload.status, amount: payload.amount, reference_code: payload.reference_code };
    },

    explain(error) {
      if (!(error instanceof ServiceError) || error.kind !== 'rejected') return error as Error;
      if (error.code === CODES.INVALID_SIGNATURE) {
        return new Error(
          `The payment service refused the signature of ${error.operation} (${error.code} "${error.message}"): the accessKey ` +
            `given to createPaymentHandler is not the key the provider issued for productCode "${productCode}". ` +
            'Check both options against the provider\'s credentials (a development key does not work in production).',
          { cause: error },
        );
      }
      if (error.code === CODES.UNKNOWN_MERCHANT) {
        return new Error(
          `The payment service does not know productCode "${productCode}" (${error.code} "${error.message}"): set the product ` +
            'code the provider assigned, with its own accessKey.',
          { cause: error },
        );
      }
      return error;
    },

    async find(ids) {
      const answer = await client.status(ids);
      // Only this merchant's booking, under the ids the browser named.
      if (answer.booking_id !== ids.booking_id || answer.correlation_id !== ids.correlation_id || answer.product_code !== productCode) {
        throw new ServiceError('status', 'rejected', CODES.UNKNOWN_BOOKING, 404, 'No booking with these ids at the service.');
      }
      return { status: answer.status, reference_code: answer.reference_code, updated_at: answer.updated_at, transaction_uuid: answer.transaction_id, raw: answer };
    },
  };
}

/** A `serviceUrl` that carries the API path is the commonest set-up mistake: refused, naming the right value. */
function checkServiceUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`serviceUrl must be an absolute URL (http: or https:), the provider's base address, e.g. https://pay.provider.example; got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`serviceUrl must be an absolute URL (http: or https:), the provider's base address, e.g. https://pay.provider.example; got ${JSON.stringify(value)}.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_PATH) || /\/api\/client\/intent\/payment\/(book|status|cancel)$/.test(path)) {
    throw new TypeError(
      `serviceUrl must be the service's base address without the API path: got ${JSON.stringify(value)}; ` +
        `use ${JSON.stringify(url.origin + path.slice(0, path.indexOf(API_PATH)))} (the kit adds ${API_PATH}/book, /status and /cancel).`,
    );
  }
}
