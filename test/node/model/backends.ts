/**
 * Where a generated sequence's store lives: the memory store, a throwaway PostgreSQL server, or PGlite
 * in memory (MariaDB and Redis are in stores.ts), each a fresh store per sequence whose clock the
 * world's shifts move.
 */
import pg from 'pg';
import { startPostgres, type ThrowawayPostgres } from '../../../scripts/postgres.mjs';
import { createMemoryStore, type PaymentStore } from '../../../src/server/index.js';
import { createPostgresStore } from '../../../src/server/postgres.js';

/** Where the store lives: a fresh store per sequence, on one backend per test file. */
export interface Backend {
  name: string;
  /** The server's connection string, for a PostgreSQL server. */
  url?: string;
  /** A store with nothing in it; `clock` is the world's time (the shifts of the sequence), for a store that keeps its own. */
  fresh(clock: () => number): Promise<PaymentStore>;
  /** Moves the database's clock to the world's time: `ms` ahead of the real one. */
  shift?(ms: number): Promise<void>;
  close(): Promise<void>;
}

export function memoryBackend(): Backend {
  return {
    name: 'memory',
    // A store that times leases by its own clock (`now`) gets the world's; one that reads the handlers' ignores it.
    fresh: async (clock) => {
      const options: Parameters<typeof createMemoryStore>[0] & { now?: () => number } = { now: clock };
      return createMemoryStore(options);
    },
    close: async () => {},
  };
}

/**
 * The database's clock moved with the world's: a `clock_timestamp()` of our own, ahead of
 * `pg_catalog`'s on the search path, adds the sequence's shift, as a clock jump of the database's host
 * would. (A store that times leases by the database's clock then sees the same pauses as the memory
 * store; one that reads the handlers' clocks never calls it.)
 */
const SHIFTED_CLOCK = [
  'CREATE SCHEMA IF NOT EXISTS model_clock',
  'CREATE TABLE IF NOT EXISTS model_clock.shift (ms bigint NOT NULL)',
  'INSERT INTO model_clock.shift SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM model_clock.shift)',
  `CREATE OR REPLACE FUNCTION model_clock.clock_timestamp() RETURNS timestamptz LANGUAGE sql VOLATILE AS
     $$ SELECT pg_catalog.clock_timestamp() + (SELECT ms FROM model_clock.shift) * interval '1 millisecond' $$`,
];
const SEARCH_PATH = 'public, model_clock, pg_catalog';

/** A throwaway PostgreSQL server; each sequence starts from empty tables (emptied, which is cheaper than a new database). */
export async function postgresBackend(): Promise<Backend> {
  const server: ThrowawayPostgres = await startPostgres();
  const setup = new pg.Client({ connectionString: server.url });
  await setup.connect();
  for (const statement of SHIFTED_CLOCK) await setup.query(statement);
  await setup.end();
  const pool = new pg.Pool({ connectionString: server.url, max: 8, options: `-c search_path=${SEARCH_PATH.replace(/ /g, '')}` });
  pool.on('error', () => {});
  const store = createPostgresStore(pool);
  await store.ready();
  const { rows } = await pool.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE tablename LIKE 'wpb\\_%' AND tablename <> 'wpb_meta'");
  // DELETE, not TRUNCATE: on a few rows it is much cheaper than TRUNCATE's new files and exclusive locks.
  const empty = [...rows.map((row) => `DELETE FROM ${row.tablename}`), 'UPDATE model_clock.shift SET ms = 0'].join('; ');
  return {
    name: 'postgres',
    url: server.url,
    fresh: async () => {
      await pool.query(empty);
      return store;
    },
    shift: async (ms) => {
      await pool.query('UPDATE model_clock.shift SET ms = $1', [ms]);
    },
    close: async () => {
      await pool.end();
      await server.stop();
    },
  };
}

/** PGlite in memory: the PostgreSQL store on one in-process database (one connection, so no parallel statements). */
export async function pgliteBackend(): Promise<Backend> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite();
  await db.exec(`${SHIFTED_CLOCK.join(';\n')};\nSET search_path = ${SEARCH_PATH};`);
  const store = createPostgresStore(db);
  await store.ready();
  const { rows } = await db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE tablename LIKE 'wpb\\_%' AND tablename <> 'wpb_meta'");
  const empty = [...rows.map((row) => `DELETE FROM ${row.tablename};`), 'UPDATE model_clock.shift SET ms = 0;'].join(' ');
  return {
    name: 'pglite',
    fresh: async () => {
      await db.exec(empty);
      return store;
    },
    shift: async (ms) => {
      await db.query('UPDATE model_clock.shift SET ms = $1', [ms]);
    },
    close: () => db.close(),
  };
}
