/**
 * What `lookupOrder` answers for a book, read by the one reader and rule of order-paid.ts: the order's
 * canonical id, total and balance, or the refusal the browser gets (unknown, paid, or a lookup the
 * merchant must fix, told to `onError`).
 */
import { CODES, type OrderReference } from '../protocol/contract.js';
import type { Kit } from './context.js';
import { Refusal } from './http.js';
import { readOrder, type PayableOrder } from './order-paid.js';

export type { PayableOrder } from './order-paid.js';

/** What `lookupOrder` says of `order` for a book: a payable order; `{ paid: true }` is `IP-412`. */
export async function payableOrder(kit: Kit, order: OrderReference, request: Request): Promise<PayableOrder> {
  const read = await readOrder(kit, order, request, 'book');
  if (read === 'paid') throw alreadyPaid();
  return read;
}

export function alreadyPaid(): Refusal {
  return new Refusal(CODES.ORDER_ALREADY_PAID, 'This order is already paid.');
}
