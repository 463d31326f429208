/**
 * Bounded work: the `onPaymentResult` time limit on the shopper's `/status` path, and `reconcile()`'s
 * rules (overlapping calls join one pass, at most `concurrency` status checks at once, a time budget
 * per pass, one instance at a time per open booking across instances on one PostgreSQL). The status
 * checks go through a real loopback proxy in front of a real sandbox, which counts and holds them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler, type PaymentHandlerOptions, type PaymentResult } from '../../../../src/server/handler.js';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { createMemoryStore } from '../../../../src/server/memory-store.js';
import { bodyOf, closedPortUrl, listen, payAtWallet, type Loopback } from '../helpers.js';
import { freshDatabase, stopServer } from '../postgres/pg-server.js';
import { within } from '../../../support/within.js';

const KEY = 'bounded-test-access-key';
const PRODUCT = 'BOUND01';

/** A status request the proxy saw: which booking, and when it arrived. */
interface SeenStatus {
  booking_id: string;
  at: number;
}

/**
 * A loopback proxy in front of the sandbox. Status requests are counted, and held by `hold()` (a
 * promise per request) before they are passed on, so the test decides when each one answers.
 */
interface StatusProxy extends Loopback {
  seen: SeenStatus[];
  /** Status requests being answered right now, and the most at once. */
  inFlight: number;
  maxInFlight: number;
  hold: () => Promise<void>;
  /** Resolves once `count` status requests have arrived in all. */
  arrived(count: number): Promise<void>;
}

async function statusProxy(target: string): Promise<StatusProxy> {
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const proxy = {
    seen: [] as SeenStatus[],
    inFlight: 0,
    maxInFlight: 0,
    hold: () => Promise.resolve(),
    arrived(count: number) {
      return proxy.seen.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
  };
  const server = await listen((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const isStatus = (request.url ?? '').endsWith('/status');
      if (isStatus) {
        proxy.inFlight++;
        proxy.maxInFlight = Math.max(proxy.maxInFlight, proxy.inFlight);
        proxy.seen.push({ booking_id: String((JSON.parse(body) as { booking_id?: unknown }).booking_id), at: Date.now() });
        for (const waiter of waiters.filter((w) => proxy.seen.length >= w.count)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
        await proxy.hold();
      }
      try {
        const upstream = await fetch(`${target}${request.url}`, {
          method: request.method,
          headers: { 'content-type': String(request.headers['content-type'] ?? 'application/json') },
          body,
        });
        const text = await upstream.text();
        response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        response.end(text);
      } finally {
        if (isStatus) proxy.inFlight--;
      }
    })();
  });
  return Object.assign(proxy, server);
}

/** A gate: every `wait()` resolves when `open()` is called (and at once after it). */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open };
}

const post = async (handler: PaymentHandler, route: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await handler(
    new Request(`http://merchant.test/api/pay/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as { code: string; data?: Record<string, string> } };
};

let orders = 0;
/** Books a fresh order (the sandbox never sends its callback) and returns its ids. */
async function bookOne(handler: PaymentHandler): Promise<{ booking_id: string; correlation_id: string; deeplink: string }> {
  const answer = await post(handler, 'book', { channel: 'app', order: { id: `B-${process.pid}-${++orders}` } }, { 'idempotency-key': crypto.randomUUID() });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data as { booking_id: string; correlation_id: string; deeplink: string };
}

describe('bounded work', () => {
  let sandbox: Sandbox;
  let proxy: StatusProxy;
  let base: Omit<PaymentHandlerOptions, 'onPaymentResult' | 'store'>;

  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
    proxy = await statusProxy(sandbox.baseUrl);
    base = {
      serviceUrl: proxy.url,
      productCode: PRODUCT,
      accessKey: KEY,
      callbackUrl: `${await closedPortUrl()}/api/pay/callback`,
      redirectUrl: 'http://merchant.test/return',
      lookupOrder: (order) => ({ id: String(order.id), amount: 100, properties: { sandbox_callback: 'never' } }),
    };
  });
  after(async () => {
    await proxy?.close();
    await sandbox?.close();
    await stopServer();
  });

  /** A fresh proxy state for one test: no requests seen, none held. */
  const resetProxy = () => {
    proxy.seen.length = 0;
    proxy.maxInFlight = 0;
    proxy.hold = () => Promise.resolve();
  };

  test('a hung onPaymentResult: /status answers within the limit; the next status check delivers once the hook succeeds', async () => {
    resetProxy();
    const delivered: PaymentResult[] = [];
    const errors: string[] = [];
    let calls = 0;
    let failHung!: (error: Error) => void;
    let entered!: () => void;
    const hookEntered = new Promise<boolean>((resolve) => (entered = () => resolve(true)));
    const handler = createPaymentHandler({
      ...base,
      store: createMemoryStore(),
      resultTimeoutMs: 50,
      onPaymentResult: (result) => {
        calls++;
        // The first call hangs (the order database does not answer) until the test makes it fail.
        if (calls === 1) {
          entered();
          return new Promise<void>((_resolve, reject) => (failHung = reject));
        }
        delivered.push(result);
      },
      onError: (error, { route }) => errors.push(`${route}: ${error instanceof Error ? error.message : String(error)}`),
    });
    const booking = await bookOne(handler);
    await payAtWallet(booking.deeplink);
    const ids = { booking_id: booking.booking_id, correlation_id: booking.correlation_id };

    const first = await post(handler, 'status', ids);
    assert.equal(first.status, 200);
    assert.equal(first.body.data?.status, 'SUCCESS');
    // The answer went out at the limit; the delivery reaches the hook by itself (later, on a loaded machine).
    assert.ok(await within(hookEntered, 5_000, 'the hook to be called'));
    assert.equal(calls, 1, 'the hook is still running');
    assert.deepEqual(errors, ['status: onPaymentResult did not finish within 50 ms; the answer went out without waiting for it.']);
    // Asked again while the hook still hangs: the answer does not wait either, and joins the running call.
    assert.equal((await post(handler, 'status', ids)).body.data?.status, 'SUCCESS');
    assert.equal(calls, 1);

    failHung(new Error('the order database timed out'));
    const retried = await post(handler, 'status', ids);
    assert.equal(retried.body.data?.status, 'SUCCESS');
    assert.equal(calls, 2, 'the next status check delivered again');
    assert.deepEqual(delivered.map((r) => [r.source, r.status, r.booking_id]), [['status', 'SUCCESS', booking.booking_id]]);
    // Delivered: later checks and passes do not call the hook again.
    await post(handler, 'status', ids);
    assert.deepEqual(await handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false });
    assert.equal(calls, 2);
  });

  test('a hung onPaymentResult that then fails is delivered by the next reconcile pass, once', async () => {
    resetProxy();
    const delivered: PaymentResult[] = [];
    let calls = 0;
    let failHung!: (error: Error) => void;
    const handler = createPaymentHandler({
      ...base,
      store: createMemoryStore(),
      resultTimeoutMs: 50,
      onPaymentResult: (result) => {
        calls++;
        if (calls === 1) return new Promise<void>((_resolve, reject) => (failHung = reject));
        delivered.push(result);
      },
    });
    const booking = await bookOne(handler);
    await payAtWallet(booking.deeplink);
    const answer = await post(handler, 'status', { booking_id: booking.booking_id, correlation_id: booking.correlation_id });
    assert.equal(answer.body.data?.status, 'SUCCESS');
    failHung(new Error('the order database timed out'));
    assert.deepEqual(await handler.reconcile({ olderThanMs: 0 }), { checked: 1, settled: 1, open: 0, failed: 0, cancelled: 0, unfinished: false });
    assert.deepEqual(await handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false });
    assert.deepEqual(delivered.map((r) => [r.source, r.booking_id]), [['reconcile', booking.booking_id]]);
    assert.equal(calls, 2);
  });

  test('reconcile(): a call while a pass runs joins it: one set of status checks, one report', async () => {
    resetProxy();
    const handler = createPaymentHandler({ ...base, store: createMemoryStore(), onPaymentResult: () => {} });
    for (let i = 0; i < 3; i++) await bookOne(handler);
    const held = gate();
    proxy.hold = held.wait;
    const first = handler.reconcile({ olderThanMs: 0 });
    await proxy.arrived(1);
    const second = handler.reconcile({ olderThanMs: 0 });
    held.open();
    const [a, b] = await Promise.all([first, second]);
    assert.deepEqual(a, { checked: 3, settled: 0, open: 3, failed: 0, cancelled: 0, unfinished: false });
    assert.deepEqual(b, a, 'the second call got the running pass\'s report');
    assert.equal(proxy.seen.length, 3);
    assert.equal(new Set(proxy.seen.map((s) => s.booking_id)).size, 3);
  });

  test('reconcile(): at most 8 status checks at once against a slow service', async () => {
    resetProxy();
    const handler = createPaymentHandler({ ...base, store: createMemoryStore(), onPaymentResult: () => {} });
    for (let i = 0; i < 20; i++) await bookOne(handler);
    // The service is slow: each status check takes 40 ms.
    proxy.hold = () => new Promise((resolve) => setTimeout(resolve, 40));
    const report = await handler.reconcile({ olderThanMs: 0 });
    assert.deepEqual(report, { checked: 20, settled: 0, open: 20, failed: 0, cancelled: 0, unfinished: false });
    assert.equal(proxy.seen.length, 20);
    assert.equal(proxy.maxInFlight, 8);

    resetProxy();
    proxy.hold = () => new Promise((resolve) => setTimeout(resolve, 40));
    await handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0, concurrency: 3 });
    assert.equal(proxy.seen.length, 20);
    assert.equal(proxy.maxInFlight, 3);
  });

  test('reconcile(): no new check starts once the time budget is spent; the pass says so and the next one goes on', async () => {
    resetProxy();
    // The handler's clock: the budget is spent when the test says so, not after real time passes.
    let now = Date.parse('2026-03-01T09:00:00Z');
    const handler = createPaymentHandler({ ...base, store: createMemoryStore(), onPaymentResult: () => {}, now: () => now });
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await bookOne(handler));
    const held = gate();
    proxy.hold = held.wait;
    const pass = handler.reconcile({ olderThanMs: 0, concurrency: 2, timeBudgetMs: 100 });
    await proxy.arrived(2);
    // Both checks are stuck at the service until the budget is spent.
    now += 101;
    held.open();
    assert.deepEqual(await pass, { checked: 2, settled: 0, open: 2, failed: 0, cancelled: 0, unfinished: true });
    assert.equal(proxy.seen.length, 2);

    // The next pass (a fresh budget) checks the other eight; the two just checked wait their turn.
    const next = await handler.reconcile({ olderThanMs: 0 });
    assert.deepEqual(next, { checked: 8, settled: 0, open: 8, failed: 0, cancelled: 0, unfinished: false });
    assert.equal(new Set(proxy.seen.map((s) => s.booking_id)).size, 10);
  });

  test('reconcile() across two handlers on one PostgreSQL: each open booking is asked about once', async () => {
    resetProxy();
    const url = await freshDatabase();
    const pools = [new pg.Pool({ connectionString: url, max: 4 }), new pg.Pool({ connectionString: url, max: 4 })];
    // An idle connection the server ends (it is stopped after the file) must not crash the run.
    for (const pool of pools) pool.on('error', () => {});
    for (const pool of pools) pool.on('error', () => {});
    try {
      const [one, two] = pools.map((pool) => createPaymentHandler({ ...base, store: createPostgresStore(pool), onPaymentResult: () => {} })) as [
        PaymentHandler,
        PaymentHandler,
      ];
      const made = [];
      for (let i = 0; i < 24; i++) made.push(await bookOne(i % 2 === 0 ? one : two));
      // Paid, so a pass settles it; the hook of either instance is fine.
      await payAtWallet(made[0]!.deeplink);
      // A slow service, so both passes run side by side.
      proxy.hold = () => new Promise((resolve) => setTimeout(resolve, 30));
      // The instances' timers are not in step: the second pass begins while the first is under way.
      const first = one.reconcile({ olderThanMs: 0 });
      await proxy.arrived(10);
      const [a, b] = await Promise.all([first, two.reconcile({ olderThanMs: 0 })]);
      assert.equal(a.checked + b.checked, 24, JSON.stringify([a, b]));
      assert.equal(a.settled + b.settled, 1);
      assert.ok(a.checked > 0 && b.checked > 0, `both instances took part: ${JSON.stringify([a, b])}`);
      const asked = new Map<string, number>();
      for (const { booking_id } of proxy.seen) asked.set(booking_id, (asked.get(booking_id) ?? 0) + 1);
      assert.equal(asked.size, 24);
      assert.deepEqual([...asked.values()].filter((n) => n !== 1), [], 'no booking was asked about twice');
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });
});
