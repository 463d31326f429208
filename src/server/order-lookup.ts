/**
 * What `lookupOrder` answers for a book, checked: the order's canonical id, total and balance, or the
 * refusal the browser gets (unknown, paid, or a lookup the merchant must fix, told to `onError`).
 */
import { CODES, type OrderReference } from '../protocol/contract.js';
import { describeValue, isRecord } from '../protocol/values.js';
import { toPaise, toRupees } from './amounts.js';
import { attemptTag } from './attempt.js';
import type { Kit } from './context.js';
import { Refusal } from './http.js';
import type { OrderDetails } from './types.js';

/** The longest canonical order id: it travels to the service in the booking's `merchant_order` property, limited to 256 characters. */
const MAX_ORDER_ID = 256;

/** What `lookupOrder` said, checked: the canonical id, total and balance (rounded to paisa) of a payable order. */
export interface PayableOrder {
  id: string;
  amount: number;
  balance?: number;
  properties?: Record<string, string>;
}

/** What `lookupOrder` says of `order`, checked: a payable order, or a refusal. */
export async function payableOrder(kit: Kit, order: OrderReference, request: Request): Promise<PayableOrder> {
  const tag = attemptTag(request);
  const details = await kit.lookup(order, request, 'book');
  if (details === undefined || details === null) {
    throw new Refusal(CODES.UNKNOWN_ORDER, 'This order is unknown or cannot be paid.');
  }
  if (!isRecord(details)) return invalidLookup(kit, tag, `lookupOrder must return an object such as { id, amount }, { paid: true } or undefined; got ${describeValue(details)}.`);
  // A database's truthy 1, "true" or "t" must not read as "not paid": only a boolean says it.
  if (details.paid !== undefined && details.paid !== true && details.paid !== false) {
    return invalidLookup(kit, tag, `lookupOrder returned { paid: ${describeValue(details.paid)} }; "paid" must be true, false or absent (convert a database's 1 or "t" with row.paid === true).`);
  }
  if (details.paid === true) throw alreadyPaid();
  const { id, amount, balance, properties } = details as Partial<OrderDetails> & Record<string, unknown>;
  if (typeof amount !== 'number') {
    const numeric = typeof amount === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(amount);
    return invalidLookup(
      kit,
      tag,
      `lookupOrder returned an amount of type ${typeof amount} (${describeValue(amount)}); it must be a number in rupees with at most two decimals, ` +
        (numeric
          ? `e.g. 1250.5. node-postgres reads a numeric column as a string: return { amount: Number(row.total) }.`
          : 'e.g. { id: row.id, amount: 1250.5 }.'),
    );
  }
  if (!isRupees(amount)) {
    return invalidLookup(kit, tag, `lookupOrder returned the amount ${describeValue(amount)}; it must be a positive number of rupees with at most two decimals, e.g. 1250.5.`);
  }
  if (!((typeof id === 'string' && id.length > 0 && id.length <= MAX_ORDER_ID) || (typeof id === 'number' && Number.isFinite(id)))) {
    return invalidLookup(
      kit,
      tag,
      `lookupOrder returned the order id ${describeValue(id)}; return the order's own id from your records as "id" ` +
        `(a non-empty string of at most ${MAX_ORDER_ID} characters, or a number), e.g. { id: row.id, amount: 1250.5 }: ` +
        'one order is one payment, however the browser spells it.',
    );
  }
  if (balance !== undefined && (typeof balance !== 'number' || !isRupees(balance))) {
    return invalidLookup(kit, tag, `lookupOrder returned the balance ${describeValue(balance)}; it must be a positive number of rupees with at most two decimals, or absent.`);
  }
  const payable: PayableOrder = { id: String(id), amount: toRupees(toPaise(amount)), properties: properties as Record<string, string> | undefined };
  if (balance !== undefined) payable.balance = toRupees(toPaise(balance));
  return payable;
}

function invalidLookup(kit: Kit, tag: { attempt?: string }, message: string): never {
  kit.report(new TypeError(message), { route: 'book', ...tag });
  throw new Refusal(CODES.INTERNAL, 'The server could not price this order.');
}

/** A positive number of rupees with at most two decimals (`0.29 * 100` is 28.999…: near enough). */
function isRupees(value: number): boolean {
  return Number.isFinite(value) && value > 0 && Math.abs(Math.round(value * 100) - value * 100) <= 1e-6;
}

export function alreadyPaid(): Refusal {
  return new Refusal(CODES.ORDER_ALREADY_PAID, 'This order is already paid.');
}

