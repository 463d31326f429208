/**
 * The one place where a failed call to the payment service becomes the code the browser sees, and a
 * refusal of the merchant's own set-up is explained to `onError`.
 */
import { CODES, type ResponseCode } from '../protocol/contract.js';
import { Refusal, type Route } from './http.js';
import { ServiceError, type BookInput, type ServiceBooking, type ServiceCancellation, type ServiceClient, type ServiceStatus } from './service-client.js';
import type { ErrorContext } from './types.js';

// The service's codes a browser can act on; other refusals are the merchant's set-up or the service's trouble.
const PASSED_THROUGH = new Set<string>([CODES.ALREADY_PROCESSED, CODES.UNKNOWN_BOOKING, CODES.IDEMPOTENCY_CONFLICT]);

/**
 * Whether a failed call shows a set-up fault of the merchant's server that no retry can cure: the
 * service refused the signature (`IP-400`) or the product (`IP-401`), or another 4xx refusal of what
 * the kit sent; or the service URL answered 404 or with something that is not the service (an HTML
 * page, a body without the envelope) below HTTP 500. Timeouts, 5xx, 408, 429 and unreachable hosts
 * stay transient.
 */
function isSetupFault(error: ServiceError): boolean {
  if (error.kind === 'timeout' || error.httpStatus === undefined) return false;
  if (error.kind === 'rejected' && (error.code === CODES.INVALID_SIGNATURE || error.code === CODES.UNKNOWN_MERCHANT)) return true;
  const status = error.httpStatus;
  return status < 500 && status !== 408 && status !== 429;
}

/**
 * What the merchant reads in `onError` for a refusal of its set-up: the service's own words, and which
 * option it refused (the service says only "Invalid Signature", which reads like a bad request).
 */
function explainSetupFault(error: ServiceError, productCode: string): Error {
  if (error.kind === 'rejected' && error.code === CODES.INVALID_SIGNATURE) {
    return new Error(
      `The payment service refused the signature of ${error.operation} (${error.code} "${error.message}"): the accessKey ` +
        `given to createPaymentHandler is not the key the provider issued for productCode "${productCode}". ` +
        'Check both options against the provider\'s credentials (a development key does not work in production).',
      { cause: error },
    );
  }
  if (error.kind === 'rejected' && error.code === CODES.UNKNOWN_MERCHANT) {
    return new Error(
      `The payment service does not know productCode "${productCode}" (${error.code} "${error.message}"): set the product ` +
        'code the provider assigned, with its own accessKey.',
      { cause: error },
    );
  }
  return error;
}

/**
 * The service's calls as a route makes them: each failure is already the refusal the browser gets (a
 * code the browser can act on passes through as the refusal's `code`), and a set-up fault is told to
 * `onError` with the option to fix.
 */
export interface ServiceCaller {
  book(input: BookInput): Promise<ServiceBooking>;
  status(ids: { booking_id: string; correlation_id: string }, route: Route): Promise<ServiceStatus>;
  cancel(ids: { booking_id: string }, route: Route): Promise<ServiceCancellation>;
}

/** The handler's one service caller, over its signed `client`; `report` is the handler's `onError`. */
export function createServiceCaller(client: ServiceClient, productCode: string, report: (error: unknown, context: ErrorContext) => void): ServiceCaller {
  async function call<T>(route: Route, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw refusalOf(error, route, productCode, report);
    }
  }
  return {
    book: (input) => call('book', () => client.book(input)),
    status: (ids, route) => call(route, () => client.status(ids)),
    cancel: (ids, route) => call(route, () => client.cancel(ids)),
  };
}

/** The refusal the browser gets for a failed call to the service. */
function refusalOf(error: unknown, route: Route, productCode: string, report: (error: unknown, context: ErrorContext) => void): unknown {
  if (!(error instanceof ServiceError)) return error;
  if (error.kind === 'timeout') return new Refusal(CODES.UPSTREAM_TIMEOUT, 'The payment service did not answer in time; try again.');
  if (error.kind === 'rejected' && PASSED_THROUGH.has(error.code)) return new Refusal(error.code as ResponseCode, error.message);
  if (isSetupFault(error)) {
    report(explainSetupFault(error, productCode), { route });
    return new Refusal(
      CODES.MERCHANT_SETUP,
      'The shop cannot take this payment now because of a problem in its own set-up; please contact the shop.',
    );
  }
  report(error, { route });
  const detail = error.kind === 'rejected' ? ` (code ${error.code})` : '';
  return new Refusal(CODES.UPSTREAM_UNAVAILABLE, `The payment service could not process this request${detail}.`);
}
