/**
 * The proof the PostgreSQL store gives, for another store: handler processes (worker.ts) on one real
 * database server of the test file's own and one sandbox, all on loopback. Shared by the MySQL and the
 * Redis tests. Each test checks, at its end, that nothing was lost: every key answered has its booking
 * stored, each stored booking is the service's, a booking is settled exactly when a final result of it
 * was delivered, and each result reached the hook once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import type { PaymentStore } from '../../../../src/server/store.js';
import { closedPortUrl } from '../helpers.js';
import { lateService, outage, payOnServicePage, postTo, probedFault, startWorker, throughOutages, type Answer, type Message, type Worker } from '../../../support/handler-processes.js';
import { bookPayAndAsk, withTraffic as sharedWithTraffic } from '../../../support/traffic.js';

const KEY = 'fleet-access-key';
const PRODUCT = 'FLEET01';
/** Longest any request may take to be answered, outages included (a book may wait out a dead holder's order lease, 4 s). */
const ANSWER_LIMIT_MS = 12_000;
const FINAL = new Set(['SUCCESS', 'FAILED', 'CANCELED', 'REVERTED']);

/** The database server under test, as the fleet drives it. */
export interface FleetDatabase {
  /** `mysql` or `redis`: the worker's store. */
  store: 'mysql' | 'redis';
  /** Starts the server; answers the URL the workers connect to. */
  start(): Promise<string>;
  /** A store in the test's own process on the same data, to read what was saved. */
  reader(): Promise<PaymentStore>;
  /** Stops the server cleanly, keeping its data. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Kills the server (SIGKILL), when the store promises to survive that. */
  kill?(): Promise<void>;
  /** Kills the workers' connections, inside a store call where the server allows it; answers how many. */
  killConnections(): Promise<number>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the fleet's tests for `db`. */
export function fleetTests(name: string, db: FleetDatabase): void {
  describe(`${name}: handler processes on one server`, () => {
    let sandbox: Sandbox;
    let reader: PaymentStore;
    let env: Record<string, string>;
    const workers: Worker[] = [];
    /** Processes stopped on purpose: what they delivered still counts. */
    const retired: Worker[] = [];
    const spawned: ChildProcess[] = [];
    /** Every answer the shoppers got since the last check. */
    const answers: Array<Answer & { route: string }> = [];
    /** Each key's booking ids as answered (200), with the order's key. */
    const bookedByKey = new Map<string, Set<string>>();

    const start = (extra: Record<string, string> = {}): Promise<Worker> => startWorker(new URL('./worker.ts', import.meta.url), { ...env, ...extra }, spawned);
    const stopWorker = async (worker: Worker, signal: NodeJS.Signals) => {
      const gone = new Promise((resolve) => worker.child.once('exit', resolve));
      worker.child.kill(signal);
      await gone;
    };

    before(async () => {
      const storeUrl = await db.start();
      reader = await db.reader();
      sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
      env = {
        STORE: db.store,
        STORE_URL: storeUrl,
        SERVICE_URL: sandbox.baseUrl,
        PRODUCT_CODE: PRODUCT,
        ACCESS_KEY: KEY,
        // Nothing listens there: results reach the hook through status checks, where the claims matter.
        CALLBACK_URL: `${await closedPortUrl()}/callback`,
        LEASE_MS: '1500',
        STORE_DEADLINE_MS: '1000',
        TIMEOUT_MS: '3000',
        RESULT_TIMEOUT_MS: '2000',
      };
      workers.push(...(await Promise.all([start(), start()])));
    });
    after(async () => {
      for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await sandbox?.close();
      await db.resume().catch(() => {});
      await db.stop();
    });

    const post = async (worker: Worker, route: string, body: unknown, headers: Record<string, string> = {}, record = true): Promise<Answer> => {
      const answer = await postTo(worker, route, body, headers, ANSWER_LIMIT_MS);
      if (record) answers.push({ route, ...answer });
      return answer;
    };
    const book = async (worker: Worker, key: string, orderId: string) => {
      const answer = await post(worker, 'book', { channel: 'app', order: { id: orderId } }, { 'idempotency-key': key });
      if (answer.status === 200) bookedByKey.set(key, (bookedByKey.get(key) ?? new Set()).add(answer.data!.booking_id!));
      return answer;
    };
    const pay = (deeplink: string) => payOnServicePage(deeplink, ANSWER_LIMIT_MS);
    const messages = () => [...workers, ...retired].flatMap((w) => w.messages);
    const deliveries = (correlationId: string) => messages().filter((m) => m.type === 'delivered' && m.correlation_id === correlationId);
    const ofOrder = (id: string) => sandbox.listBookings().filter((b) => b.properties.merchant_order === id);

    /** Shoppers book and pay while `fault` runs, and for a while after it (test/support/traffic.ts). */
    const withTraffic = (fault: () => Promise<void>, shoppers = 4): Promise<void> =>
      sharedWithTraffic(fault, {
        shoppers,
        round: bookPayAndAsk({
          workers,
          post: (worker, route, body, headers) => post(worker, route, body, headers),
          pay,
          onBooked: (key, answer) => bookedByKey.set(key, (bookedByKey.get(key) ?? new Set()).add(answer.data!.booking_id!)),
        }),
      });

    /** The answers by route and status, for a failure's message: `book 200 ×12, status 503 ×2`. */
    const tally = (seen: ReadonlyArray<Answer & { route: string }>): string => {
      const counts = new Map<string, number>();
      for (const a of seen) {
        const kind = `${a.route} ${a.status}${a.code ? ` ${a.code}` : ''}`;
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
      }
      return [...counts].map(([k, n]) => `${k} ×${n}`).join(', ') || 'none';
    };

    /** Nothing lost, nothing twice: read back through the store itself. */
    async function verify(label: string): Promise<void> {
      const seen = answers.splice(0);
      const late = seen.filter((a) => a.status === 0 || a.ms > ANSWER_LIMIT_MS);
      assert.deepEqual(late.map((a) => `${a.route} ${a.code} ${a.ms} ms`), [], `${label}: every request answered within ${ANSWER_LIMIT_MS} ms`);
      const odd = seen.filter((a) => a.status !== 200 && !outage(a) && !lateService(a));
      assert.deepEqual(odd.map((a) => `${a.route} ${a.status} ${a.code} ${a.message ?? ''} (${a.ms} ms)`), [], `${label}: a fault is IP-503 with Retry-After, never another error`);

      const service = new Map(sandbox.listBookings().map((b) => [b.booking_id, b]));
      const delivered = new Map<string, number>();
      for (const m of messages()) {
        if (m.type === 'delivered') delivered.set(`${m.correlation_id} ${m.status}`, (delivered.get(`${m.correlation_id} ${m.status}`) ?? 0) + 1);
      }
      assert.deepEqual([...delivered].filter(([, n]) => n > 1), [], `${label}: each result delivered once`);
      for (const [key, ids] of bookedByKey) {
        assert.equal(ids.size, 1, `${label}: key ${key} got ${[...ids].join(', ')}`);
        const stored = await reader.getBookingByKey({ key });
        assert.ok(stored, `${label}: the booking answered for ${key} is stored`);
        assert.deepEqual([stored.booking_id], [...ids], `${label}: the stored booking is the one answered`);
        const at = service.get(stored.booking_id);
        assert.ok(at && at.correlation_id === stored.correlation_id && at.transaction_uuid === stored.transaction_uuid, `${label}: ${stored.booking_id} is the service's`);
        // A result and the settlement it brings are written together.
        const state = await reader.getBookingState({ bookingId: stored.booking_id });
        const finalDelivered = state!.delivered.some((status) => FINAL.has(status));
        const open = (await reader.getOrderState({ orderKey: stored.order_key })).open.some((b) => b.booking_id === stored.booking_id);
        assert.equal(open, !finalDelivered, `${label}: ${stored.booking_id} settled exactly when a final result of it was delivered`);
        for (const status of state!.delivered) {
          assert.ok((delivered.get(`${stored.correlation_id} ${status}`) ?? 0) >= 1, `${label}: a result marked delivered reached the hook`);
        }
      }
    }

    test('60 parallel books of one key over two processes give one booking', async () => {
      const orderId = `ONE-KEY-${crypto.randomUUID()}`;
      const key = `one-key-${crypto.randomUUID()}`;
      const got = await Promise.all(Array.from({ length: 60 }, (_, i) => book(workers[i % 2]!, key, orderId)));
      const ids = new Set(got.map((a) => (a.status === 200 ? a.data!.booking_id : `${a.status} ${a.code} ${a.message ?? ''} (${a.ms} ms)`)));
      assert.deepEqual([...ids].length, 1, [...ids].join('; '));
      assert.equal(ofOrder(orderId).length, 1, 'one booking at the service');
      await verify('one key');
    });

    test("a process killed (SIGKILL) holding an order's lease: the other takes the order over within 5 s, one booking", async () => {
      const doomed = await start({ HANG_AT: 'book-request' });
      const orderId = `KILLED-${crypto.randomUUID()}`;
      const hung = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the worker did not reach book-request within 30 s; it told: ${JSON.stringify(doomed.messages.filter((m) => m.type !== 'ready'))}`)), 30_000);
        doomed.child.on('message', (m: Message) => {
          if (m.type === 'hang') {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      // A fresh process's first book may meet an outage (its store's set-up past the 1 s deadline on a loaded machine): asked again with the same key, as the element does.
      const firstKey = `killed-a-${crypto.randomUUID()}`;
      const first = throughOutages(() => post(doomed, 'book', { channel: 'app', order: { id: orderId } }, { 'idempotency-key': firstKey }, false));
      await hung;
      await stopWorker(doomed, 'SIGKILL');
      retired.push(doomed);
      await first;
      const killedAt = Date.now();
      // The shopper's retry (another tab: another key) on another process.
      const answer = await book(workers[1]!, `killed-b-${crypto.randomUUID()}`, orderId);
      const tookMs = Date.now() - killedAt;
      assert.equal(answer.status, 200, JSON.stringify(answer));
      assert.ok(tookMs < 5_000, `taken over after ${tookMs} ms`);
      assert.equal(ofOrder(orderId).length, 1, 'one booking at the service');
      await verify('killed holding a lease');
    });

    test('a restart of every handler process keeps everything: replays answer the same bookings, delivered results stay delivered', async () => {
      const made: Array<{ key: string; orderId: string; booking_id: string; correlation_id: string }> = [];
      for (let i = 0; i < 4; i++) {
        const key = `restart-${i}-${crypto.randomUUID()}`;
        const orderId = `RESTART-${i}-${crypto.randomUUID()}`;
        const answer = await book(workers[i % 2]!, key, orderId);
        assert.equal(answer.status, 200, JSON.stringify(answer));
        const { booking_id, correlation_id, deeplink } = answer.data!;
        if (i % 2 === 0) {
          await pay(deeplink!);
          assert.equal((await post(workers[0]!, 'status', { booking_id, correlation_id })).data?.status, 'SUCCESS');
          assert.equal(deliveries(correlation_id!).length, 1);
        }
        made.push({ key, orderId, booking_id: booking_id!, correlation_id: correlation_id! });
      }
      const before = workers.splice(0);
      await Promise.all(before.map((w) => stopWorker(w, 'SIGTERM')));
      retired.push(...before);
      workers.push(...(await Promise.all([start(), start()])));
      for (const [i, m] of made.entries()) {
        const replay = await post(workers[i % 2]!, 'book', { channel: 'app', order: { id: m.orderId } }, { 'idempotency-key': m.key });
        assert.equal(replay.data?.booking_id, m.booking_id, 'the same booking after the restart');
        const status = await post(workers[(i + 1) % 2]!, 'status', { booking_id: m.booking_id, correlation_id: m.correlation_id });
        assert.equal(status.data?.status, i % 2 === 0 ? 'SUCCESS' : 'BOOKED');
        assert.equal(deliveries(m.correlation_id).length, i % 2 === 0 ? 1 : 0, 'nothing delivered again');
        assert.equal(ofOrder(m.orderId).length, 1, 'nothing booked again');
      }
      await verify('restart');
    });

    /** A book of a fresh order on the first process: the probe of {@link probedFault}. */
    const probeBook = () => book(workers[0]!, `probe-${crypto.randomUUID()}`, `PROBE-${crypto.randomUUID()}`);

    test('the database stopped for 2 s and started again under load: IP-503 with Retry-After, nothing lost', async () => {
      let probe: Answer | undefined;
      await withTraffic(async () => {
        probe = await probedFault(() => db.pause(), probeBook, () => db.resume(), 2_000);
      });
      assert.ok(probe && outage(probe), `a book while it was down was answered IP-503; it got ${JSON.stringify(probe)}; answers: ${tally(answers)}`);
      await verify('stopped and started');
    });

    test('connections killed under load (inside a store call where the server allows it): IP-503 at worst, nothing lost', async () => {
      let killed = 0;
      await withTraffic(async () => {
        for (let i = 0; i < 3; i++) {
          killed += await db.killConnections();
          await sleep(300);
        }
      });
      assert.ok(killed > 0, 'connections were killed');
      await verify('connections killed');
    });

    if (db.kill) {
      const kill = db.kill.bind(db);
      test('the database server killed (SIGKILL) under load and started again: nothing it acknowledged is lost', async () => {
        let probe: Answer | undefined;
        await withTraffic(async () => {
          // Down longer than the workers' store deadline (STORE_DEADLINE_MS, 1 s), and until a book
          // asked while it is down has been answered.
          probe = await probedFault(kill, probeBook, () => db.resume(), 1_500);
        });
        assert.ok(probe && outage(probe), `a book while it was down was answered IP-503; it got ${JSON.stringify(probe)}; answers: ${tally(answers)}`);
        await verify('killed and started');
      });
    }
  });
}
