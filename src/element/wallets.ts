/**
 * The wallets a checkout offers, as the element shows them: the server decides which and in what order
 * (the merchant writes `wallets` from its handler's `wallets`), and `wallet-order` puts the names it
 * lists first, the rest following in the server's order (as Stripe's `paymentMethodOrder`). Pure and
 * DOM-free: the element's first module, its server render and the set-up check share it.
 */

/** The wallets the element has words for (its labels name each: `wallet.esewa`, `wallet.khalti`). */
export const WALLETS: readonly string[] = ['esewa', 'khalti'];

/** A space-separated attribute's names. */
export const names = (value: string | null | undefined): string[] => value?.match(/\S+/g) ?? [];

/**
 * The wallet buttons to show, in order: the names of `wallets` the element knows, without repeats,
 * with those `order` lists first (in its order). Fewer than two is no choice: the element then shows
 * its one pay button, which books the server's first wallet.
 */
export function orderWallets(wallets: string | null | undefined, order?: string | null): string[] {
  const offered = names(wallets).filter((name) => WALLETS.includes(name));
  return [...new Set([...names(order).filter((name) => offered.includes(name)), ...offered])];
}
