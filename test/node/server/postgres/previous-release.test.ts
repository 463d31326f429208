/**
 * The PostgreSQL store opens the tables of the previous release (test/fixtures/previous-release): its
 * bookings read as eSewa's intent service's and work beside new ones of another provider.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresStore, SCHEMA_VERSION } from '../../../../src/server/postgres.js';
import { checkPreviousRelease, loadPostgres, previousPostgres } from '../../../fixtures/previous-release/index.js';
import { freshDatabase, stopServer } from './pg-server.js';

let pool: pg.Pool | undefined;
after(async () => {
  await pool?.end();
  await stopServer();
});

test("opens the previous release's tables (schema version 4) from several processes at once, and reads and works its bookings", async () => {
  pool = new pg.Pool({ connectionString: await freshDatabase(), max: 8 });
  pool.on('error', () => {});
  await loadPostgres(pool);
  assert.ok(previousPostgres.version < SCHEMA_VERSION, `the fixture is of an earlier schema: ${previousPostgres.version}`);
  await assert.rejects(
    createPostgresStore(pool, { createTables: false }).ready(),
    new RegExp(`schema version ${previousPostgres.version}; this code reads version ${SCHEMA_VERSION}: run postgresSchema\\(\\)'s SQL`),
  );
  await checkPreviousRelease(previousPostgres, () => createPostgresStore(pool!));
  assert.deepEqual((await pool.query(`SELECT version FROM wpb_meta`)).rows, [{ version: SCHEMA_VERSION }]);
  const columns = await pool.query(`SELECT column_name, column_default FROM information_schema.columns WHERE table_name = 'wpb_bookings' AND column_name LIKE 'provider%' ORDER BY 1`);
  assert.deepEqual(columns.rows, [
    { column_name: 'provider', column_default: "'esewa-intent'::text" },
    { column_name: 'provider_data', column_default: "''::text" },
  ]);
});
