/**
 * One meaning of "paid", below both halves of the handler. `readLookup` is the one reader of what `lookupOrder` answers (a payable order,
 * `{ paid: true }`, unknown, or a set-up mistake the merchant must fix); `owedPaise` is the one rule that
 * says what a read order still owes once the kit's delivered payments are counted, and `isPaid` says
 * that nothing is owed. `/book`, `/order`, the recovery of a lost booking and the checker all decide
 * "paid" through these, so a fresh tab never shows a pay button for an order `/book` refuses as paid.
 */
import { CODES, type OrderReference } from '../protocol/contract.js';
import { describeValue, isRecord } from '../protocol/values.js';
import { chargeOf, toPaise, toRupees } from './amounts.js';
import { attemptTag } from './attempt.js';
import type { Kit } from './context.js';
import { Refusal, type Route } from './http.js';
import { orderKeyOf } from './order-tag.js';
import type { OrderState } from './store.js';
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

/** `lookupOrder`'s answer read: `{ paid: true }`, unknown (`undefined`), a payable order, or a set-up mistake named in `problem`. */
export type OrderReading =
  | { kind: 'paid' }
  | { kind: 'unknown' }
  | { kind: 'payable'; order: PayableOrder }
  | { kind: 'malformed'; problem: string };

/** A read order as the rule takes it: a payable order, or `paid` when `lookupOrder` said `{ paid: true }`. */
export type ReadOrder = PayableOrder | 'paid';

/**
 * The one reader of `lookupOrder`'s answer. `paid` must be a boolean (a database's `1`, `"true"` or
 * `"t"` is a set-up mistake, never "not paid"); `amount` and `balance` positive rupees with at most two
 * decimals, `balance` no more than `amount` (an order that owes nothing is `{ paid: true }`).
 */
export function readLookup(details: unknown): OrderReading {
  if (details === undefined || details === null) return { kind: 'unknown' };
  if (!isRecord(details)) return malformed(`lookupOrder must return an object such as { id, amount }, { paid: true } or undefined; got ${describeValue(details)}.`);
  if (details.paid !== undefined && details.paid !== true && details.paid !== false) {
    return malformed(`lookupOrder returned { paid: ${describeValue(details.paid)} }; "paid" must be true, false or absent (convert a database's 1 or "t" with row.paid === true).`);
  }
  if (details.paid === true) return { kind: 'paid' };
  const { id, amount, balance, properties } = details as Partial<OrderDetails> & Record<string, unknown>;
  if (typeof amount !== 'number') {
    const numeric = typeof amount === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(amount);
    return malformed(
      `lookupOrder returned an amount of type ${typeof amount} (${describeValue(amount)}); it must be a number in rupees with at most two decimals, ` +
        (numeric ? `e.g. 1250.5. node-postgres reads a numeric column as a string: return { amount: Number(row.total) }.` : 'e.g. { id: row.id, amount: 1250.5 }.'),
    );
  }
  if (!isRupees(amount)) return malformed(`lookupOrder returned the amount ${describeValue(amount)}; it must be a positive number of rupees with at most two decimals, e.g. 1250.5.`);
  if (!((typeof id === 'string' && id.length > 0 && id.length <= MAX_ORDER_ID) || (typeof id === 'number' && Number.isFinite(id)))) {
    return malformed(
      `lookupOrder returned the order id ${describeValue(id)}; return the order's own id from your records as "id" ` +
        `(a non-empty string of at most ${MAX_ORDER_ID} characters, or a number), e.g. { id: row.id, amount: 1250.5 }: ` +
        'one order is one payment, however the browser spells it.',
    );
  }
  if (balance !== undefined && (typeof balance !== 'number' || !isRupees(balance))) {
    return malformed(
      `lookupOrder returned the balance ${describeValue(balance)}; it must be a positive number of rupees with at most two decimals, or absent ` +
        '(an order that owes nothing is { paid: true }).',
    );
  }
  if (balance !== undefined && toPaise(balance) > toPaise(amount)) {
    return malformed(`lookupOrder returned a balance of ${balance} above the amount ${amount}; the balance is what is still owed of the amount.`);
  }
  const order: PayableOrder = { id: String(id), amount: toRupees(toPaise(amount)), properties: properties as Record<string, string> | undefined };
  if (balance !== undefined) order.balance = toRupees(toPaise(balance));
  return { kind: 'payable', order };
}

/**
 * The one rule: what `order` still owes, in paise, once `paidPaise` (what the kit delivered as paid for
 * it: `SUCCESS` results not refunded) are counted: its total less those payments, and no more than the
 * balance the merchant's records give. Zero or less: the order is paid; `{ paid: true }` owes nothing.
 */
export function owedPaise(order: ReadOrder, paidPaise: number): number {
  if (order === 'paid') return 0;
  return chargeOf(toPaise(order.amount), paidPaise, order.balance === undefined ? undefined : toPaise(order.balance));
}

/** Whether `order` is paid once `paidPaise` are counted (see {@link owedPaise}). */
export function isPaid(order: ReadOrder, paidPaise: number): boolean {
  return owedPaise(order, paidPaise) <= 0;
}

/**
 * What `lookupOrder` says of `order` on `route`, read by {@link readLookup}: a payable order, or `paid`.
 * Unknown is `IP-424`; a set-up mistake is told to `onError` and refused with {@link setupRefusal}, on
 * every route alike.
 */
export async function readOrder(kit: Kit, order: OrderReference, request: Request, route: Route): Promise<ReadOrder> {
  const reading = readLookup(await kit.lookup(order, request, route));
  switch (reading.kind) {
    case 'paid':
      return 'paid';
    case 'payable':
      return reading.order;
    case 'unknown':
      throw new Refusal(CODES.UNKNOWN_ORDER, 'This order is unknown or cannot be paid.');
    case 'malformed':
      kit.report(new TypeError(reading.problem), { route, ...attemptTag(request) });
      throw setupRefusal();
  }
}

/** The shopper's answer to a lookup the merchant must fix (told to `onError`): the set-up code. */
export class SetupRefusal extends Refusal {
  constructor() {
    super(CODES.INTERNAL, 'The server could not price this order.');
  }
}

function setupRefusal(): SetupRefusal {
  return new SetupRefusal();
}

function malformed(problem: string): OrderReading {
  return { kind: 'malformed', problem };
}

/** A positive number of rupees with at most two decimals (`0.29 * 100` is 28.999…: near enough). */
function isRupees(value: number): boolean {
  return Number.isFinite(value) && value > 0 && Math.abs(Math.round(value * 100) - value * 100) <= 1e-6;
}

/** What the store's records count as paid for an order, in paise: every delivered `SUCCESS` not refunded (see {@link OrderState.paidAmount}). */
export function paidPaiseOf(state: OrderState): number {
  return toPaise(state.paidAmount ?? state.paid?.amount ?? 0);
}

/** The open bookings {@link paidPaiseOf} counts already: what the store names, else its `paid` alone (see {@link OrderState.paidOpen}). */
export function countedOpen(state: OrderState): ReadonlySet<string> {
  const named = state.paidAmount === undefined ? undefined : state.paidOpen;
  return new Set(named ?? (state.paid ? [state.paid.booking_id] : []));
}

/**
 * Whether a read order is paid by the kit's records now (`{ paid: true }`, or the store's delivered
 * payments cover what it owes), with the order's state in the store when it was read.
 */
export async function paidInRecords(kit: Kit, order: ReadOrder): Promise<{ paid: true; state?: OrderState } | { paid: false; order: PayableOrder; state: OrderState }> {
  if (order === 'paid') return { paid: true };
  const state = await kit.store.getOrderState({ orderKey: await orderKeyOf(order.id) });
  return isPaid(order, paidPaiseOf(state)) ? { paid: true, state } : { paid: false, order, state };
}
