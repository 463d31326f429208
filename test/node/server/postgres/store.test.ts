import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createPostgresStore, postgresSchema, SCHEMA_VERSION } from '../../../../src/server/postgres.js';
import { storeContract } from '../store-contract.js';
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
  storeContract(async () => createPostgresStore(await pool(), { tablePrefix: `c${++prefix}_` }));

  test('creates its tables idempotently, from several stores at once, with a schema version', async () => {
    const db = await pool();
    const stores = Array.from({ length: 6 }, () => createPostgresStore(db, { tablePrefix: 'race_' }));
    await Promise.all(stores.map((store) => store.ready()));
    const { rows } = await db.query(`SELECT version FROM race_meta WHERE name = 'schema'`);
    assert.deepEqual(rows, [{ version: SCHEMA_VERSION }]);
    await createPostgresStore(db, { tablePrefix: 'race_' }).ready();
    const tables = await db.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'race_%' ORDER BY 1`);
    assert.deepEqual(tables.rows.map((r) => r.tablename), ['race_bookings', 'race_leases', 'race_meta', 'race_results']);
  });

  test('finds open bookings by an index, and refuses a newer schema or a bad prefix', async () => {
    const db = await pool();
    const store = createPostgresStore(db);
    await store.ready();
    await db.query('SET enable_seqscan = off');
    const plan = await db.query(`EXPLAIN SELECT booking_id FROM wpb_bookings WHERE NOT settled AND created_at <= 5 ORDER BY created_at`);
    assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /wpb_bookings_open/);
    await db.query(`UPDATE wpb_meta SET version = ${SCHEMA_VERSION + 1}`);
    await assert.rejects(createPostgresStore(db).ready(), /schema version 2; this code reads version 1/);
    assert.throws(() => createPostgresStore(db, { tablePrefix: 'Bad-Prefix' }), /tablePrefix must be lower-case/);
    assert.match(postgresSchema('shop_').join(';\n'), /CREATE TABLE IF NOT EXISTS shop_bookings/);
  });

  test("docs/server.md shows the schema's SQL as the code runs it", async () => {
    const docs = await readFile(new URL('../../../../docs/server.md', import.meta.url), 'utf8');
    for (const statement of postgresSchema()) assert.ok(docs.includes(`${statement};`), `docs/server.md lacks:\n${statement}`);
  });
});

describe('PostgreSQL store on PGlite', () => {
  let lite: PGlite;
  let prefix = 0;
  after(() => lite?.close());
  storeContract(async () => {
    lite ??= await PGlite.create();
    return createPostgresStore(lite, { tablePrefix: `l${++prefix}_` });
  });
});
