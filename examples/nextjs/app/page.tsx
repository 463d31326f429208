// The checkout: a new order, or the order the shopper comes back to from the payment page.
import { getShop } from '../lib/server';
import { PayButton } from './pay-button';

export const dynamic = 'force-dynamic';

export default async function Checkout({ searchParams }: { searchParams: Promise<{ order?: string }> }) {
  const shop = getShop();
  const requested = (await searchParams).order ?? '';
  const order = shop.order(requested) ?? shop.order(`order-${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`)!;
  return (
    <main>
      <h1>Checkout</h1>
      <p>
        Order <code>{order.id}</code>: NPR {order.amount.toFixed(2)}
      </p>
      <PayButton orderId={order.id} allowedHosts={shop.config.allowedHosts} />
    </main>
  );
}
