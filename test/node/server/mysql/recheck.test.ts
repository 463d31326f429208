/**
 * On MariaDB: a payment that lands after the shopper's `/cancel`, its callback lost (the sandbox's
 * WPS-006), is delivered by `reconcile()` once, and a cancelled booking is asked about only within the
 * recheck window, by the database's clock.
 */
import { after } from 'node:test';
import type mysql from 'mysql2/promise';
import { createMysqlStore } from '../../../../src/server/mysql.js';
import { storeRecheckTests } from '../recheck-story.js';
import { freshDatabase, newPool, stopServer } from './mariadb-server.js';

const pools: mysql.Pool[] = [];
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await stopServer();
});

storeRecheckTests('MariaDB', async () => {
  const pool = newPool(await freshDatabase());
  pools.push(pool);
  return createMysqlStore(pool);
});
