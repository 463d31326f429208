import { readFileSync } from 'node:fs';
import pg from 'pg';
import { startPostgres } from '../../../../scripts/postgres.mjs';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { fencedInsertTest } from '../../../support/fenced-insert.js';

/** The parent of a process, from /proc (Linux): a backend's parent is the server's postmaster. */
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);

// Paused as a frozen machine pauses it: the postmaster and every backend stopped (SIGSTOP), so the insert
// sent meanwhile waits in its socket and runs, late, once they continue.
fencedInsertTest('PostgreSQL store, the server paused mid-insert', async () => {
  const server = await startPostgres();
  const pool = new pg.Pool({ connectionString: server.url, max: 4 });
  pool.on('error', () => {});
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const store = createPostgresStore(pool, { deadlineMs: 1_000 });
  await store.ready();
  let stopped: number[] = [];
  const resume = async () => {
    // The postmaster's parent (su or runuser, when the tests run as root) stops itself when its child
    // stops, as a shell's job control would: it is continued too.
    const wrapper = stopped[0] === undefined ? undefined : parentOf(stopped[0]);
    for (const pid of stopped) process.kill(pid, 'SIGCONT');
    if (wrapper !== undefined && wrapper > 1 && wrapper !== process.pid) process.kill(wrapper, 'SIGCONT');
    stopped = [];
  };
  return {
    store,
    async halt() {
      const { rows } = await admin.query(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`);
      const backends = rows.map((row: { pid: number }) => row.pid);
      stopped = [parentOf(backends[0] ?? (await admin.query('SELECT pg_backend_pid() AS pid')).rows[0].pid), ...backends];
      for (const pid of stopped) process.kill(pid, 'SIGSTOP');
    },
    resume,
    async close() {
      await resume();
      await admin.end();
      await pool.end();
      await server.stop();
    },
  };
});
