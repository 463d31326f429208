import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createPostgresStore, postgresSchema, SCHEMA_VERSION } from '../../../../src/server/postgres.js';
import { sampleBooking as booking, storeSuite } from '../../../../src/server/store-suite.js';
import { StoreUnavailableError } from '../../../../src/server/store-errors.js';
import { freshDatabase, stopServer } from './pg-server.js';

const pools: pg.Pool[] = [];
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await stopServer();
});

async function pool(): Promise<pg.Pool> {
  const created = new pg.Pool({ connectionString: await freshDatabase(), max: 8 });
  // An idle client told of the server's shutdown emits 'error' on the pool (node-postgres' docs: handle it).
  created.on('error', () => {});
  pools.push(created);
  return created;
}

describe('PostgreSQL store on a PostgreSQL 15 server (node-postgres Pool)', () => {
  let prefix = 0;
  storeSuite('PostgreSQL 15', async () => createPostgresStore(await pool(), { tablePrefix: `c${++prefix}_` }), { test, assert });

  test('creates its tables idempotently, from several stores at once, with a schema version', async () => {
    const db = await pool();
    const stores = Array.from({ length: 6 }, () => createPostgresStore(db, { tablePrefix: 'race_' }));
    await Promise.all(stores.map((store) => store.ready()));
    const { rows } = await db.query(`SELECT version FROM race_meta WHERE name = 'schema'`);
    assert.deepEqual(rows, [{ version: SCHEMA_VERSION }]);
    await createPostgresStore(db, { tablePrefix: 'race_' }).ready();
    const tables = await db.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'race_%' ORDER BY 1`);
    assert.deepEqual(tables.rows.map((r) => r.tablename), ['race_bookings', 'race_leases', 'race_meta', 'race_results']);
    const sequences = await db.query(`SELECT sequencename FROM pg_sequences WHERE sequencename LIKE 'race_%'`);
    assert.deepEqual(sequences.rows.map((r) => r.sequencename), ['race_lease_tokens']);
  });

  test('stores of processes that start while another already books set themselves up with no raw driver error: a deadlock with the running books is tried again, at worst an outage (IP-503)', async () => {
    const url = await freshDatabase();
    const opened: pg.Pool[] = [];
    const open = (max: number) => {
      const db = new pg.Pool({ connectionString: url, max });
      // An idle client told of the server's shutdown emits 'error' on the pool (node-postgres' docs: handle it).
      db.on('error', () => {});
      opened.push(db);
      return db;
    };
    const first = createPostgresStore(open(8));
    await first.ready();
    // What reached a caller that is neither an answer nor an outage: a raw driver error, IP-500 to a shopper.
    const raw: string[] = [];
    const outageOrAnswer = (error: unknown) => {
      if (!(error instanceof StoreUnavailableError)) raw.push(String(error));
    };
    let stop = false;
    let n = 0;
    // The first process books without pause on its own connections.
    const traffic = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (!stop) {
          const i = (n += 1);
          await first.beginBooking({ key: `key-${i}`, orderKey: `o-${i % 5}`, lease: `order:o-${i % 5}`, owner: `w${i}`, leaseMs: 50 }).catch(outageOrAnswer);
          await first.insertBooking({ booking: booking(i, { order_key: `o-${i % 5}` }) }).catch(outageOrAnswer);
        }
      }),
    );
    try {
      for (let round = 0; round < 3; round++) {
        const late = Array.from({ length: 4 }, () => createPostgresStore(open(2)));
        // Their first calls set them up, as a fresh process's first requests do.
        await Promise.all(late.map((store) => store.getBookingByKey({ key: 'key-1' }).catch(outageOrAnswer)));
      }
    } finally {
      stop = true;
      await traffic;
      await Promise.all(opened.map((db) => db.end()));
    }
    assert.deepEqual(raw, []);
  });

  test("finds open bookings and an order's bookings by an index, and refuses a newer schema (untouched) or a bad prefix", async () => {
    const db = await pool();
    const store = createPostgresStore(db);
    await store.ready();
    await db.query('SET enable_seqscan = off');
    const plan = async (sql: string) => (await db.query(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    assert.match(await plan(`SELECT booking_id FROM wpb_bookings WHERE NOT settled AND created_at <= 5 ORDER BY created_at`), /wpb_bookings_open/);
    assert.match(await plan(`SELECT booking_id, settled FROM wpb_bookings WHERE order_key = 'x' ORDER BY created_at`), /wpb_bookings_order\b/);
    // A newer version's database (here: one without this version's order index) is refused, not altered.
    await db.query(`DROP INDEX wpb_bookings_order`);
    await db.query(`UPDATE wpb_meta SET version = ${SCHEMA_VERSION + 1}`);
    await assert.rejects(createPostgresStore(db).ready(), new RegExp(`schema version ${SCHEMA_VERSION + 1}; this code reads version ${SCHEMA_VERSION}\\.$`));
    const indexes = await db.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'wpb_bookings' AND indexname = 'wpb_bookings_order'`);
    assert.equal(indexes.rows.length, 0);
    assert.deepEqual((await db.query(`SELECT version FROM wpb_meta`)).rows, [{ version: SCHEMA_VERSION + 1 }]);
    assert.throws(() => createPostgresStore(db, { tablePrefix: 'Bad-Prefix' }), /tablePrefix must be lower-case/);
    assert.match(postgresSchema('shop_').join(';\n'), /CREATE TABLE IF NOT EXISTS shop_bookings/);
  });

  test('migrates a version-1 database in place, from several processes at once, keeping its bookings', async () => {
    const db = await pool();
    const first = createPostgresStore(db);
    await first.insertBooking({ booking: booking(1, { order_key: 'same' }) });
    await first.claimResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'a', leaseMs: 100 });
    await first.completeResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'a' });
    // Version 1: the same tables, an index of the open bookings of each order only.
    await db.query(`DROP INDEX wpb_bookings_order`);
    await db.query(`CREATE INDEX wpb_bookings_order_open ON wpb_bookings (order_key) WHERE NOT settled`);
    await db.query(`UPDATE wpb_meta SET version = 1`);
    await db.query(`DROP FUNCTION wpb_begin_booking`);
    await db.query(`DROP SEQUENCE wpb_lease_tokens`);
    await db.query(`ALTER TABLE wpb_leases DROP COLUMN token`);
    await assert.rejects(createPostgresStore(db, { createTables: false }).ready(), new RegExp(`schema version 1; this code reads version ${SCHEMA_VERSION}: run postgresSchema\\(\\)'s SQL`));

    const stores = Array.from({ length: 6 }, () => createPostgresStore(db));
    await Promise.all(stores.map((store) => store.ready()));
    assert.deepEqual((await db.query(`SELECT version FROM wpb_meta`)).rows, [{ version: SCHEMA_VERSION }]);
    const indexes = await db.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'wpb_bookings' ORDER BY 1`);
    assert.deepEqual(indexes.rows.map((r) => r.indexname), [
      'wpb_bookings_canceled',
      'wpb_bookings_correlation_id_key',
      'wpb_bookings_created',
      'wpb_bookings_idempotency_key_key',
      'wpb_bookings_open',
      'wpb_bookings_order',
      'wpb_bookings_pkey',
    ]);
    assert.equal((await stores[0]!.getOrderState({ orderKey: 'same' })).paid?.booking_id, 'bk-1', 'the paid booking is found after the migration');
    const opening = await stores[1]!.beginBooking({ key: 'key-new', orderKey: 'same', lease: 'order:same', owner: 'b', leaseMs: 2 });
    assert.equal(opening.status === 'leased' && opening.order.paid?.booking_id, 'bk-1', 'and by the function of version 4');
  });

  test('migrates a version-3 database (leases without tokens, the old function) in place, from several processes at once, keeping a held lease held', async () => {
    const db = await pool();
    const first = createPostgresStore(db);
    await first.insertBooking({ booking: booking(1, { order_key: 'same' }) });
    // Version 3: leases without a token, timed by the processes' clocks, and the function of six arguments.
    await db.query(`DROP FUNCTION wpb_begin_booking`);
    await db.query(`DROP SEQUENCE wpb_lease_tokens`);
    await db.query(`ALTER TABLE wpb_leases DROP COLUMN token`);
    await db.query(`CREATE FUNCTION wpb_begin_booking(a text, b text, c text, d text, e bigint, f bigint) RETURNS jsonb LANGUAGE sql AS $$ SELECT '{}'::jsonb $$`);
    await db.query(`INSERT INTO wpb_leases (name, owner, lease_until) VALUES ('order:held', 'old', $1)`, [Date.now() + 60_000]);
    await db.query(`UPDATE wpb_meta SET version = 3`);
    await assert.rejects(createPostgresStore(db, { createTables: false }).ready(), new RegExp(`schema version 3; this code reads version ${SCHEMA_VERSION}`));
    const stores = Array.from({ length: 6 }, () => createPostgresStore(db));
    await Promise.all(stores.map((store) => store.ready()));
    assert.deepEqual((await db.query(`SELECT version FROM wpb_meta`)).rows, [{ version: SCHEMA_VERSION }]);
    assert.deepEqual((await db.query(`SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'wpb_begin_booking'`)).rows, [{ n: 1 }], 'the old function is gone');
    const opening = await stores[0]!.beginBooking({ key: 'key-1', orderKey: 'same', lease: 'order:same', owner: 'a', leaseMs: 2 });
    assert.equal(opening.status === 'booked' && opening.booking.booking_id, 'bk-1');
    assert.deepEqual(await stores[1]!.beginBooking({ key: 'key-2', orderKey: 'held', lease: 'order:held', owner: 'new', leaseMs: 2 }), { status: 'busy' });
  });

  test('sends its statements to node-postgres as named prepared statements, two table prefixes on one connection apart; plain text when told not to', async () => {
    const client = new pg.Client({ connectionString: await freshDatabase() });
    await client.connect();
    try {
      const prepared = async () => (await client.query(`SELECT name FROM pg_prepared_statements ORDER BY name`)).rows.map((r) => String(r.name));
      const book = async (store: ReturnType<typeof createPostgresStore>, n: number) => {
        const b = booking(n);
        const opening = await store.beginBooking({ key: b.idempotency_key, orderKey: b.order_key, lease: `order:${b.order_key}`, owner: 'a', leaseMs: 60_000 });
        if (opening.status !== 'leased') throw new Error(`book ${n}: ${opening.status}`);
        assert.equal(await store.insertBooking({ booking: b, hold: { lease: `order:${b.order_key}`, owner: 'a', token: opening.token } }), 'saved');
      };
      const plain = createPostgresStore(client, { tablePrefix: 'plain_', preparedStatements: false });
      await book(plain, 1);
      assert.deepEqual(await prepared(), [], 'plain text: nothing prepared');
      const one = createPostgresStore(client, { tablePrefix: 'one_' });
      const two = createPostgresStore(client, { tablePrefix: 'two_' });
      for (let n = 1; n <= 3; n++) await book(one, n);
      const ofOne = await prepared();
      assert.equal(ofOne.length, 2, `a book's two statements, prepared once for three books: ${ofOne.join(', ')}`);
      for (let n = 1; n <= 3; n++) await book(two, n);
      assert.equal((await prepared()).length, 4, 'the other prefix, its own statements');
      assert.equal((await one.getOrderState({ orderKey: 'order-2' })).open[0]?.booking_id, 'bk-2');
      assert.equal((await two.getOrderState({ orderKey: 'order-3' })).open[0]?.booking_id, 'bk-3');
    } finally {
      await client.end();
    }
  });

  test("claims at once hand out at most their limit each, whatever plan the table's statistics pick", async () => {
    // Statistics read off a table just emptied (as autovacuum's ANALYZE takes them on a busy one) make the
    // planner join the claim's locked pick back to the table; a pick run again inside that join claimed
    // a second booking that nobody was told of, which then sat out its lease unchecked.
    const db = await pool();
    const store = createPostgresStore(db, { tablePrefix: 'plan_' });
    await store.ready();
    for (let n = 1000; n < 1150; n++) await store.insertBooking({ booking: booking(n) });
    await db.query('DELETE FROM plan_bookings');
    await db.query('ANALYZE plan_bookings');
    for (let round = 0; round < 20; round++) {
      const ids = [1, 2, 3].map((n) => 10 * round + n);
      for (const n of ids) await store.insertBooking({ booking: booking(n) });
      const claims = await Promise.all(Array.from({ length: 6 }, () => store.claimOpenBookings({ olderThanMs: 0, notCheckedForMs: 0, limit: 1, owner: 'pass', leaseMs: 60_000 })));
      for (const claim of claims) assert.ok(claim.length <= 1, `round ${round}: a claim of one answered ${claim.map((b) => b.booking_id).join(', ')}`);
      assert.deepEqual(claims.flat().map((b) => b.booking_id).sort(), ids.map((n) => `bk-${n}`).sort(), `round ${round}: each booking claimed once, by a claim that answered it`);
      const held = await db.query(`SELECT booking_id FROM plan_bookings WHERE check_until > 0 ORDER BY booking_id`);
      assert.deepEqual(held.rows.map((r) => r.booking_id), ids.map((n) => `bk-${n}`).sort(), `round ${round}: no booking claimed but not answered`);
      await db.query('DELETE FROM plan_bookings');
    }
  });

  test("docs/server.md names the schema's version and functions as the code has them", async () => {
    const docs = await readFile(new URL('../../../../docs/server.md', import.meta.url), 'utf8');
    const sql = postgresSchema().join('\n');
    assert.ok(docs.includes(`version ${SCHEMA_VERSION}, every statement idempotent, so it also migrates versions 1 to ${SCHEMA_VERSION - 1}`), 'the version');
    for (const name of sql.match(/FUNCTION wpb_\w+/g) ?? []) assert.ok(docs.includes(`\`${name.slice('FUNCTION '.length)}\``), `docs/server.md lacks ${name}`);
    assert.ok(docs.includes('m.postgresSchema()'), 'how to print the SQL');
  });
});

describe('PostgreSQL store on PGlite', () => {
  let lite: PGlite;
  let prefix = 0;
  after(() => lite?.close());
  storeSuite('PGlite', async () => {
    lite ??= await PGlite.create();
    return createPostgresStore(lite, { tablePrefix: `l${++prefix}_` });
  }, { test, assert });
});
