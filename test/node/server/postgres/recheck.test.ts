/**
 * On PostgreSQL: a payment that lands after the shopper's `/cancel`, its callback lost (the sandbox's
 * WPS-006), is delivered by `reconcile()` once, and a cancelled booking is asked about only within the
 * recheck window, by the database's clock.
 */
import { after } from 'node:test';
import pg from 'pg';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { storeRecheckTests } from '../recheck-story.js';
import { freshDatabase, stopServer } from './pg-server.js';

const pools: pg.Pool[] = [];
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await stopServer();
});

storeRecheckTests('PostgreSQL', async () => {
  const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 4 });
  pool.on('error', () => {});
  pools.push(pool);
  return createPostgresStore(pool);
});
