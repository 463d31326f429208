/** The shop on Bun (`Bun.serve`): the kit at /api/pay with no adapter, the pages, a reconcile timer. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createMemoryStore, refuseMalformed } from 'wallet-pay-button/server';
import { createPostgresStore } from 'wallet-pay-button/server/postgres';
import { createShop, readConfig } from './shop.ts';

const config = readConfig(process.env);
// PostgreSQL in production; the memory store (one process, lost on restart) only to try things out.
const store = process.env.DATABASE_URL ? createPostgresStore(new pg.Pool({ connectionString: process.env.DATABASE_URL })) : createMemoryStore();
const shop = createShop(config, store);
const elementDir = join(dirname(fileURLToPath(import.meta.resolve('wallet-pay-button/package.json'))), 'dist', 'cdn');

// A long-lived process: a timer runs the spec's five-minute status check of forgotten payments.
setInterval(() => shop.reconcileNow().catch((error) => console.error('reconcile', error)), Number(process.env.RECONCILE_EVERY_MS || 60_000));

Bun.serve({
  port: Number(process.env.PORT || 3000),
  hostname: '127.0.0.1',
  async fetch(request) {
    // A malformed Host or a TRACE: 400 or 405 in JSON, never the runtime's error page.
    const refused = refuseMalformed(request, 'GET, HEAD, POST');
    if (refused) return refused;
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/api/pay/')) return shop.handler(request);
    const file = /^\/wallet-pay-button\/([\w.-]+\.js)$/.exec(pathname)?.[1];
    if (file) {
      const body = Bun.file(join(elementDir, file));
      return (await body.exists()) ? new Response(body, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }) : new Response('Not found', { status: 404 });
    }
    return shop.page(request) ?? new Response('Not found', { status: 404 });
  },
});
console.log(`shop listening on ${config.publicUrl}`);
