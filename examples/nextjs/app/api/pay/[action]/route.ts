// The kit at /api/pay/{book,status,cancel,callback}: it routes by the last path segment itself.
import { getShop } from '../../../../lib/server';

export const dynamic = 'force-dynamic';

export const POST = (request: Request) => getShop().handler(request);
// Other methods reach the kit too, which answers IP-405 with `Allow: POST`.
export const GET = POST;
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
