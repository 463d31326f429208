/**
 * What the handler's parts share: the merchant's options, the service client, the store, the error
 * reporter, and the one place where a service failure becomes the code the browser sees.
 */
import { CODES, type ResponseCode } from '../protocol/contract.js';
import { Refusal, type Route } from './http.js';
import { ServiceError, type ServiceClient } from './service-client.js';
import type { PaymentStore } from './store.js';
import type { PaymentHandlerOptions } from './types.js';

/** The handler's shared parts. */
export interface Kit {
  options: PaymentHandlerOptions;
  client: ServiceClient;
  store: PaymentStore;
  /** This handler's name in the store's claims and leases. */
  owner: string;
  /** How long a claim or lease holds before another instance may take it over. */
  leaseMs: number;
  now(): number;
  report(error: unknown, context: { route: string }): void;
}

// The service's codes a browser can act on; other refusals are the merchant's set-up or the service's trouble.
const PASSED_THROUGH = new Set<string>([CODES.ALREADY_PROCESSED, CODES.UNKNOWN_BOOKING, CODES.IDEMPOTENCY_CONFLICT]);

/**
 * Whether a failed call shows a set-up fault of the merchant's server that no retry can cure: the
 * service refused the signature (`IP-400`) or the product (`IP-401`), or another 4xx refusal of what
 * the kit sent; or the service URL answered 404 or with something that is not the service (an HTML
 * page, a body without the envelope) below HTTP 500. Timeouts, 5xx, 408, 429 and unreachable hosts
 * stay transient.
 */
export function isSetupFault(error: ServiceError): boolean {
  if (error.kind === 'timeout' || error.httpStatus === undefined) return false;
  if (error.kind === 'rejected' && (error.code === CODES.INVALID_SIGNATURE || error.code === CODES.UNKNOWN_MERCHANT)) return true;
  const status = error.httpStatus;
  return status < 500 && status !== 408 && status !== 429;
}

/** Runs one call to the service, turning its failure into the refusal the browser gets. */
export async function serviceCall<T>(kit: Kit, route: Route, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.kind === 'timeout') throw new Refusal(CODES.UPSTREAM_TIMEOUT, 'The payment service did not answer in time; try again.');
    if (error.kind === 'rejected' && PASSED_THROUGH.has(error.code)) {
      throw new Refusal(error.code as ResponseCode, error.message);
    }
    kit.report(error, { route });
    if (isSetupFault(error)) {
      throw new Refusal(
        CODES.MERCHANT_SETUP,
        'The shop cannot take this payment now because of a problem in its own set-up; please contact the shop.',
      );
    }
    const detail = error.kind === 'rejected' ? ` (code ${error.code})` : '';
    throw new Refusal(CODES.UPSTREAM_UNAVAILABLE, `The payment service could not process this request${detail}.`);
  }
}
