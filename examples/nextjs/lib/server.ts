/**
 * The shop of this Next.js app, made once per server process. Route handlers of one app can be
 * loaded as separate modules, so the instance lives on `globalThis`, as the store does.
 */
import pg from 'pg';
import { createMemoryStore } from 'wallet-pay-button/server';
import { createPostgresStore } from 'wallet-pay-button/server/postgres';
import { createShop, readConfig, type Shop } from './shop';

const holder = globalThis as { walletPayShop?: Shop };

export function getShop(): Shop {
  // Read at the first request, not at build time: the settings belong to the deployment.
  holder.walletPayShop ??= createShop(
    readConfig(process.env),
    // PostgreSQL in production; the memory store (one process, lost on restart) only to try things out.
    process.env.DATABASE_URL ? createPostgresStore(new pg.Pool({ connectionString: process.env.DATABASE_URL })) : createMemoryStore(),
  );
  return holder.walletPayShop;
}
