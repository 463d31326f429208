import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startPostgres } from '../../../../scripts/postgres.mjs';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { bookOnceUp, fencedInsertTest, haltingOnInsert, type HaltableStore } from '../../../support/fenced-insert.js';
import { openShop } from '../shop.js';

/** The parent of a process, from /proc (Linux): a backend's parent is the server's postmaster. */
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);

// Paused as a frozen machine pauses it: the postmaster and every backend stopped (SIGSTOP), so the insert
// sent meanwhile waits in its socket and runs, late, once they continue.
async function openPaused(): Promise<HaltableStore> {
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
}

fencedInsertTest('PostgreSQL store, the server paused mid-insert', openPaused);

test('PostgreSQL store, the server paused mid-insert: the retry on another instance gets a payable booking, not the one cancelled', async () => {
  const halting = await openPaused();
  const { store, haltNextInsert } = haltingOnInsert(halting);
  haltNextInsert();
  const first = await openShop({ store });
  // A second instance of the same shop (one address: the same callback and return URLs) on the same database.
  const second = await openShop({ store: halting.store, callbackUrl: `${first.url}/api/pay/callback`, redirectUrl: `${first.url}/done` }, {}, first.sandbox);
  try {
    const key = crypto.randomUUID();
    const body = { channel: 'app', order: { id: 'FENCE-2' } };
    const gaveUp = await first.post('book', body, { 'idempotency-key': key });
    assert.equal(gaveUp.body.code, 'IP-503', JSON.stringify(gaveUp.body));
    const cancelled = first.sandbox.listBookings().filter((b) => b.status === 'CANCELED');
    assert.equal(cancelled.length, 1, 'the unsaved booking was cancelled at the service');
    await halting.resume();

    const retry = await bookOnceUp(() => second.post('book', body, { 'idempotency-key': key }));
    assert.equal(retry.body.code, 'IP-201', JSON.stringify(retry.body));
    const bookingId = retry.body.data?.booking_id;
    assert.notEqual(bookingId, cancelled[0]!.booking_id, 'the retry on the other instance is not handed the cancelled booking');
    assert.equal(first.sandbox.getBooking(String(bookingId))?.status, 'BOOKED', 'the retry is payable');
    assert.equal(await halting.store.findBookingByCorrelationId({ correlationId: cancelled[0]!.correlation_id }), undefined, 'the cancelled booking was never saved');
  } finally {
    await second.close();
    await first.close();
    await halting.close();
  }
});
