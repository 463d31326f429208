/**
 * The MySQL store opens the tables and procedures of the previous release on MariaDB
 * (test/fixtures/previous-release): its bookings read as eSewa's intent service's and work beside new
 * ones of another provider, and its procedures stay for instances of it still running.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type mysql from 'mysql2/promise';
import { createMysqlStore, MYSQL_SCHEMA_VERSION } from '../../../../src/server/mysql.js';
import { checkPreviousRelease, loadMariadb, previousMariadb } from '../../../fixtures/previous-release/index.js';
import { freshDatabase, newPool, stopServer } from './mariadb-server.js';

let pool: mysql.Pool | undefined;
after(async () => {
  await pool?.end();
  await stopServer();
});

test("opens the previous release's tables (schema version 1) from several processes at once, and reads and works its bookings", async () => {
  pool = newPool(await freshDatabase());
  await loadMariadb(pool);
  assert.ok(previousMariadb.version < MYSQL_SCHEMA_VERSION, `the fixture is of an earlier schema: ${previousMariadb.version}`);
  await assert.rejects(
    createMysqlStore(pool, { createTables: false }).ready(),
    new RegExp(`schema version ${previousMariadb.version}; this code reads version ${MYSQL_SCHEMA_VERSION}: run mysqlSchema\\(\\)'s SQL`),
  );
  await checkPreviousRelease(previousMariadb, () => createMysqlStore(pool!));
  const [version] = await pool.query(`SELECT version FROM wpb_meta`);
  assert.deepEqual(version, [{ version: MYSQL_SCHEMA_VERSION }]);

  // An instance of the previous release still running books through its own procedure: the row
  // carries the column defaults, and reads as eSewa's intent service's.
  await pool.query(`CALL wpb_insert_booking(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL)`, [
    'bk-old-5', 'cr-old-5', 'tx-old-5', 'key-old-5', '["v2","app","O-LATE"]', 'app', '{"id":"O-LATE"}', '{"id":"O-LATE"}', 10, 'http://links.test/pay/bk-old-5',
  ]);
  const late = await createMysqlStore(pool).getBookingByKey({ key: 'key-old-5' });
  assert.deepEqual([late?.booking_id, late?.provider, late?.provider_data], ['bk-old-5', 'esewa-intent', '']);
});
