/**
 * A real MariaDB server for the tests: one per test file, started on first use and stopped at the
 * end (see scripts/mariadb.mjs). Each caller gets its own database, so tests never share tables.
 */
import mysql from 'mysql2/promise';
import { startMariadb, type ThrowawayMariadb } from '../../../../scripts/mariadb.mjs';

let server: Promise<ThrowawayMariadb> | undefined;
let databases = 0;

/** The shared throwaway server, started on first use. */
export function mariadb(): Promise<ThrowawayMariadb> {
  server ??= startMariadb();
  return server;
}

/** Creates a fresh database on the shared throwaway server and returns its URI. */
export async function freshDatabase(): Promise<string> {
  const { uri } = await mariadb();
  const name = `t${process.pid}_${++databases}`;
  const admin = await mysql.createConnection(uri);
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return `${uri}${name}`;
}

/** A pool on `uri` whose idle connections' errors (the server stopped) are not left unhandled. */
export function newPool(uri: string, options: mysql.PoolOptions = {}): mysql.Pool {
  const pool = mysql.createPool({ uri, connectionLimit: 8, ...options });
  // mysql2 emits 'error' on an idle pooled connection the server closed; the next query reports it.
  pool.on('connection', (connection) => connection.on('error', () => {}));
  return pool;
}

/** Stops the server, if one was started. */
export async function stopServer(): Promise<void> {
  if (server) await (await server).stop();
  server = undefined;
}
