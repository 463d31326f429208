/**
 * The shop on Hono, served by @hono/node-server. No timer: each status check may start one bounded
 * reconcile pass, which is how the same code reconciles on a host that keeps no process running.
 */
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createMemoryStore, refuseMalformed } from 'wallet-pay-button/server';
import { createPostgresStore } from 'wallet-pay-button/server/postgres';
import { createShop, readConfig, reconcileOnStatus } from './shop.ts';

const config = readConfig(process.env);
// PostgreSQL in production; the memory store (one process, lost on restart) only to try things out.
const store = process.env.DATABASE_URL ? createPostgresStore(new pg.Pool({ connectionString: process.env.DATABASE_URL })) : createMemoryStore();
const shop = createShop(config, store);
const pay = reconcileOnStatus(shop, Number(process.env.RECONCILE_EVERY_MS || 60_000));
const elementDir = join(dirname(fileURLToPath(import.meta.resolve('wallet-pay-button/package.json'))), 'dist', 'cdn');

const app = new Hono();
// A TRACE on any path: 405 in JSON, as on /api/pay, never a page (a malformed Host never gets this far:
// @hono/node-server answers it with an empty 400).
app.use('*', async (c, next) => refuseMalformed(c.req.raw, 'GET, HEAD, POST') ?? next());
// The raw Request: Hono has not read its body, so the kit verifies the exact bytes.
app.all('/api/pay/*', (c) => pay(c.req.raw));
app.use('/wallet-pay-button/*', serveStatic({ root: relative(process.cwd(), elementDir), rewriteRequestPath: (path) => path.replace(/^\/wallet-pay-button/, '') }));
app.get('*', (c) => shop.page(c.req.raw) ?? c.notFound());

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT || 3000), hostname: '127.0.0.1' }, () => console.log(`shop listening on ${config.publicUrl}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
