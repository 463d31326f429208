/**
 * The shop on Cloudflare Workers: the kit at /api/pay with no adapter, the pages, the element's files
 * as static assets, and the spec's five-minute status check as a Cron Trigger (`scheduled`), since a
 * worker keeps no timer running between requests.
 */
import pg from 'pg';
import { createMemoryStore, refuseMalformed, type PaymentStore } from 'wallet-pay-button/server';
import { createPostgresStore } from 'wallet-pay-button/server/postgres';
import { createShop, readConfig, type Shop } from './shop.ts';

interface Env {
  [name: string]: unknown;
  /** The element's files (wrangler.jsonc `assets`). */
  ASSETS: { fetch(request: Request): Promise<Response> };
  /** A Hyperdrive binding in production (its connectionString); or a plain DATABASE_URL. */
  HYPERDRIVE?: { connectionString: string };
  DATABASE_URL?: string;
}

interface Context {
  waitUntil(work: Promise<unknown>): void;
}

/**
 * PostgreSQL on Workers: a connection may not outlive the request that opened it, so each query
 * opens its own client (Hyperdrive keeps the real connections pooled, which makes this cheap).
 */
function postgresStore(connectionString: string): PaymentStore {
  return createPostgresStore({
    async query(text: string, params?: unknown[]) {
      const client = new pg.Client({ connectionString });
      await client.connect();
      try {
        return await client.query(text, params);
      } finally {
        void client.end();
      }
    },
  });
}

// One shop per isolate: the handler and its store live as long as the isolate does.
let shop: Shop | undefined;
function shopOf(env: Env): Shop {
  const database = env.HYPERDRIVE?.connectionString ?? env.DATABASE_URL;
  // The memory store lives in one isolate only: to try things out, never in production.
  shop ??= createShop(readConfig(env as Record<string, string | undefined>), database ? postgresStore(database) : createMemoryStore());
  return shop;
}

/** Reads and drops a body, up to `limit` bytes. */
async function drain(body: ReadableStream<Uint8Array>, limit: number): Promise<void> {
  const reader = body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to read.
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // A malformed Host or a TRACE: 400 or 405 in JSON, never the runtime's error page.
    const refused = refuseMalformed(request, 'GET, HEAD, POST');
    if (refused) return refused;
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/wallet-pay-button/')) return env.ASSETS.fetch(request);
    const current = shopOf(env);
    if (pathname.startsWith('/api/pay/')) {
      const answer = await current.handler(request);
      // The kit answers some requests without reading their body (IP-413 from Content-Length, IP-405).
      // The runtime closes the connection on a body left unread, and a client still sending it sees a
      // reset instead of the answer: read the rest first, up to a bound.
      if (request.body && !request.bodyUsed) await drain(request.body, 8 * 1024 * 1024);
      return answer;
    }
    return current.page(request) ?? new Response('Not found', { status: 404 });
  },
  // wrangler.jsonc `triggers.crons`: every five minutes, the bounded reconcile pass.
  async scheduled(_event: unknown, env: Env, context: Context): Promise<void> {
    context.waitUntil(shopOf(env).reconcileNow());
  },
};
