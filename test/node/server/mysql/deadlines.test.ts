/**
 * Every call of the MySQL store has a deadline: a database that is late (rows locked by another
 * connection, a lock wait the server gives up on) or gone (the server stopped) makes the call fail
 * with StoreUnavailableError within its time, not hang; once the database is back, the store works
 * again. On a throwaway MariaDB server of this file's own, since it is stopped and started.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import mysql from 'mysql2/promise';
import { startMariadb, type ThrowawayMariadb } from '../../../../scripts/mariadb.mjs';
import { createMysqlStore } from '../../../../src/server/mysql.js';
import { sampleBooking as booking } from '../../../../src/server/store-suite.js';
import { busyPoolTest, deadlineRefusalTest, lockedTablesTest, serverDownTests, unavailable } from '../../../support/store-deadlines.js';

describe('MySQL store: deadlines and an unreachable database', () => {
  let server: ThrowawayMariadb;
  const pools: mysql.Pool[] = [];
  const newPool = (options: mysql.PoolOptions = {}) => {
    const pool = mysql.createPool({ uri: `${server.uri}deadlines`, connectionLimit: 4, ...options });
    pool.on('connection', (connection) => connection.on('error', () => {}));
    pools.push(pool);
    return pool;
  };

  before(async () => {
    server = await startMariadb();
    const admin = await mysql.createConnection(server.uri);
    await admin.query('CREATE DATABASE deadlines');
    await admin.end();
  });
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
    await server?.stop();
  });

  lockedTablesTest(async () => {
    const store = createMysqlStore(newPool(), { tablePrefix: 'lock_', deadlineMs: 400 });
    // The tables first, in set-up's own longer time: a first call waits on set-up only 400 ms, too
    // short for a dozen statements on a busy machine.
    await store.ready();
    await store.insertBooking({ booking: booking(1) });
    const locker = await mysql.createConnection(`${server.uri}deadlines`);
    await locker.query('LOCK TABLES lock_bookings WRITE, lock_leases WRITE, lock_results WRITE, lock_lease_tokens WRITE');
    return { store, unlock: () => locker.end() };
  });

  test("the server's own lock wait timeout (innodb_lock_wait_timeout) counts as the deadline too", async () => {
    // A pool set up as docs/server.md says: the server gives up on a lock wait after a second.
    const pool = newPool();
    pool.on('connection', (connection) => void connection.query('SET SESSION innodb_lock_wait_timeout = 1'));
    const store = createMysqlStore(pool, { tablePrefix: 'wait_', deadlineMs: 5_000 });
    await store.insertBooking({ booking: booking(1) });
    const locker = await mysql.createConnection(`${server.uri}deadlines`);
    try {
      await locker.query('START TRANSACTION');
      await locker.query(`SELECT * FROM wait_bookings FOR UPDATE`);
      const tookMs = await unavailable(() => store.claimOpenBookings({ olderThanMs: 0, notCheckedForMs: 0, limit: 5, owner: 'a', leaseMs: 100 }), 'deadline');
      assert.ok(tookMs < 4_000, `failed after ${tookMs} ms`);
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
  });

  serverDownTests((tablePrefix) => createMysqlStore(newPool(), { tablePrefix, deadlineMs: 3_000 }), () => server);

  busyPoolTest(() => {
    const pool = newPool({ connectionLimit: 1 });
    return { store: createMysqlStore(pool, { tablePrefix: 'busy_', deadlineMs: 400 }), hold: () => pool.getConnection() };
  });

  deadlineRefusalTest((options) => createMysqlStore(newPool(), options));
});
