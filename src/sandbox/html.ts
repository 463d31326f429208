/**
 * What every stand-in page of the sandbox writes the same way: text escaped for HTML, and an amount
 * in rupees. Each provider's pages (esewa-intent/pages.ts, epay/page.ts, khalti/page.ts) use them.
 */

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The currency the pages show amounts in. The spec names none; the wallet is Nepali, so the sandbox
 * reads every amount as Nepalese rupees (documented in docs/sandbox.md).
 */
export const SANDBOX_CURRENCY = 'NPR';

/** `1250.5` as `NPR 1,250.50`: the currency first and thousands grouped, the same on every machine. */
export function amountText(amount: number): string {
  const [whole = '0', cents = '00'] = amount.toFixed(2).split('.');
  return `${SANDBOX_CURRENCY} ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}
