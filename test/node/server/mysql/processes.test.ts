/**
 * The MySQL store across processes and faults, on a real MariaDB server of this file's own
 * (scripts/mariadb.mjs, with InnoDB's durable default of a flush per commit): the tests of fleet.ts,
 * and a SIGKILL of the server under load.
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
    server = await startMariadb({ durable: true });
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
  async killConnections() {
    // Tables locked, so the books' CALLs wait inside their procedure; killed there.
    const admin = await mysql.createConnection(`${server!.uri}fleet`);
    try {
      await admin.query('LOCK TABLES wpb_bookings WRITE, wpb_leases WRITE');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [rows] = await admin.query(`SELECT id FROM information_schema.processlist WHERE info LIKE 'CALL wpb\\_%' AND id <> CONNECTION_ID()`);
      const ids = (rows as Array<{ id: number }>).map((row) => row.id);
      for (const id of ids) await admin.query(`KILL CONNECTION ${Number(id)}`).catch(() => {});
      await admin.query('UNLOCK TABLES');
      return ids.length;
    } finally {
      await admin.end();
    }
  },
  pause: () => server!.pause(),
  kill: () => server!.kill(),
  resume: () => server!.resume(),
  async stop() {
    await pool?.end().catch(() => {});
    await server?.stop();
  },
});
