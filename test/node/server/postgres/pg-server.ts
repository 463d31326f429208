/**
 * A real PostgreSQL server for the tests: one per test file, started on first use and stopped at the
 * end (see scripts/postgres.mjs). Each caller gets its own database, so files never share tables.
 */
import pg from 'pg';
import { startPostgres, type ThrowawayPostgres } from '../../../../scripts/postgres.mjs';

let server: Promise<ThrowawayPostgres> | undefined;
let databases = 0;

/** Creates a fresh database on the shared throwaway server and returns its URL. */
export async function freshDatabase(): Promise<string> {
  server ??= startPostgres();
  const { url } = await server;
  const name = `t${process.pid}_${++databases}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return url.replace(/\/postgres$/, `/${name}`);
}

/** Stops the server, if one was started. */
export async function stopServer(): Promise<void> {
  if (server) await (await server).stop();
  server = undefined;
}
