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
  report(error: unknown, context: { route: string }): void;
}

// The service's codes a browser can act on; any other refusal is the merchant's setup and reads as IP-502.
const PASSED_THROUGH = new Set<string>([CODES.ALREADY_PROCESSED, CODES.UNKNOWN_BOOKING, CODES.IDEMPOTENCY_CONFLICT]);

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
    const detail = error.kind === 'rejected' ? ` (code ${error.code})` : '';
    throw new Refusal(CODES.UPSTREAM_UNAVAILABLE, `The payment service could not process this request${detail}.`);
  }
}
