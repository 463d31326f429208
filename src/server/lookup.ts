/**
 * The merchant's `lookupOrder`, under its deadline (`lookupTimeoutMs`): an order database that hangs
 * must not hold `/book` (or a lost booking's recovery) past it.
 */
import type { OrderReference } from '../protocol/contract.js';
import { attemptTag } from './attempt.js';
import { withDeadline } from './deadline.js';
import type { Kit } from './context.js';

/** `lookupOrder` did not answer within `lookupTimeoutMs`. */
export class LookupLate extends Error {
  override name = 'LookupLate';
}

/** What `lookupOrder` answers for `order` (with the element's attempt id, when the request names one), or {@link LookupLate} at the deadline. */
export function lookupWithin(kit: Kit, order: OrderReference, request: Request): Promise<unknown> {
  return withDeadline(
    () => kit.lookupOrder(order, { request, ...attemptTag(request) }),
    kit.lookupTimeoutMs,
    () => new LookupLate(`lookupOrder did not answer within ${kit.lookupTimeoutMs} ms; the request was answered IP-503 without waiting for it.`),
  );
}
