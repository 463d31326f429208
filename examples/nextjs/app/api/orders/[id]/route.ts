// What the shop recorded for an order (its success page shows the same).
import { getShop } from '../../../../lib/server';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return getShop().page(request) ?? Response.json({ error: 'No such order.' }, { status: 404 });
}
