/**
 * The shop on Deno (`Deno.serve`): the kit at /api/pay with no adapter, the pages. No timer: each
 * status check may start one bounded reconcile pass, which also works where Deno keeps no process
 * running between requests.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createMemoryStore, refuseMalformed } from 'wallet-pay-button/server';
import { createPostgresStore } from 'wallet-pay-button/server/postgres';
import { createShop, readConfig, reconcileOnStatus } from './shop.ts';

const env = Deno.env.toObject();
const config = readConfig(env);
// PostgreSQL in production; the memory store (one process, lost on restart) only to try things out.
const store = env.DATABASE_URL ? createPostgresStore(new pg.Pool({ connectionString: env.DATABASE_URL })) : createMemoryStore();
const shop = createShop(config, store);
const pay = reconcileOnStatus(shop, Number(env.RECONCILE_EVERY_MS || 60_000));
const elementDir = join(dirname(fileURLToPath(import.meta.resolve('wallet-pay-button/package.json'))), 'dist', 'cdn');

Deno.serve({ port: Number(env.PORT || 3000), hostname: '127.0.0.1', onListen: () => console.log(`shop listening on ${config.publicUrl}`) }, async (request) => {
  // A malformed Host or a TRACE: 400 or 405 in JSON, never the runtime's error page.
  const refused = refuseMalformed(request, 'GET, HEAD, POST');
  if (refused) return refused;
  const { pathname } = new URL(request.url);
  if (pathname.startsWith('/api/pay/')) return pay(request);
  const file = /^\/wallet-pay-button\/([\w.-]+\.js)$/.exec(pathname)?.[1];
  if (file) {
    const body = await Deno.readFile(join(elementDir, file)).catch(() => undefined);
    return body ? new Response(body, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }) : new Response('Not found', { status: 404 });
  }
  return shop.page(request) ?? new Response('Not found', { status: 404 });
});
