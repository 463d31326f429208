import { readFileSync } from 'node:fs';
import { createMysqlStore } from '../../../../src/server/mysql.js';
import { fencedInsertTest } from '../../../support/fenced-insert.js';
import { freshDatabase, newPool, stopServer } from './mariadb-server.js';

/** The parent of a process, from /proc (Linux). */
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);

// Paused as a frozen machine pauses it: the server's process stopped (SIGSTOP), so the CALL sent
// meanwhile waits in its socket and runs, late, once it continues.
fencedInsertTest('MySQL store (MariaDB), the server paused mid-insert', async () => {
  const pool = newPool(await freshDatabase(), { connectionLimit: 4 });
  const store = createMysqlStore(pool, { deadlineMs: 1_000 });
  await store.ready();
  const [rows] = await pool.query('SELECT @@pid_file AS file');
  const server = Number(readFileSync(String((rows as Array<{ file: string }>)[0]!.file), 'utf8').trim());
  let halted = false;
  const resume = async () => {
    if (!halted) return;
    halted = false;
    process.kill(server, 'SIGCONT');
    // A wrapper (su or runuser, when the tests run as root) stops itself when its child stops: continued too.
    const wrapper = parentOf(server);
    if (wrapper > 1 && wrapper !== process.pid) process.kill(wrapper, 'SIGCONT');
  };
  return {
    store,
    async halt() {
      halted = true;
      process.kill(server, 'SIGSTOP');
    },
    resume,
    async close() {
      await resume();
      await pool.end();
      await stopServer();
    },
  };
});
