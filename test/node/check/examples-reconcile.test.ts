/**
 * The example proxies' reconcile, on the sandbox's clock (each pass is told the sandbox's time through
 * RECONCILE_NOW): a PENDING booking is asked less and less often, one still open past the service's
 * 15 minutes is cancelled there, a cancelled one is asked again for that lifetime (and then no more),
 * a payment that lands after the cancel with its callback lost is found; in the ePay mode, eSewa's
 * NOT_FOUND is CANCELED only past the session's lifetime. And /order asks the service about an open
 * booking, at most once per few seconds. No callback is ever sent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { ensureBackends } from '../../../scripts/backends.mjs';
import { EXAMPLE_KINDS, startExample, type ExampleKind, type RunningExample } from './examples.js';
import { AMOUNT, PREFIX } from './support.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'wpb-reconcile-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

/** A sandbox that sends no callback, its log kept, and an example proxy on it (on the SQLite file `db`, when given). */
async function setUp(kind: ExampleKind, provider?: 'epay', db?: string) {
  const log: string[] = [];
  const sandbox: Sandbox = await startSandbox({ sendCallback: () => false, log: (line) => log.push(line) });
  const proxy = await startExample(kind, {
    sandboxPort: Number(new URL(sandbox.baseUrl).port),
    db: db ?? join(dir, `shop-${++count}.sqlite`),
    orderPrefix: PREFIX,
    amount: AMOUNT,
    ...(provider ? { provider } : {}),
  });
  return { sandbox, proxy, log, close: async () => (await proxy.stop(), await sandbox.close()) };
}

/** One reconcile pass at the sandbox's time; its output. */
function reconcileAt(proxy: RunningExample, sandbox: Sandbox): Promise<string> {
  const now = Math.floor(sandbox.clock.now() / 1000);
  const command = proxy.reconcile.replace('RECONCILE_AFTER_SECONDS=0 ', `RECONCILE_AFTER_SECONDS=0 RECONCILE_NOW=${now} `);
  assert.notEqual(command, proxy.reconcile);
  return new Promise((resolve, reject) =>
    execFile('/bin/sh', ['-c', command], { timeout: 30_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))),
  );
}

async function post(proxy: RunningExample, route: string, body: unknown, key?: string): Promise<{ code: string; data: Record<string, unknown> }> {
  const response = await fetch(`${proxy.endpoint}/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return (await response.json()) as { code: string; data: Record<string, unknown> };
}

/** Books a fresh order and pays it at the sandbox with `scenario` (which leaves it PENDING). */
async function pendingBooking(sandbox: Sandbox, proxy: RunningExample, scenario: 'WPS-006' | 'WPS-016') {
  const order = { id: `${PREFIX}reconcile-${++count}` };
  const booked = await post(proxy, 'book', { channel: 'app', order }, `reconcile-${crypto.randomUUID()}`);
  const ids = { booking_id: String(booked.data.booking_id), correlation_id: String(booked.data.correlation_id) };
  const paid = await fetch(`${sandbox.linksUrl}/pay/${ids.booking_id}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ mpin: '1234', method: 'wallet_balance', scenario }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  await paid.body?.cancel();
  assert.equal(sandbox.getBooking(ids.booking_id)?.status, 'PENDING');
  return { order, ids };
}

const asked = (log: string[], bookingId: string, operation = 'status') => log.filter((line) => line.startsWith(`${operation} asked for booking ${JSON.stringify(bookingId)}`)).length;

for (const kind of EXAMPLE_KINDS) {
  describe(`the ${kind} example's reconcile`, { concurrency: 1 }, () => {
    test('asks a PENDING booking at 0, 1 and 3 minutes (not between), cancels it at the service past 15 minutes, asks the cancelled one again for 15 minutes, then no more', async () => {
      const { sandbox, proxy, log, close } = await setUp(kind);
      try {
        const { order, ids } = await pendingBooking(sandbox, proxy, 'WPS-016');
        const pass = async (to: number, expectAsks: number, why: string) => {
          await sandbox.clock.advance(to);
          await reconcileAt(proxy, sandbox);
          assert.equal(asked(log, ids.booking_id), expectAsks, why);
        };
        await pass(0, 1, 'asked at once (RECONCILE_AFTER_SECONDS=0)');
        await pass(30_000, 1, 'not again 30 s later');
        await pass(31_000, 2, 'again a minute later');
        await pass(60_000, 2, 'not 2 minutes after the first (every 2 minutes now)');
        await pass(61_000, 3, 'again 3 minutes after the first');
        assert.equal(asked(log, ids.booking_id, 'cancel'), 0, 'not cancelled within its lifetime');
        await pass(12 * 60_000, 4, 'at its lifetime (15 minutes), asked whatever the interval');
        assert.equal(asked(log, ids.booking_id, 'cancel'), 1, 'cancelled at the service past 15 minutes');
        assert.equal(sandbox.getBooking(ids.booking_id)?.status, 'CANCELED');
        assert.deepEqual((await post(proxy, 'order', { order })).data, { paid: false });
        await pass(61_000, 5, 'the cancelled booking is asked again a minute later');
        await pass(15 * 60_000, 6, 'and once more at the end of the lifetime after the cancel');
        await pass(60 * 60_000, 6, 'then no more');
      } finally {
        await close();
      }
    });

    test('a payment that lands after the cancel, its callback lost (WPS-006), is found by the next pass and the order is paid', async () => {
      const { sandbox, proxy, close } = await setUp(kind);
      try {
        const { order, ids } = await pendingBooking(sandbox, proxy, 'WPS-006');
        assert.equal((await post(proxy, 'cancel', ids)).code, 'IP-210');
        await sandbox.clock.advance(31_000);
        assert.equal(sandbox.getBooking(ids.booking_id)?.status, 'SUCCESS', 'the sandbox landed the payment after the cancel');
        assert.deepEqual((await post(proxy, 'order', { order })).data, { paid: false }, 'no callback came: the records still say CANCELED');
        assert.match(await reconcileAt(proxy, sandbox), new RegExp(`${ids.booking_id}: SUCCESS`));
        assert.deepEqual((await post(proxy, 'order', { order })).data, { paid: true, status: 'SUCCESS' });
      } finally {
        await close();
      }
    });

    test('/order asks the service about an open booking at most once per 3 s, however often it is asked', async () => {
      const { proxy, log, close } = await setUp(kind);
      try {
        const order = { id: `${PREFIX}asked-${++count}` };
        const booked = await post(proxy, 'book', { channel: 'app', order }, `reconcile-${crypto.randomUUID()}`);
        const started = Date.now();
        const answers = await Promise.all(Array.from({ length: 6 }, () => post(proxy, 'order', { order })));
        assert.ok(Date.now() - started < 3000, 'the six were asked within the 3 s');
        assert.deepEqual(answers.map((a) => a.data), Array.from({ length: 6 }, () => ({ paid: false })));
        assert.equal(asked(log, String(booked.data.booking_id)), 1, 'six /order at once asked the service once');
      } finally {
        await close();
      }
    });

    test('a store made by the earlier file (no reconcile or /order columns) gets them: a payment whose callback is lost is paid on /order', async () => {
      const db = join(dir, `old-${++count}.sqlite`);
      const { python } = ensureBackends({ log: () => {} }) as { python: string };
      await new Promise<void>((resolve, reject) =>
        execFile(python, ['-c', `import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE orders (id TEXT PRIMARY KEY, amount TEXT NOT NULL, paid INTEGER NOT NULL DEFAULT 0)")
c.execute("CREATE TABLE bookings (idem_key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, order_id TEXT NOT NULL, channel TEXT NOT NULL, booking_id TEXT NOT NULL UNIQUE, correlation_id TEXT NOT NULL UNIQUE, deeplink TEXT NOT NULL, amount TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL DEFAULT 0)")
c.commit()`, db], { timeout: 15_000 }, (error) => (error ? reject(error) : resolve())),
      );
      const { sandbox, proxy, close } = await setUp(kind, undefined, db);
      try {
        const order = { id: `${PREFIX}old-${count}` };
        const booked = await post(proxy, 'book', { channel: 'app', order }, `reconcile-${crypto.randomUUID()}`);
        assert.equal(booked.code, 'IP-201', JSON.stringify(booked));
        const paid = await fetch(`${sandbox.linksUrl}/pay/${String(booked.data.booking_id)}/confirm`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'mpin=1234&method=wallet_balance&scenario=WPS-007',
          redirect: 'manual',
          signal: AbortSignal.timeout(10_000),
        });
        await paid.body?.cancel();
        assert.deepEqual((await post(proxy, 'order', { order })).data, { paid: true, status: 'SUCCESS' });
        assert.match(await reconcileAt(proxy, sandbox), /reconciled 0 booking\(s\)/);
      } finally {
        await close();
      }
    });

    test('in its ePay mode, eSewa\'s NOT_FOUND is an open booking within the session\'s lifetime (30 minutes) and CANCELED past it', async () => {
      const { sandbox, proxy, close } = await setUp(kind, 'epay');
      try {
        const booked = await post(proxy, 'book', { channel: 'web', order: { id: `${PREFIX}epay-${++count}` } }, `reconcile-${crypto.randomUUID()}`);
        const id = String(booked.data.booking_id);
        assert.match(await reconcileAt(proxy, sandbox), new RegExp(`${id}: BOOKED`));
        await sandbox.clock.advance(29 * 60_000);
        assert.match(await reconcileAt(proxy, sandbox), new RegExp(`${id}: BOOKED`));
        await sandbox.clock.advance(2 * 60_000);
        assert.match(await reconcileAt(proxy, sandbox), new RegExp(`${id}: CANCELED`));
        const status = await post(proxy, 'status', { booking_id: id, correlation_id: id });
        assert.equal(status.data.status, 'CANCELED', 'the record stays CANCELED when eSewa still answers NOT_FOUND');
      } finally {
        await close();
      }
    });
  });
}
