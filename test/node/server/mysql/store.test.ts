import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type mysql from 'mysql2/promise';
import { createPool } from 'mysql2';
import { createMysqlStore, mysqlSchema, MYSQL_SCHEMA_VERSION } from '../../../../src/server/mysql.js';
import { sampleBooking as booking, storeSuite } from '../../../../src/server/store-suite.js';
import { freshDatabase, newPool, stopServer } from './mariadb-server.js';
import { findMariadb, mariadbVersion } from '../../../../scripts/mariadb.mjs';

const pools: mysql.Pool[] = [];
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await stopServer();
});

async function pool(): Promise<mysql.Pool> {
  const created = newPool(await freshDatabase());
  pools.push(created);
  return created;
}

describe('MySQL store on a MariaDB 10.11 server (mysql2/promise pool)', () => {
  let shared: mysql.Pool | undefined;
  let prefix = 0;
  storeSuite('MariaDB 10.11', async () => {
    shared ??= await pool();
    return createMysqlStore(shared, { tablePrefix: `c${++prefix}_` });
  }, { test, assert });

  test('creates its tables and procedures idempotently, from several stores at once, with a schema version', async () => {
    const db = await pool();
    const stores = Array.from({ length: 6 }, () => createMysqlStore(db, { tablePrefix: 'race_' }));
    await Promise.all(stores.map((store) => store.ready()));
    const [rows] = await db.query(`SELECT version FROM race_meta WHERE name = 'schema'`);
    assert.deepEqual(rows, [{ version: MYSQL_SCHEMA_VERSION }]);
    await createMysqlStore(db, { tablePrefix: 'race_' }).ready();
    const [tables] = await db.query(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE 'race\\_%' ORDER BY 1`);
    assert.deepEqual((tables as Array<{ t: string }>).map((r) => r.t).sort(), ['race_bookings', 'race_lease_tokens', 'race_leases', 'race_meta', 'race_results'].sort());
  });

  test('a claim answers only what it claimed: the same owner claiming again within the same millisecond gets nothing', async () => {
    // One connection, its clock stopped (MariaDB's session timestamp): every call is at the same millisecond.
    const db = newPool(await freshDatabase(), { connectionLimit: 1 });
    pools.push(db);
    await db.query('SET timestamp = 1800000000.123');
    const store = createMysqlStore(db);
    await store.insertBooking({ booking: booking(1) });
    await store.insertBooking({ booking: booking(2) });
    const claim = () => store.claimOpenBookings({ olderThanMs: 0, notCheckedForMs: 60_000, limit: 10, owner: 'a', leaseMs: 60_000 }).then((list) => list.map((b) => b.booking_id).sort());
    assert.deepEqual(await claim(), ['bk-1', 'bk-2']);
    assert.deepEqual(await claim(), [], 'the first claim\'s bookings are not this one\'s');
    await store.insertBooking({ booking: booking(3) });
    assert.deepEqual(await claim(), ['bk-3'], 'a new booking alone');
  });

  test('keeps text byte for byte: keys differing only in case are two keys, and a Nepali order comes back whole', async () => {
    const store = createMysqlStore(await pool());
    assert.equal(await store.insertBooking({ booking: booking(1, { idempotency_key: 'Key-Case-0000001' }) }), 'saved');
    assert.equal(await store.insertBooking({ booking: booking(2, { idempotency_key: 'key-case-0000001' }) }), 'saved');
    const order = { id: 'नेपाल-१', note: 'चिया 🍵', lines: [{ sku: 'Ä', qty: 1 }] };
    await store.insertBooking({ booking: booking(3, { order, order_key: JSON.stringify(order) }) });
    assert.deepEqual((await store.getBookingByKey({ key: 'key-3' }))?.order, order);
    assert.deepEqual((await store.getOrderState({ orderKey: JSON.stringify(order) })).open.map((b) => b.booking_id), ['bk-3']);
    const long = 'x'.repeat(5_000);
    await store.insertBooking({ booking: booking(4, { order_key: long }) });
    const opening = await store.beginBooking({ key: 'key-long', orderKey: long, lease: `order:${long}`, owner: 'a', leaseMs: 60_000 });
    assert.deepEqual(opening.status === 'leased' && opening.order.open.map((b) => b.booking_id), ['bk-4']);
    assert.deepEqual(await store.beginBooking({ key: 'key-long2', orderKey: long, lease: `order:${long}`, owner: 'b', leaseMs: 60_000 }), { status: 'busy' }, 'a long lease name is one lease');
  });

  test('refuses a newer schema (untouched), a bad prefix, a callback pool, and migrates an older one (or says what to run)', async () => {
    const uri = await freshDatabase();
    const db = newPool(uri);
    pools.push(db);
    await createMysqlStore(db).ready();
    await db.query(`UPDATE wpb_meta SET version = ${MYSQL_SCHEMA_VERSION + 1}`);
    await assert.rejects(createMysqlStore(db).ready(), new RegExp(`schema version ${MYSQL_SCHEMA_VERSION + 1}; this code reads version ${MYSQL_SCHEMA_VERSION}\\.$`));
    await db.query(`UPDATE wpb_meta SET version = 0`);
    await assert.rejects(createMysqlStore(db, { createTables: false }).ready(), new RegExp(`schema version 0; this code reads version ${MYSQL_SCHEMA_VERSION}: run mysqlSchema\\(\\)'s SQL`));
    await Promise.all(Array.from({ length: 4 }, () => createMysqlStore(db).ready()));
    const [migrated] = await db.query(`SELECT version FROM wpb_meta`);
    assert.deepEqual(migrated, [{ version: MYSQL_SCHEMA_VERSION }], 'an older schema is migrated at start, from several stores at once');
    assert.throws(() => createMysqlStore(db, { tablePrefix: 'Bad-Prefix' }), /tablePrefix must be lower-case/);
    assert.throws(() => createMysqlStore({} as mysql.Pool), /needs a mysql2\/promise pool/);
    // mysql2's callback API: its query answers no promise.
    const callbacks = createPool(uri);
    try {
      await assert.rejects(createMysqlStore(callbacks as unknown as mysql.Pool).ready(), /needs a promise pool: createPool of 'mysql2\/promise', or pool.promise\(\)/);
    } finally {
      await new Promise((resolve) => callbacks.end(resolve));
    }
    assert.match(mysqlSchema('shop_').join(';\n'), /CREATE TABLE IF NOT EXISTS shop_bookings/);
  });

  test('imports no database driver (mysql2 is an optional peer dependency, never a dependency)', async () => {
    for (const file of ['mysql.ts', 'mysql-schema.ts', 'mysql-connection.ts']) {
      const source = await readFile(new URL(`../../../../src/server/${file}`, import.meta.url), 'utf8');
      assert.doesNotMatch(source, /from\s+'(?:mysql2|ioredis|iovalkey)(?:\/[^']*)?'/, file);
    }
    const manifest = JSON.parse(await readFile(new URL('../../../../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.equal(manifest.dependencies?.['mysql2'], undefined);
    assert.deepEqual(manifest.peerDependenciesMeta?.['mysql2'], { optional: true });
  });
  test('finds MariaDB where $MARIADB_BIN says, and names the fix when it is not there', () => {
    const saved = process.env.MARIADB_BIN;
    try {
      process.env.MARIADB_BIN = '/nonexistent/mariadb/bin';
      assert.throws(() => findMariadb(), /MARIADB_BIN is set to \/nonexistent\/mariadb\/bin, but mariadbd and mariadb-install-db are not both there/);
      delete process.env.MARIADB_BIN;
      const found = findMariadb();
      assert.ok(found, 'this machine has MariaDB (npm test installs it)');
      assert.match(mariadbVersion(found.server), /MariaDB/);
    } finally {
      if (saved === undefined) delete process.env.MARIADB_BIN;
      else process.env.MARIADB_BIN = saved;
    }
  });
});
