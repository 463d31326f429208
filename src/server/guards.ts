/**
 * What the merchant plugs in, as the handler calls it: its order lookup and its store, each under a
 * deadline, so that a database that hangs cannot hold a request past it. A late lookup answers
 * {@link LookupLate}; a store that cannot be reached, or answers late, becomes `IP-503`, told to
 * `onError` once per outage. The late call runs on unawaited, its failure swallowed.
 */
import { CODES, type OrderReference } from '../protocol/contract.js';
import { attemptTag } from './attempt.js';
import { Refusal, type Route } from './http.js';
import { isStoreUnavailable, StoreUnavailableError } from './store-errors.js';
import type { PaymentStore } from './store.js';
import type { ErrorContext, PaymentHandlerOptions } from './types.js';

/** `call()`'s outcome, or `late()`'s error once `limitMs` passed; a call that throws at once rejects the same way. */
async function withDeadline<T>(call: () => T | Promise<T>, limitMs: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), limitMs);
  });
  const running = Promise.resolve().then(call);
  running.catch(() => {});
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** `lookupOrder` did not answer within `lookupTimeoutMs`. */
class LookupLate extends Error {
  override name = 'LookupLate';
}

/**
 * What `lookupOrder` answers for `order` (with the element's attempt id, when the request names one).
 * A lookup that fails or misses its deadline is told to `onError` under `route`, and rejects with the
 * refusal the browser gets: `IP-503` with a time to come back when it was late, else `IP-500`.
 */
export type Lookup = (order: OrderReference, request: Request, route: Route) => Promise<unknown>;

/** The handler's one lookup: `lookupOrder` under `limitMs`; `report` is the handler's `onError`. */
export function createLookup(
  lookupOrder: PaymentHandlerOptions['lookupOrder'],
  limitMs: number,
  report: (error: unknown, context: ErrorContext) => void,
): Lookup {
  return async (order, request, route) => {
    const tag = attemptTag(request);
    try {
      return await withDeadline(
        () => lookupOrder(order, { request, ...tag }),
        limitMs,
        () => new LookupLate(`lookupOrder did not answer within ${limitMs} ms; the request was answered IP-503 without waiting for it.`),
      );
    } catch (error) {
      report(error, { route, ...tag });
      throw lookupFailed(error);
    }
  };
}

/** Seconds a browser waits before retrying an `IP-503`. */
const RETRY_AFTER_SECONDS = 2;

/** The answer for a request whose `lookupOrder` failed: `IP-503` when it was late, so the browser tries again. */
function lookupFailed(error: unknown): Refusal {
  if (error instanceof LookupLate) {
    return new Refusal(CODES.SERVER_UNAVAILABLE, "The shop's server could not look up this order in time; try again in a moment.", {
      'retry-after': String(RETRY_AFTER_SECONDS),
    });
  }
  return new Refusal(CODES.INTERNAL, 'The server could not look up this order.');
}

/** The answer for a request the store could not serve. */
export function storeUnavailable(): Refusal {
  return new Refusal(
    CODES.SERVER_UNAVAILABLE,
    "The shop's server cannot reach its payment records right now; try again in a moment.",
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );
}

/**
 * The store error when it is a {@link StoreUnavailableError} (the database cannot be reached or did
 * not answer in time, as the store itself classified its driver's error), else `undefined`: any other
 * store error is a defect and stays `IP-500`. No driver's codes are read here: each store knows its own.
 */
export function asStoreOutage(error: unknown): StoreUnavailableError | undefined {
  return isStoreUnavailable(error) ? error : undefined;
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
