/** The shop on node:http: the kit at /api/pay, the pages, the element's files, a reconcile timer. */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createMemoryStore } from 'wallet-pay-button/server';
import { toNodeListener } from 'wallet-pay-button/server/node';
import { createPostgresStore } from 'wallet-pay-button/server/postgres';
import { createShop, readConfig } from './shop.ts';

const config = readConfig(process.env);
// PostgreSQL in production; the memory store (one process, lost on restart) only to try things out.
const store = process.env.DATABASE_URL ? createPostgresStore(new pg.Pool({ connectionString: process.env.DATABASE_URL })) : createMemoryStore();
const shop = createShop(config, store);
const pay = toNodeListener(shop.handler);
// The pages through the kit's Node adapter too: a malformed Host or a TRACE is 400 or 405 in JSON, as on
// /api/pay, never a page.
const pages = toNodeListener(async (request) => shop.page(request) ?? new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } }));
// The element's browser files, as published in the package (dist/cdn).
const elementDir = join(dirname(fileURLToPath(import.meta.resolve('wallet-pay-button/package.json'))), 'dist', 'cdn');

// A long-lived process: a timer runs the spec's five-minute status check of forgotten payments.
const timer = setInterval(() => shop.reconcileNow().catch((error) => console.error('reconcile', error)), Number(process.env.RECONCILE_EVERY_MS || 60_000));

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', config.publicUrl);
  if (url.pathname.startsWith('/api/pay/')) return pay(req, res);
  const file = /^\/wallet-pay-button\/([\w.-]+\.js)$/.exec(url.pathname)?.[1];
  if (file) {
    const body = await readFile(join(elementDir, file)).catch(() => undefined);
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/javascript; charset=utf-8' }).end(body ?? 'Not found');
    return;
  }
  pages(req, res);
});
server.listen(Number(process.env.PORT || 3000), '127.0.0.1', () => console.log(`shop listening on ${config.publicUrl}`));
process.on('SIGTERM', () => {
  clearInterval(timer);
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
