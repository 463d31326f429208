/** The shop on Express 5: the kit at /api/pay (before any body parser), the pages, a reconcile timer. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import pg from 'pg';
import { createMemoryStore } from 'wallet-pay-button/server';
import { toNodeListener } from 'wallet-pay-button/server/node';
import { createPostgresStore } from 'wallet-pay-button/server/postgres';
import { createShop, readConfig } from './shop.ts';

const config = readConfig(process.env);
// PostgreSQL in production; the memory store (one process, lost on restart) only to try things out.
const store = process.env.DATABASE_URL ? createPostgresStore(new pg.Pool({ connectionString: process.env.DATABASE_URL })) : createMemoryStore();
const shop = createShop(config, store);

const app = express();
// Before express.json(): callbacks are verified on the raw body text.
app.use('/api/pay', toNodeListener(shop.handler));
app.use(express.json());
// The element's browser files, as published in the package (dist/cdn).
app.use('/wallet-pay-button', express.static(join(dirname(fileURLToPath(import.meta.resolve('wallet-pay-button/package.json'))), 'dist', 'cdn')));
// The pages through the kit's Node adapter too: a malformed Host or a TRACE is 400 or 405 in JSON, as on
// /api/pay, never a page.
app.use(toNodeListener(async (request) => shop.page(request) ?? new Response('Not found', { status: 404 })));

// A long-lived process: a timer runs the spec's five-minute status check of forgotten payments.
const timer = setInterval(() => shop.reconcileNow().catch((error) => console.error('reconcile', error)), Number(process.env.RECONCILE_EVERY_MS || 60_000));
const server = app.listen(Number(process.env.PORT || 3000), '127.0.0.1', () => console.log(`shop listening on ${config.publicUrl}`));
process.on('SIGTERM', () => {
  clearInterval(timer);
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
