/**
 * The spec's five-minute status check of forgotten payments, for hosts that keep no process running:
 * the platform's scheduler calls this route (vercel.json `crons`) with `Authorization: Bearer
 * $CRON_SECRET`; anyone else is refused.
 */
import { getShop } from '../../../../lib/server';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  const secret = process.env.CRON_SECRET;
  if (!secret || request.headers.get('authorization') !== `Bearer ${secret}`) {
    return Response.json({ error: 'Unauthorized.' }, { status: 401 });
  }
  return Response.json(await getShop().reconcileNow());
}
