/**
 * Database faults with traffic running: two handler processes (worker.ts) on a real PostgreSQL server
 * of this file's own (scripts/postgres.mjs, stopped and started here) and one sandbox. Each fault is
 * injected while shoppers book, pay and ask for the status, retrying a failed book with the same
 * key as the element does. After each: every request was answered within its time limit, nothing is
 * half-written (the test reads the tables and the sandbox), one booking per key, one delivery per
 * result. The handler answers a store that is late or gone with `IP-503` (HTTP 503 with Retry-After),
 * never with a hang, and no request of these faults fails any other way.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { startPostgres, type ThrowawayPostgres } from '../../../../scripts/postgres.mjs';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { closedPortUrl } from '../helpers.js';
import { lateService, outage, payOnServicePage, postTo, probedFault, startWorker, throughOutages, type Answer, type Message, type Worker } from '../../../support/handler-processes.js';
import { pollUntil } from '../../../support/poll.js';
import { bookPayAndAsk, withTraffic as sharedWithTraffic } from '../../../support/traffic.js';

const KEY = 'faults-access-key';
const PRODUCT = 'FAULT01';
/** Longest any request may take to be answered, faults included: a book may wait for a dead holder's order lease (4 s) and a store deadline. */
const ANSWER_LIMIT_MS = 12_000;

describe('database faults with two handler processes and traffic running', () => {
  let server: ThrowawayPostgres;
  let sandbox: Sandbox;
  let db: pg.Client;
  let env: Record<string, string>;
  const workers: Worker[] = [];
  const spawned: ChildProcess[] = [];
  /** Every answer the shoppers got, by route. */
  const answers: Array<Answer & { route: string }> = [];
  /** Each key's booking ids as answered. */
  const bookedByKey = new Map<string, Set<string>>();

  const start = (extra: Record<string, string> = {}): Promise<Worker> => startWorker(new URL('./worker.ts', import.meta.url), { ...env, ...extra }, spawned);

  before(async () => {
    server = await startPostgres();
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE faults');
    await admin.end();
    const url = server.url.replace(/\/postgres$/, '/faults');
    db = new pg.Client({ connectionString: url });
    db.on('error', () => {});
    await db.connect();
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
    env = {
      DATABASE_URL: url,
      SERVICE_URL: sandbox.baseUrl,
      PRODUCT_CODE: PRODUCT,
      ACCESS_KEY: KEY,
      // Nothing listens there: results reach the hook through status checks.
      CALLBACK_URL: `${await closedPortUrl()}/callback`,
      LEASE_MS: '1500',
      STORE_DEADLINE_MS: '1000',
      STATEMENT_TIMEOUT_MS: '1500',
      TIMEOUT_MS: '2000',
      RESULT_TIMEOUT_MS: '2000',
    };
    workers.push(await start());
    workers.push(await start());
  });
  after(async () => {
    for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await db?.end().catch(() => {});
    await sandbox?.close();
    await server?.resume().catch(() => {});
    await server?.stop();
  });

  /** Posts to a worker and records the answer (`record` false: a request to a process the test kills, which dies with it). */
  const post = async (worker: Worker, route: string, body: unknown, headers: Record<string, string> = {}, record = true): Promise<Answer> => {
    const answer = await postTo(worker, route, body, headers, ANSWER_LIMIT_MS);
    if (record) answers.push({ route, ...answer });
    return answer;
  };
  /** As {@link post}, asked again through outages (IP-503) as the element does: for the one request a test's step depends on. */
  const ask = (worker: Worker, route: string, body: unknown, headers: Record<string, string> = {}, record = true): Promise<Answer> =>
    throughOutages(() => post(worker, route, body, headers, record));
  const pay = (deeplink: string) => payOnServicePage(deeplink, ANSWER_LIMIT_MS);

  /** A book of a fresh order on the first process: the probe of {@link probedFault}. */
  const probeBook = () => post(workers[0]!, 'book', { channel: 'app', order: { id: `PROBE-${crypto.randomUUID()}` } }, { 'idempotency-key': `probe-${crypto.randomUUID()}` });

  /** Shoppers book and pay while `fault` runs, and for a while after it (test/support/traffic.ts). */
  const withTraffic = (fault: () => Promise<void>, shoppers = 6): Promise<void> =>
    sharedWithTraffic(fault, {
      shoppers,
      round: bookPayAndAsk({
        workers,
        post: (worker, route, body, headers) => post(worker, route, body, headers),
        pay,
        onBooked: (key, answer) => bookedByKey.set(key, (bookedByKey.get(key) ?? new Set()).add(answer.data!.booking_id!)),
      }),
    });

  /** The checks every fault ends with. */
  async function verify(label: string): Promise<void> {
    // The answers are this fault's alone, whether its checks pass or fail.
    const seen = answers.splice(0);
    const late = seen.filter((a) => a.status === 0 || a.ms > ANSWER_LIMIT_MS);
    assert.deepEqual(late.map((a) => `${a.route} ${a.code} ${a.ms} ms`), [], `${label}: every request answered within ${ANSWER_LIMIT_MS} ms`);
    const odd = seen.filter((a) => a.status !== 200 && !outage(a) && !lateService(a));
    assert.deepEqual(odd.map((a) => `${a.route} ${a.status} ${a.code} ${a.message ?? ''} (${a.ms} ms)`), [], `${label}: a fault is IP-503 with Retry-After, never a refusal of the shopper or another error`);
    assert.ok(seen.some((a) => a.status === 200 && a.route === 'book'), `${label}: traffic went on`);

    // One booking per key, as answered and as stored; each stored booking is the service's.
    for (const [key, ids] of bookedByKey) assert.equal(ids.size, 1, `${label}: key ${key} got ${[...ids].join(', ')}`);
    const { rows } = await db.query('SELECT booking_id, correlation_id, transaction_uuid, idempotency_key, settled FROM wpb_bookings');
    const service = new Map(sandbox.listBookings().map((b) => [b.booking_id, b]));
    for (const row of rows) {
      const at = service.get(row.booking_id);
      assert.ok(at, `${label}: stored booking ${row.booking_id} is the service's`);
      assert.equal(at.correlation_id, row.correlation_id);
      assert.equal(at.transaction_uuid, row.transaction_uuid);
      const answered = bookedByKey.get(row.idempotency_key);
      if (answered) assert.deepEqual([...answered], [row.booking_id], `${label}: the stored booking is the one answered`);
    }
    for (const [key, ids] of bookedByKey) {
      assert.ok(rows.some((row) => row.idempotency_key === key && ids.has(row.booking_id)), `${label}: the booking answered for ${key} is stored`);
    }
    // A result and the settlement it brings are written together.
    const results = await db.query(`SELECT correlation_id, status, delivered_at FROM wpb_results`);
    for (const row of rows) {
      const finalDelivered = results.rows.some(
        (r) => r.correlation_id === row.correlation_id && r.delivered_at !== null && ['SUCCESS', 'FAILED', 'CANCELED', 'REVERTED'].includes(r.status),
      );
      assert.equal(row.settled, finalDelivered, `${label}: booking ${row.booking_id} settled exactly when a final result of it was delivered`);
    }
    // One delivery per result, across both processes.
    const delivered = new Map<string, number>();
    for (const m of workers.flatMap((w) => w.messages)) {
      if (m.type !== 'delivered') continue;
      const id = `${m.correlation_id} ${m.status}`;
      delivered.set(id, (delivered.get(id) ?? 0) + 1);
    }
    assert.deepEqual([...delivered].filter(([, n]) => n > 1), [], `${label}: each result delivered once`);
    assert.ok(delivered.size > 0, `${label}: results were delivered`);
    const paid = sandbox.listBookings().filter((b) => b.status === 'SUCCESS' && rows.some((row) => row.booking_id === b.booking_id));
    for (const b of paid) {
      const known = results.rows.find((r) => r.correlation_id === b.correlation_id && r.status === 'SUCCESS');
      if (known?.delivered_at != null) assert.equal(delivered.get(`${b.correlation_id} SUCCESS`), 1, `${label}: a delivered result reached the hook`);
    }
  }

  test('the database server stopped for 2 s and started again', async () => {
    let probe: Answer | undefined;
    await withTraffic(async () => {
      probe = await probedFault(() => server.pause(), probeBook, () => server.resume(), 2_000);
    });
    assert.ok(probe && outage(probe), `a book while the server was stopped was answered IP-503; it got ${JSON.stringify(probe)}`);
    await db.end().catch(() => {});
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    db.on('error', () => {});
    await db.connect();
    await verify('server stopped and started');
  });

  test("connections killed inside a booking's statement (pg_terminate_backend)", async () => {
    let killed = 0;
    await withTraffic(async () => {
      for (let i = 0; i < 3; i++) {
        // Hold the order leases so the books' statements wait inside their transaction, then kill them there.
        await db.query('BEGIN');
        await db.query('LOCK TABLE wpb_leases IN ACCESS EXCLUSIVE MODE');
        await new Promise((resolve) => setTimeout(resolve, 300));
        const terminated = await db.query(
          `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%begin_booking%' AND state = 'active'`,
        );
        await db.query('ROLLBACK');
        killed += terminated.rows.filter((row) => row.done === true).length;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    });
    assert.ok(killed > 0, 'connections were killed inside a book');
    assert.ok(answers.some(outage), 'and their requests answered IP-503');
    await verify('connections killed');
  });

  test('statements past their deadline (a table lock held 2.5 s)', async () => {
    let probe: Answer | undefined;
    await withTraffic(async () => {
      probe = await probedFault(
        async () => {
          await db.query('BEGIN');
          await db.query('LOCK TABLE wpb_bookings, wpb_results IN ACCESS EXCLUSIVE MODE');
        },
        probeBook,
        () => db.query('ROLLBACK'),
        2_500,
      );
    });
    assert.ok(probe && outage(probe), `a book while the tables were locked was answered IP-503; it got ${JSON.stringify(probe)}`);
    await verify('statements past their deadline');
  });

  test('every pool connection busy: a process with a pool of 2 under a burst while the tables are locked', async () => {
    const small = await start({ POOL_MAX: '2' });
    workers.push(small);
    try {
      await withTraffic(async () => {
        await db.query('BEGIN');
        await db.query('LOCK TABLE wpb_bookings, wpb_leases IN ACCESS EXCLUSIVE MODE');
        const burst = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            post(small, 'book', { channel: 'app', order: { id: `BURST-${i}-${crypto.randomUUID()}` } }, { 'idempotency-key': `burst-${i}-${crypto.randomUUID()}` }),
          ),
        );
        await db.query('ROLLBACK');
        assert.ok(burst.every((a) => outage(a) && a.ms < 5_000), JSON.stringify(burst.map((a) => [a.status, a.code, a.ms])));
      });
      await verify('pool busy');
    } finally {
      workers.pop();
      small.child.kill('SIGKILL');
    }
  });

  test('a handler killed (SIGKILL) inside the hook of a delivery: the other process delivers it once, after the claim ends', async () => {
    const doomed = await start({ HOOK_HANG: '1', RESULT_TIMEOUT_MS: '200' });
    await withTraffic(async () => {
      const booked = await ask(doomed, 'book', { channel: 'app', order: { id: `HOOK-${crypto.randomUUID()}` } }, { 'idempotency-key': `hook-${crypto.randomUUID()}` });
      assert.equal(booked.status, 200, booked.code);
      const { booking_id, correlation_id, deeplink } = booked.data!;
      await pay(deeplink!);
      assert.equal((await ask(doomed, 'status', { booking_id, correlation_id })).data?.status, 'SUCCESS');
      // The status answers after RESULT_TIMEOUT_MS without waiting for the hook, which starts once the
      // duplicate check (the order's paid lease, its read) is done: later than the answer on a loaded machine.
      await pollUntil(() => doomed.messages.some((m) => m.type === 'hook-started' && m.correlation_id === correlation_id), {
        what: 'the hook to start in the doomed process',
        timeoutMs: 20_000,
      });
      const gone = new Promise((resolve) => doomed.child.once('exit', resolve));
      doomed.child.kill('SIGKILL');
      await gone;
      const deliveredHere = () => workers.flatMap((w) => w.messages).filter((m) => m.type === 'delivered' && m.correlation_id === correlation_id);
      // Each poll asks the status, as the shopper's element would: that is what makes the other process deliver.
      await pollUntil(async () => (await post(workers[1]!, 'status', { booking_id, correlation_id }), deliveredHere().length > 0), {
        what: 'the other process to deliver the result',
        timeoutMs: ANSWER_LIMIT_MS,
        intervalMs: 100,
      });
      assert.equal(deliveredHere().length, 1, 'delivered by the other process');
    });
    await verify('killed inside the hook');
  });

  test('a handler killed (SIGKILL) after the hook, before the result is marked delivered: delivered again by the other process, once (at least once in all, as documented)', async () => {
    const doomed = await start({ HANG_AT: 'before-complete', RESULT_TIMEOUT_MS: '200' });
    await withTraffic(async () => {
      const booked = await ask(doomed, 'book', { channel: 'app', order: { id: `COMPLETE-${crypto.randomUUID()}` } }, { 'idempotency-key': `complete-${crypto.randomUUID()}` });
      assert.equal(booked.status, 200, booked.code);
      const { booking_id, correlation_id, deeplink } = booked.data!;
      await pay(deeplink!);
      const hung = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the worker did not reach before-complete within 20 s')), 20_000);
        doomed.child.on('message', (m: Message) => {
          if (m.type === 'hang') {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      assert.equal((await ask(doomed, 'status', { booking_id, correlation_id })).data?.status, 'SUCCESS', 'answered within the result time limit');
      await hung;
      assert.ok(doomed.messages.some((m) => m.type === 'delivered' && m.correlation_id === correlation_id), 'the hook ran there');
      const gone = new Promise((resolve) => doomed.child.once('exit', resolve));
      doomed.child.kill('SIGKILL');
      await gone;
      const deliveredHere = () => workers.flatMap((w) => w.messages).filter((m) => m.type === 'delivered' && m.correlation_id === correlation_id);
      // Each poll asks the status, as the shopper's element would: that is what makes the other process deliver.
      await pollUntil(async () => (await post(workers[0]!, 'status', { booking_id, correlation_id }), deliveredHere().length > 0), {
        what: 'the other process to deliver the result',
        timeoutMs: ANSWER_LIMIT_MS,
        intervalMs: 100,
      });
      assert.equal(deliveredHere().length, 1, 'delivered again by the other process');
      const { rows } = await db.query(`SELECT delivered_at FROM wpb_results WHERE correlation_id = $1 AND status = 'SUCCESS'`, [correlation_id]);
      assert.notEqual(rows[0]?.delivered_at, null, 'and marked delivered');
    });
    await verify('killed before the completion');
  });

  for (const at of ['book-request', 'book-response', 'after-insert'] as const) {
    test(`a handler killed (SIGKILL) at ${at}: the same key on the other process gets one booking, within the limit`, async () => {
      const doomed = await start({ HANG_AT: at });
      const key = `killed-${at}-${crypto.randomUUID()}`;
      const order = { id: `KILLED-${at}-${crypto.randomUUID()}` };
      await withTraffic(async () => {
        const hung = new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`the worker did not reach ${at} within 30 s; it told: ${JSON.stringify(doomed.messages.filter((m) => m.type !== 'ready'))}`)), 30_000);
          doomed.child.on('message', (m: Message) => {
            if (m.type === 'hang') {
              clearTimeout(timer);
              resolve();
            }
          });
        });
        // A fresh process's first book may meet an outage (its store's set-up past the 1 s deadline on a
        // loaded machine): asked again with the same key, as the element does, until it stops at `at`.
        const first = ask(doomed, 'book', { channel: 'app', order }, { 'idempotency-key': key }, false);
        await hung;
        const gone = new Promise((resolve) => doomed.child.once('exit', resolve));
        doomed.child.kill('SIGKILL');
        await gone;
        await first;
        const retry = await ask(workers[0]!, 'book', { channel: 'app', order }, { 'idempotency-key': key });
        assert.equal(retry.status, 200, retry.code);
        bookedByKey.set(key, new Set([retry.data!.booking_id!]));
        const atService = sandbox.listBookings().filter((b) => b.properties.merchant_order === order.id);
        // Killed after the service booked: that booking's answer reached no one and nothing saved it, so
        // the retry books anew under a fencing token of its own; the earlier one expires at the service unpaid.
        const others = atService.filter((b) => b.booking_id !== retry.data!.booking_id);
        assert.equal(atService.length - others.length, 1, 'the retry is booked at the service');
        assert.equal(others.length, at === 'book-response' ? 1 : 0, 'the dead process booked at the service only when killed after its book');
      });
      await verify(`killed at ${at}`);
    });
  }
});
