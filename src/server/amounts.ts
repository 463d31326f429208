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
