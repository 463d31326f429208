/**
 * One journey for every example: each target is started as a merchant would start it (its own
 * runtime, the packed package, PostgreSQL where it runs), in front of the real sandbox, and driven the
 * same way: book `app` and `web`, pay at the sandbox, the callback delivered once, status SUCCESS, the
 * same order refused IP-412 under a new key, a forged callback refused; then reconciliation of a
 * payment whose callback was lost, by the way the target's platform runs it; the memory store's
 * production warning; and, for some targets, the shopper's journey in Chromium.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { startPostgres } from '../../scripts/postgres.mjs';
import { launchChromium } from '../../scripts/chromium.mjs';
import { freePort } from '../../scripts/host.mjs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SANDBOX_DEFAULTS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { PAYMENT_METHODS } from '../../src/sandbox/esewa-intent/service.js';
import type { CheckReport, runCheck } from '../../src/check/index.js';
import { createWorkspace, type Workspace } from './workspace.js';

const PRODUCT_CODE = 'EXAMPLE_SHOP';
const ACCESS_KEY = 'example-shop-access-key';
/** Every wait of these tests ends by this time at the latest, with a message. */
const WAIT_MS = 30_000;
/** The age from which a booking is reconciled in these tests (the spec's five minutes in production). */
const RECONCILE_AFTER_MS = 5_000;

/** How the target's platform runs the spec's five-minute status check without a shopper. */
export type ReconcileWay = 'timer' | 'status-check' | 'cron-route' | 'scheduled';

/** A started example. */
export interface Running {
  origin: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Runs the platform's scheduled trigger (Workers' cron), when it has one. */
  scheduled?(): Promise<void>;
  /**
   * Starts the example's own code where it is reached past the local platform's router, when the
   * platform answers some requests itself (Workers: workerd's socket of the worker itself).
   */
  direct?(): Promise<{ port: number; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

/** What a target's test needs to know about it. */
export interface Target {
  /** The folder under examples/. */
  name: string;
  reconcile: ReconcileWay;
  /** Runs the shopper's journey in Chromium too. */
  browser?: boolean;
  /** Whether the example uses PostgreSQL (through DATABASE_URL) in its journey. */
  postgres: boolean;
  /** Prepares the copy once (installs, builds); returns what `start` needs. */
  prepare?(dir: string): Promise<void>;
  /**
   * Requests the platform itself answers before the example's code runs, and why: they are checked to
   * leak nothing (no stack, no path, no error page) instead of being answered 400 or 405 in JSON.
   */
  platformAnswers?: {
    malformedHost?: 'all' | 'pages';
    trace?: 'pages-and-kit';
    /** What the platform answers them, measured: the status (0: the connection closed with no answer) and the whole text after the status line. */
    answer: { status: number; rest: RegExp };
    why: string;
  };
  /** Starts the example in `dir` with `env`, on `port`. */
  start(dir: string, env: Record<string, string>, port: number): Promise<Running>;
}

/**
 * Sends `request` as written (bytes a fetch cannot send: a malformed Host, TRACE) to 127.0.0.1:`port`
 * and reads the answer's status and everything after it, within WAIT_MS.
 */
export function rawRequest(port: number, request: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${JSON.stringify(request.slice(0, 40))} within ${WAIT_MS} ms: ${text.slice(0, 200)}`));
    }, WAIT_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
    socket.end(request);
  });
}

/** A free loopback port: scripts/host.mjs. */
export { freePort };

/** Polls until `check` returns a value, or fails after `ms` naming `what`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts a command as a child process and waits until `origin` answers its checkout page. `stop()`
 * ends the whole process group, so runtimes that start child processes (Next's workers) end too.
 */
export async function startProcess(command: string, args: string[], options: { cwd: string; env: Record<string, string>; origin: string; readyPath?: string; readyMs?: number }): Promise<Running> {
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running: Running = {
    origin: options.origin,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          // Already gone.
        }
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }, 5_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  try {
    await waitFor(
      `${command} ${args.join(' ')} to serve ${options.origin}${options.readyPath ?? '/'}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`it exited with ${child.exitCode}:\n${output}`);
        const response = await fetch(`${options.origin}${options.readyPath ?? '/'}`);
        await response.arrayBuffer();
        return response.ok ? true : undefined;
      },
      options.readyMs ?? 60_000,
    );
  } catch (error) {
    await running.stop();
    throw new Error(`${String(error)}\n--- output ---\n${output}`);
  }
  return running;
}

/**
 * A relay in front of the example's callback route: the sandbox calls it, it forwards to the
 * example, or refuses while `lose` is set (a callback lost on the way, which reconciliation repairs).
 */
async function startCallbackRelay(target: () => string): Promise<{ url: string; lose: boolean; forwarded: number; close(): Promise<void> }> {
  const relay = {
    url: '',
    lose: false,
    forwarded: 0,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (relay.lose) {
        response.writeHead(503).end();
        return;
      }
      relay.forwarded++;
      fetch(`${target()}/api/pay/callback`, { method: 'POST', headers: { 'content-type': request.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) })
        .then(async (answer) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer())))
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/pay/callback`;
  return relay;
}

/** The merchant's view of an order, from the example's `/api/orders/{id}`. */
interface OrderView {
  id: string;
  amount: number;
  paid: boolean;
  payments: Array<{ status: string; source: string; amount: number; reference_code?: string }>;
  /** Calls of onPaymentResult for the order. */
  deliveries: number;
}

async function orderOf(origin: string, id: string): Promise<OrderView> {
  const response = await fetch(`${origin}/api/orders/${id}`);
  assert.equal(response.status, 200, `GET /api/orders/${id}`);
  return (await response.json()) as OrderView;
}

async function post(origin: string, route: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${origin}/api/pay/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A fresh order id, minted by the example's own checkout page. */
async function newOrder(origin: string): Promise<string> {
  const page = await (await fetch(`${origin}/`)).text();
  const id = /order-id="(order-[a-z0-9]+)"/.exec(page)?.[1];
  assert.ok(id, `the checkout page names an order:\n${page}`);
  return id;
}

async function book(origin: string, channel: 'app' | 'web', orderId: string) {
  const answer = await post(origin, 'book', { channel, order: { id: orderId } }, { 'idempotency-key': crypto.randomUUID() });
  assert.equal(answer.status, 200, `book ${channel}: ${JSON.stringify(answer.json)}`);
  assert.equal(answer.json.code, 'IP-201');
  return answer.json.data as { booking_id: string; correlation_id: string; deeplink?: string; web_payment?: { url: string; fields: Record<string, string> } };
}

const METHOD = Object.keys(PAYMENT_METHODS)[0]!;

async function form(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
}

/** Pays a booking as the shopper would at the sandbox: the wallet page (app) or the web page (web). */
async function payAtSandbox(sandbox: Sandbox, booking: Awaited<ReturnType<typeof book>>): Promise<string> {
  let confirm: string;
  if (booking.deeplink) {
    assert.ok(booking.deeplink.startsWith(`${sandbox.linksUrl}/pay/`), booking.deeplink);
    assert.equal((await fetch(booking.deeplink)).status, 200);
    confirm = `${booking.deeplink}/confirm`;
  } else {
    const payment = booking.web_payment!;
    const page = await form(payment.url, payment.fields);
    assert.equal(page.status, 200, 'the web payment page accepts the signed form');
    confirm = `${sandbox.baseUrl}/web/pay/${encodeURIComponent(booking.booking_id)}/confirm`;
  }
  const answer = await form(confirm, { method: METHOD, mpin: '1234' });
  assert.equal(answer.status, 303, 'the sandbox sends the shopper back');
  return answer.headers.get('location')!;
}

/** What the shop charges for every order (the examples' shared shop.ts). */
const PRICE = 1250;

/**
 * Runs the conformance checker of the packed package (`wallet-pay-button/check`, resolved from the
 * workspace as a merchant's project resolves it) against the proxy at `${origin}/api/pay`. The checker
 * starts its own sandbox on `sandboxPort`; the shop's order ids (`order-…`) make its prefix.
 */
async function runConformanceChecker(workspaceDir: string, origin: string, sandboxPort: number): Promise<CheckReport & { slowest: string }> {
  const entry = createRequire(join(workspaceDir, 'package.json')).resolve('wallet-pay-button/check');
  assert.ok(entry.startsWith(join(workspaceDir, 'node_modules', 'wallet-pay-button')), `the checker comes from the packed package: ${entry}`);
  const check = (await import(pathToFileURL(entry).href)) as { runCheck: typeof runCheck };
  // How long each clause took, so the slow ones show in the test's output.
  const took: Array<[string, number]> = [];
  let last = Date.now();
  const report = await check.runCheck({
    endpoint: `${origin}/api/pay`, sandboxPort, orderPrefix: 'order-', amount: PRICE, clauseTimeoutMs: WAIT_MS,
    // The example servers reconcile on their own timer (the kit's reconcile()), which the checker cannot trigger.
    reconcile: false,
    onClause: (result) => {
      took.push([result.id, Date.now() - last]);
      last = Date.now();
    },
  });
  const slowest = took.sort((a, b) => b[1] - a[1]).slice(0, 3).map(([id, ms]) => `${id} ${ms} ms`).join(', ');
  return { ...report, slowest };
}

/** Registers the suite of one target. */
export function describeExample(target: Target): void {
  describe(`example ${target.name}`, { timeout: 600_000 }, () => {
    let workspace: Workspace;
    let dir: string;
    let postgres: { url: string; stop(): Promise<void> } | undefined;
    let sandbox: Sandbox;
    let relay: Awaited<ReturnType<typeof startCallbackRelay>>;
    let shop: Running;
    let origin = '';
    const started: Running[] = [];

    const env = (port: number, extra: Record<string, string> = {}): Record<string, string> => ({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      WALLET_SERVICE_URL: sandbox.baseUrl,
      WALLET_PRODUCT_CODE: PRODUCT_CODE,
      WALLET_ACCESS_KEY: ACCESS_KEY,
      WALLET_ALLOWED_HOSTS: sandbox.allowedHosts,
      WALLET_CALLBACK_URL: relay.url,
      // The tests cannot wait the spec's five minutes; a journey's own payment settles well within this.
      RECONCILE_OLDER_THAN_MS: String(RECONCILE_AFTER_MS),
      RECONCILE_EVERY_MS: '300',
      CRON_SECRET: 'example-cron-secret',
      ...extra,
    });

    before(async () => {
      workspace = createWorkspace();
      dir = workspace.copy(target.name);
      if (target.postgres) postgres = await startPostgres();
      sandbox = await startSandbox({ productCode: PRODUCT_CODE, accessKey: ACCESS_KEY, callbackRetry: { attempts: 2, baseDelayMs: 50 } });
      relay = await startCallbackRelay(() => origin);
      const began = Date.now();
      await target.prepare?.(dir);
      const port = await freePort();
      shop = await target.start(dir, env(port, postgres ? { DATABASE_URL: postgres.url } : {}), port);
      started.push(shop);
      origin = shop.origin;
      console.log(`# ${target.name}: prepared and started in ${Date.now() - began} ms`);
    });

    after(async () => {
      for (const running of started) await running.stop();
      await relay?.close();
      await sandbox?.close();
      await postgres?.stop();
      workspace?.dispose();
    });

    test('app and web: paid at the sandbox, callback delivered once, SUCCESS, the order refused again (IP-412), a forged callback refused', async () => {
      for (const channel of ['app', 'web'] as const) {
        const orderId = await newOrder(origin);
        const booking = await book(origin, channel, orderId);
        const back = await payAtSandbox(sandbox, booking);
        assert.equal(new URL(back).origin, origin, 'the way back is the shop');
        assert.equal(new URL(back).searchParams.get('order'), orderId);
        await sandbox.whenCallbacksSettled();
        const attempts = sandbox.callbackAttempts().filter((a) => a.booking_id === booking.booking_id);
        assert.deepEqual(attempts.map((a) => a.delivered), [true], `${channel}: one callback, delivered at once`);

        const status = await post(origin, 'status', { booking_id: booking.booking_id, correlation_id: booking.correlation_id });
        assert.equal(status.status, 200);
        assert.equal((status.json.data as { status: string }).status, 'SUCCESS');

        const view = await orderOf(origin, orderId);
        assert.equal(view.paid, true, `${channel}: the shop recorded the payment`);
        assert.deepEqual(view.payments.map((p) => [p.status, p.source, p.amount]), [['SUCCESS', 'callback', 1250]], `${channel}: delivered by the callback`);
        assert.equal(view.deliveries, 1, `${channel}: onPaymentResult called once, the status check delivering nothing again`);

        const again = await post(origin, 'book', { channel, order: { id: orderId } }, { 'idempotency-key': crypto.randomUUID() });
        assert.equal(again.status, 409);
        assert.equal(again.json.code, 'IP-412', `${channel}: a paid order is refused under a new key`);
      }
      const forged = await fetch(`${origin}/api/pay/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          product_code: PRODUCT_CODE, amount: 1250, reference_code: 'REF-0000000000000000', correlation_id: crypto.randomUUID(), status: 'SUCCESS',
          signed_field_names: 'product_code,amount,reference_code,correlation_id,status', signature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        }),
      });
      assert.equal(forged.status, 401);
      assert.equal(((await forged.json()) as { code: string }).code, 'IP-400');
    });

    test('a malformed Host is 400 (IP-420) and TRACE 405 (IP-405), in JSON, as the node adapter answers: no error page, no stack, no path', async () => {
      const { port } = new URL(origin);
      const platform = target.platformAnswers;
      const direct = await shop.direct?.();
      try {
        for (const [request, status, code, byPlatform] of [
          [`POST /api/pay/book HTTP/1.1\r\nHost: [bad\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`, 400, 'IP-420', platform?.malformedHost === 'all'],
          [`GET / HTTP/1.1\r\nHost: [bad\r\nConnection: close\r\n\r\n`, 400, 'IP-420', platform?.malformedHost !== undefined],
          [`TRACE /api/pay/book HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, 405, 'IP-405', platform?.trace !== undefined],
          [`TRACE / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, 405, 'IP-405', platform?.trace !== undefined],
        ] as const) {
          const answer = await rawRequest(Number(port), request);
          const line = request.slice(0, request.indexOf('\r\n'));
          assert.doesNotMatch(answer.text, /\/(home|tmp|work|Users)\/|\bat [\w.]+ \(|<html/i, `${line}: no stack, no file path, no error page`);
          // Answered by the platform before the example's code (see the target's platformAnswers.why): its
          // answer as measured, and the example's own answer where its code can be reached past it.
          const own = byPlatform ? (direct ? await rawRequest(direct.port, request) : undefined) : answer;
          if (byPlatform) {
            assert.equal(answer.status, platform!.answer.status, `${line}, the platform's answer: ${answer.text.slice(0, 300)}`);
            assert.match(answer.text.replace(/^HTTP\/1\.[01] \d{3}[^\r\n]*\r\n/, ''), platform!.answer.rest, `${line}, the platform's answer`);
          }
          if (!own) continue;
          assert.equal(own.status, status, `${line}: ${own.text.slice(0, 300)}`);
          assert.match(own.text, new RegExp(`"code":"${code}"`), `${line}: ${own.text.slice(0, 300)}`);
        }
      } finally {
        await direct?.stop();
      }
    });

    test(`reconciliation (${target.reconcile}): a payment whose callback was lost is settled without the shopper`, async () => {
      const orderId = await newOrder(origin);
      relay.lose = true;
      const booking = await book(origin, 'app', orderId);
      try {
        await payAtSandbox(sandbox, booking);
        await sandbox.whenCallbacksSettled();
      } finally {
        relay.lose = false;
      }
      assert.equal(sandbox.getBooking(booking.booking_id)?.status, 'SUCCESS');
      const booked = Date.now();
      const lost = sandbox.callbackAttempts().filter((a) => a.booking_id === booking.booking_id);
      assert.ok(lost.length > 0 && lost.every((a) => !a.delivered), 'every callback attempt was lost');
      // Triggered by hand only once the booking is old enough for a pass (the timer waits by itself).
      if (target.reconcile !== 'timer') await new Promise((resolve) => setTimeout(resolve, Math.max(0, booked + RECONCILE_AFTER_MS + 200 - Date.now())));
      switch (target.reconcile) {
        case 'timer':
          break;
        case 'status-check': {
          // Another shopper's status check starts the bounded pass.
          const other = await book(origin, 'web', await newOrder(origin));
          assert.equal((await post(origin, 'status', { booking_id: other.booking_id, correlation_id: other.correlation_id })).status, 200);
          break;
        }
        case 'cron-route': {
          const refused = await fetch(`${origin}/api/cron/reconcile`, { headers: { authorization: 'Bearer wrong' } });
          assert.equal(refused.status, 401, 'the cron route refuses a caller without the secret');
          const answer = await fetch(`${origin}/api/cron/reconcile`, { headers: { authorization: 'Bearer example-cron-secret' } });
          assert.equal(answer.status, 200, await answer.clone().text());
          assert.ok(((await answer.json()) as { settled: number }).settled >= 1, 'the pass settled the payment');
          break;
        }
        case 'scheduled':
          await shop.scheduled!();
          break;
      }
      const view = await waitFor('the reconciled payment in the shop', async () => {
        const found = await orderOf(origin, orderId);
        return found.payments.length > 0 ? found : undefined;
      });
      assert.deepEqual(view.payments.map((p) => [p.status, p.source]), [['SUCCESS', 'reconcile']]);
      assert.equal(view.deliveries, 1, 'the reconciled result is delivered once');
      assert.equal(view.paid, true);
    });

    test('the conformance checker (wallet-pay-button/check) passes every clause against a second instance', async () => {
      // A second instance in front of the checker's own sandbox, with that sandbox's default product
      // code and access key; callbacks come straight to it, and no reconcile pass of the journey's
      // timings runs under the checker. The memory store keeps its state apart from the journey's.
      const sandboxPort = await freePort();
      const port = await freePort();
      const checkerEnv = env(port, {
        WALLET_SERVICE_URL: `http://127.0.0.1:${sandboxPort}`,
        WALLET_PRODUCT_CODE: SANDBOX_DEFAULTS.productCode,
        WALLET_ACCESS_KEY: SANDBOX_DEFAULTS.accessKey,
        WALLET_ALLOWED_HOSTS: `127.0.0.1:${sandboxPort}`,
      });
      for (const name of ['WALLET_CALLBACK_URL', 'RECONCILE_OLDER_THAN_MS', 'RECONCILE_EVERY_MS']) delete checkerEnv[name];
      const instance = await target.start(dir, checkerEnv, port);
      started.push(instance);
      const began = Date.now();
      let report: CheckReport & { slowest: string };
      try {
        report = await runConformanceChecker(workspace.dir, instance.origin, sandboxPort);
      } finally {
        await instance.stop();
      }
      console.log(`# ${target.name}: the checker ran ${report.clauses.length} clauses in ${Date.now() - began} ms (slowest: ${report.slowest})`);
      const failures = report.clauses.filter((clause) => !clause.ok);
      assert.ok(report.clauses.length > 0, 'the checker ran clauses');
      assert.equal(report.failed, 0, `${failures.length} clause(s) failed:\n${failures.map((f) => `FAIL ${f.id}  ${f.title}: ${f.detail}`).join('\n')}\n--- output ---\n${instance.output()}`);
    });

    test('the memory store warns under NODE_ENV=production', async () => {
      const port = await freePort();
      const bare = await target.start(dir, env(port, { NODE_ENV: 'production' }), port);
      started.push(bare);
      // The warning is given when the handler is made: at start, or on the first request on platforms
      // that build the shop lazily.
      const booked = await post(bare.origin, 'book', { channel: 'app', order: { id: await newOrder(bare.origin) } }, { 'idempotency-key': crypto.randomUUID() });
      assert.equal(booked.status, 200, JSON.stringify(booked.json));
      await waitFor('the memory store warning', () => (/in-memory store under NODE_ENV=production/.test(bare.output()) ? true : undefined), 10_000);
      await bare.stop();
      if (postgres) {
        assert.doesNotMatch(shop.output(), /in-memory store/, 'no warning on PostgreSQL');
      }
    });

    if (target.browser) {
      test('in Chromium: the checkout page pays on the web path and lands on the success page', async () => {
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          const errors: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          await page.goto(`${origin}/`);
          const orderId = await page.locator('wallet-pay-button').getAttribute('order-id');
          await page.locator('wallet-pay-button').locator('button[part~="button"]').click();
          await page.waitForURL((url) => url.href.startsWith(sandbox.baseUrl), { timeout: WAIT_MS });
          await page.getByLabel('MPIN').fill('1234');
          await page.getByRole('button', { name: 'Confirm payment' }).click();
          await page.waitForURL((url) => url.pathname === '/success', { timeout: WAIT_MS });
          await page.locator('#result', { hasText: 'is paid' }).waitFor({ timeout: WAIT_MS });
          assert.ok(orderId);
          assert.equal((await orderOf(origin, orderId)).paid, true);
          assert.deepEqual(errors, []);
        } finally {
          await browser.close();
        }
      });
    }
  });
}
