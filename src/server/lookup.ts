/**
 * The merchant's `lookupOrder`, under its deadline (`lookupTimeoutMs`): an order database that hangs
 * must not hold `/book` (or a lost booking's recovery) past it.
 */
import type { OrderReference } from '../protocol/contract.js';
import { attemptTag } from './attempt.js';
import { withDeadline } from './deadline.js';
import type { PaymentHandlerOptions } from './types.js';

/** `lookupOrder` did not answer within `lookupTimeoutMs`. */
export class LookupLate extends Error {
  override name = 'LookupLate';
}

/** What `lookupOrder` answers for `order` (with the element's attempt id, when the request names one), or {@link LookupLate} at the deadline. */
export type Lookup = (order: OrderReference, request: Request) => Promise<unknown>;

/** The handler's one lookup: `lookupOrder` under `limitMs`. */
export function createLookup(lookupOrder: PaymentHandlerOptions['lookupOrder'], limitMs: number): Lookup {
  return (order, request) =>
    withDeadline(
      () => lookupOrder(order, { request, ...attemptTag(request) }),
      limitMs,
      () => new LookupLate(`lookupOrder did not answer within ${limitMs} ms; the request was answered IP-503 without waiting for it.`),
    );
}
