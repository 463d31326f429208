/**
 * What the handler's parts share: the merchant's options, the service client, the store, the error
 * reporter, the one place where a service failure becomes the code the browser sees, and the one place
 * where a store that cannot be reached becomes `IP-503`.
 */
import { CODES, type ResponseCode } from '../protocol/contract.js';
import { Refusal, type Route } from './http.js';
import { ServiceError, type ServiceClient } from './service-client.js';
import { withDeadline } from './deadline.js';
import { StoreUnavailableError } from './store-errors.js';
import type { LeaseHold, PaymentStore, StoredBooking } from './store.js';
import type { ErrorContext, PaymentHandlerOptions, PaymentResult } from './types.js';

/** The handler's shared parts. */
export interface Kit {
  options: PaymentHandlerOptions;
  /** How long `lookupOrder` may take (`lookupTimeoutMs`). */
  lookupTimeoutMs: number;
  client: ServiceClient;
  store: PaymentStore;
  /** This handler's name in the store's claims and leases. */
  owner: string;
  /** How long a claim or lease holds before another instance may take it over. */
  leaseMs: number;
  now(): number;
  report(error: unknown, context: ErrorContext): void;
}

/** How a final result reaches the merchant: what booking needs of the result half, and nothing more. */
export interface Delivery {
  /**
   * Hands a final result to `onPaymentResult` once per booking and status; rejects with
   * {@link ResultBusy} when another instance holds the delivery. With `hold` (a book delivering the
   * result of an old booking of the order it holds), rejects with {@link LeaseLost} once the order was
   * taken over, and claims nothing.
   */
  deliver(result: PaymentResult, options?: { hold?: LeaseHold }): Promise<void>;
}

/** Another instance holds the claim on this result and is delivering it. */
export class ResultBusy extends Error {
  override name = 'ResultBusy';
}

/** The order's lease was taken over while a book held it (paused, or its renewals failing past the lease's end). */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/** The facts of a stored booking that a result carries. */
export function bookingFacts(
  booking: StoredBooking,
): Pick<PaymentResult, 'booking_id' | 'order' | 'order_id' | 'transaction_uuid' | 'amount'> {
  const facts: Pick<PaymentResult, 'booking_id' | 'order' | 'order_id' | 'transaction_uuid' | 'amount'> = {
    booking_id: booking.booking_id,
    order: booking.order,
    transaction_uuid: booking.transaction_uuid,
    amount: booking.amount,
  };
  const id = orderIdOf(booking.fingerprint);
  if (id !== undefined) facts.order_id = id;
  return facts;
}

/**
 * The canonical order id a fingerprint carries (see booking.ts: `[channel, order id, ...]`); undefined
 * for a fingerprint written before bookings were keyed by the merchant's id.
 */
function orderIdOf(fingerprint: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(fingerprint);
    if (Array.isArray(parsed) && parsed[0] === 'v2' && typeof parsed[2] === 'string') return parsed[2];
  } catch {
    // An older fingerprint: no id in it.
  }
  return undefined;
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

/**
 * What the merchant reads in `onError` for a refusal of its set-up: the service's own words, and which
 * option it refused (the service says only "Invalid Signature", which reads like a bad request).
 */
export function explainSetupFault(error: ServiceError, productCode: string): Error {
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
    if (isSetupFault(error)) {
      kit.report(explainSetupFault(error, kit.options.productCode), { route });
      throw new Refusal(
        CODES.MERCHANT_SETUP,
        'The shop cannot take this payment now because of a problem in its own set-up; please contact the shop.',
      );
    }
    kit.report(error, { route });
    const detail = error.kind === 'rejected' ? ` (code ${error.code})` : '';
    throw new Refusal(CODES.UPSTREAM_UNAVAILABLE, `The payment service could not process this request${detail}.`);
  }
}

/** Seconds a browser waits before retrying an `IP-503`. */
export const RETRY_AFTER_SECONDS = 2;

/** The answer for a request the store could not serve. */
export function storeUnavailable(): Refusal {
  return new Refusal(
    CODES.SERVER_UNAVAILABLE,
    "The shop's server cannot reach its payment records right now; try again in a moment.",
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );
}

// Node's network errors and PostgreSQL's SQLSTATEs that mean "the database is not there right now":
// connection exceptions (class 08), the server shutting down (57P01-57P03), a statement cancelled by
// its timeout (57014), no connection slot left (53300), a lock not granted in time (55P03).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '55P03']);
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|Connection ended unexpectedly/i;

/**
 * The store error as a {@link StoreUnavailableError} when it means the database cannot be reached or
 * did not answer in time (whether the store said so or the driver's own error came through), else
 * `undefined`: any other store error is a defect and stays `IP-500`.
 */
export function asStoreOutage(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return new StoreUnavailableError('unreachable', `The database cannot be reached (${code}).`, { cause: error });
    if (code === '57014' || code === '55P03') return new StoreUnavailableError('deadline', `The database did not answer in time (${code}).`, { cause: error });
    if (code.startsWith('08') || SQLSTATES.has(code)) {
      return new StoreUnavailableError('unreachable', `The database connection failed (${code}).`, { cause: error });
    }
  }
  if (DRIVER_MESSAGES.test(error.message)) return new StoreUnavailableError('unreachable', `The database connection failed: ${error.message}`, { cause: error });
  return undefined;
}

const STORE_METHODS = [
  'getBookingByKey',
  'findBookingByCorrelationId',
  'getBookingState',
  'getOrderState',
  'beginBooking',
  'acquireLease',
  'renewLease',
  'releaseLease',
  'insertBooking',
  'claimResult',
  'completeResult',
  'releaseResult',
  'getResults',
  'claimOpenBookings',
  'releaseCheck',
  'prune',
] as const satisfies ReadonlyArray<keyof PaymentStore>;
// Every method of the contract is guarded: a method added to PaymentStore and not listed above fails to compile.
const ALL_GUARDED: [Exclude<keyof PaymentStore, (typeof STORE_METHODS)[number]>] extends [never] ? true : never = true;
void ALL_GUARDED;

/**
 * The store as the handler uses it: an outage (see {@link asStoreOutage}), or a call past `limitMs`,
 * comes out as a {@link StoreUnavailableError}, and `tell` hears of it once per outage (the first failure after a
 * success), not once per request: a database down under load would otherwise flood the merchant's log.
 */
export function guardStore(store: PaymentStore, tell: (error: StoreUnavailableError) => void, limitMs: number): PaymentStore {
  let down = false;
  const guarded: Record<string, unknown> = {};
  for (const name of STORE_METHODS) {
    const method = store[name] as (...args: unknown[]) => Promise<unknown>;
    if (typeof method !== 'function') throw new TypeError(`store.${name} is not a function: the store does not implement PaymentStore.`);
    guarded[name] = async (...args: unknown[]) => {
      try {
        // A custom store that hangs must not hold the request for ever.
        const value = await withDeadline(
          () => method.apply(store, args),
          limitMs,
          () => new StoreUnavailableError('deadline', `The payment store did not answer ${name} within ${limitMs} ms.`),
        );
        down = false;
        return value;
      } catch (error) {
        const outage = asStoreOutage(error);
        if (!outage) throw error;
        if (!down) {
          down = true;
          tell(outage);
        }
        throw outage;
      }
    };
  }
  return guarded as unknown as PaymentStore;
}
