/**
 * The playground merchant's catalogue. The server takes prices from here; the page only shows them.
 * Amounts are in the smallest unit the service's samples use (whole numbers).
 */
export interface CatalogItem {
  id: string;
  title: string;
  description: string;
  amount: number;
  /** Sandbox controls carried in the booking's properties (see docs/sandbox.md). */
  properties?: Record<string, string>;
}

export const CATALOG: readonly CatalogItem[] = [
  {
    id: 'A-1001',
    title: 'Himalayan tea sampler',
    description: 'Six loose-leaf teas from Ilam, 50 g each.',
    amount: 1200,
  },
  {
    id: 'A-1002',
    title: 'Slow-bank order (stays PENDING)',
    description: 'The sandbox keeps this payment PENDING, to show the element waiting and offering choices.',
    amount: 800,
    properties: { sandbox_outcome: 'pending' },
  },
  {
    id: 'A-1003',
    title: 'Lost-callback order',
    description: 'The sandbox never sends this callback; the status check settles it anyway.',
    amount: 450,
    properties: { sandbox_callback: 'never' },
  },
];

export function findItem(id: unknown): CatalogItem | undefined {
  return CATALOG.find((item) => item.id === id);
}

/**
 * The checkout's order id for an item: the item and this tab's checkout number (`A-1001/k3f9x2`), so
 * each shopper's checkout is an order of its own. The kit books one payable booking per order and
 * refuses an order already paid, so a catalogue item alone cannot be the order.
 */
export function orderIdOf(itemId: string, checkout: string): string {
  return `${itemId}/${checkout}`;
}

/** The item an order id names: `A-1001/k3f9x2` (a checkout's order) or a bare `A-1001`. */
export function itemOfOrder(orderId: unknown): CatalogItem | undefined {
  return typeof orderId === 'string' ? findItem(orderId.split('/')[0]) : undefined;
}
