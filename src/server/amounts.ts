/**
 * Amounts where they enter the kit: rupees from `lookupOrder` are rounded to paisa once (`0.1 + 0.2`
 * books 0.3, not 0.30000000000000004, which the service refuses), and what a book charges is worked
 * out in whole paise.
 */

/** Whole paise of an amount in rupees. */
export function toPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

/** Rupees of whole paise: the one value the kit signs and sends for it. */
export function toRupees(paise: number): number {
  return paise / 100;
}

/**
 * What a book of an order charges, in paise: its total less what the kit knows was paid for it (a
 * `SUCCESS` not refunded), and no more than the balance the merchant's records give, when they give one.
 * Zero or less: the order is paid.
 */
export function chargeOf(totalPaise: number, paidPaise: number, balancePaise: number | undefined): number {
  const owed = totalPaise - paidPaise;
  return balancePaise === undefined ? owed : Math.min(owed, balancePaise);
}

/** Whether a payment of `paid` rupees covers `total` rupees, compared in whole paise. */
export function covers(paid: number, total: number): boolean {
  return toPaise(paid) >= toPaise(total);
}

/** What a `SUCCESS` is to its order: a payment it needed, one above what it still needed, or one it did not need at all. */
export type PaymentVerdict =
  | { kind: 'payment' }
  /** The order's other payments had paid it in full: money taken twice, whatever this one's amount. */
  | { kind: 'duplicate' }
  /** More than the order still needed (`needed`, in paise): `excess` paise to refund. */
  | { kind: 'overpayment'; needed: number; excess: number };

/**
 * What a payment of `paid` paise is to an order whose other payments add up to `others` paise and whose
 * total, as its latest booking priced it, is `total` paise (what was paid before that booking, and what
 * it booked): a balance booked after the total grew counts the payments before it in that total, so it
 * is a payment, not a duplicate; a payment made after the order was paid in full is a duplicate.
 */
export function verdictOf(payment: { paid: number; others: number; total: number }): PaymentVerdict {
  const needed = payment.total - payment.others;
  if (needed <= 0) return { kind: 'duplicate' };
  return payment.paid > needed ? { kind: 'overpayment', needed, excess: payment.paid - needed } : { kind: 'payment' };
}
