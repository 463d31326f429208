// What the shop recorded for the order, never the status in the address alone.
import { getShop } from '../../lib/server';

export const dynamic = 'force-dynamic';

export default async function Result({ searchParams }: { searchParams: Promise<{ order?: string }> }) {
  const order = getShop().order((await searchParams).order ?? '');
  return (
    <main>
      <h1>Thank you</h1>
      <p id="result">
        {!order ? 'Unknown order.' : order.paid ? `Order ${order.id} is paid.` : `Order ${order.id} is not paid yet.`}
        {order && !order.paid ? <a href={`/?order=${order.id}`}> Back to the checkout</a> : null}
      </p>
    </main>
  );
}
