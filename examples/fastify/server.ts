/** The shop on Fastify 5: the kit at /api/pay on the raw request, the pages, a reconcile timer. */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { createMemoryStore } from 'wallet-pay-button/server';
import { toNodeListener } from 'wallet-pay-button/server/node';
import { createPostgresStore } from 'wallet-pay-button/server/postgres';
import { createShop, readConfig } from './shop.ts';

const config = readConfig(process.env);
// PostgreSQL in production; the memory store (one process, lost on restart) only to try things out.
const store = process.env.DATABASE_URL ? createPostgresStore(new pg.Pool({ connectionString: process.env.DATABASE_URL })) : createMemoryStore();
const shop = createShop(config, store);
const elementDir = join(dirname(fileURLToPath(import.meta.resolve('wallet-pay-button/package.json'))), 'dist', 'cdn');

// The kit at /api/pay takes the raw request before Fastify's routing and body parsing: it reads the
// exact bytes itself (callbacks are verified on what the service signed) and gives every answer,
// IP-413 for a body too large and IP-415 for another content type included, in its own envelope.
const pay = toNodeListener(shop.handler);
// The pages through the kit's Node adapter too: a malformed Host or a TRACE is 400 or 405 in JSON, as on
// /api/pay, never a page. Fastify serves the element's files.
const pages = toNodeListener(async (request) => shop.page(request) ?? new Response('Not found', { status: 404 }));
const app = Fastify({
  serverFactory: (fastify) =>
    createServer((request, response) => {
      const url = request.url ?? '/';
      return (url.startsWith('/api/pay/') ? pay : url.startsWith('/wallet-pay-button/') ? fastify : pages)(request, response);
    }),
});
app.get('/wallet-pay-button/:file', async (request, reply) => {
  const { file } = request.params as { file: string };
  const body = /^[\w.-]+\.js$/.test(file) ? await readFile(join(elementDir, file)).catch(() => undefined) : undefined;
  return body ? reply.type('text/javascript; charset=utf-8').send(body) : reply.code(404).send('Not found');
});

// A long-lived process: a timer runs the spec's five-minute status check of forgotten payments.
const timer = setInterval(() => shop.reconcileNow().catch((error) => console.error('reconcile', error)), Number(process.env.RECONCILE_EVERY_MS || 60_000));
app.addHook('onClose', async () => clearInterval(timer));
await app.listen({ port: Number(process.env.PORT || 3000), host: '127.0.0.1' });
console.log(`shop listening on ${config.publicUrl}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
