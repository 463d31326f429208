/**
 * The MySQL store across processes and faults, on a real MariaDB server of this file's own
 * (scripts/mariadb.mjs): the tests of fleet.ts.
 */
import mysql from 'mysql2/promise';
import { startMariadb, type ThrowawayMariadb } from '../../../../scripts/mariadb.mjs';
import { createMysqlStore } from '../../../../src/server/mysql.js';
import { fleetTests } from './fleet.js';

let server: ThrowawayMariadb | undefined;
let pool: mysql.Pool | undefined;

fleetTests('MySQL store on MariaDB', {
  store: 'mysql',
  async start() {
    server = await startMariadb();
    const admin = await mysql.createConnection(server.uri);
    await admin.query('CREATE DATABASE fleet');
    await admin.end();
    return `${server.uri}fleet`;
  },
  async reader() {
    pool = mysql.createPool({ uri: `${server!.uri}fleet`, connectionLimit: 4 });
    pool.on('connection', (connection) => connection.on('error', () => {}));
    return createMysqlStore(pool);
  },
  pause: () => server!.pause(),
  resume: () => server!.resume(),
  async stop() {
    await pool?.end().catch(() => {});
    await server?.stop();
  },
});
