// The phone that paid a desktop's code: where the order stands, and that the computer carries on.
import { getShop } from '../../lib/server';

export const dynamic = 'force-dynamic';

export default async function Phone({ searchParams }: { searchParams: Promise<{ order?: string }> }) {
  const order = getShop().order((await searchParams).order ?? '');
  return (
    <main>
      <h1>Payment</h1>
      <p id="result">{!order ? 'Unknown order.' : order.paid ? `Order ${order.id} is paid.` : `Order ${order.id}: the payment is being confirmed.`}</p>
      <p>Go back to your computer: the checkout there carries on.</p>
    </main>
  );
}
