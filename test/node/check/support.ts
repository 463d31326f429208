/**
 * What the checker's tests share: a free port for the sandbox, the kit as a proxy under test (node:http,
 * a store passed explicitly), the kit alone in its ePay or Khalti mode on a sandbox of its own, a plain
 * node:http server for proxies built by hand, and a clause's verdict on one run of its steps.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentHandler, createMemoryStore, type PaymentHandlerOptions, type PaymentStore } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/node.js';
import { esewaEpay, khalti } from '../../../src/server/providers.js';
import { SANDBOX_DEFAULTS, startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { EPAY_TEST_SECRET } from '../../../src/sandbox/epay/rules.js';
import { runCheck, type CheckReport } from '../../../src/check/index.js';
import type { CheckOptions } from '../../../src/check/options.js';
import { ClauseFailure, Steps } from '../../../src/check/steps.js';
import { canListen, freePort } from '../../../scripts/host.mjs';

/** A fetch-style handler, as the kit is. */
export type Fetch = (request: Request) => Promise<Response>;

/** The order prefix and amount every checker test uses. */
export const PREFIX = 'CHK-';
export const AMOUNT = 1250.5;

/** A free port (the checker's sandbox listens there), and whether a port is free now: scripts/host.mjs. */
export { canListen as isPortFree, freePort };

/** A node:http server on a free loopback port. */
export interface Running {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

export async function serve(listener: RequestListener, port = 0): Promise<Running> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The options of a kit that sells every `PREFIX` order for `AMOUNT`, as the checker expects. */
export function kitOptions(sandboxPort: number, proxyUrl: string, store: PaymentStore, overrides: Partial<PaymentHandlerOptions> = {}): PaymentHandlerOptions {
  return {
    serviceUrl: `http://127.0.0.1:${sandboxPort}`,
    productCode: SANDBOX_DEFAULTS.productCode,
    accessKey: SANDBOX_DEFAULTS.accessKey,
    callbackUrl: `${proxyUrl}/pay/callback`,
    // The phone of a hand-off returns to a page of its own, never to the checkout (handoff-page).
    redirectUrl: ({ handoff }) => (handoff ? `${proxyUrl}/pay/handoff` : `${proxyUrl}/return`),
    store,
    lookupOrder: (order) => (typeof order.id === 'string' && order.id.startsWith(PREFIX) ? { id: order.id, amount: AMOUNT, properties: { order_id: order.id } } : undefined),
    onPaymentResult: () => {},
    ...overrides,
  };
}

/**
 * Starts the kit as a proxy under `/pay` on a free port; `wrap` may put a broken layer in front of it.
 * The handler is created once the port is known (its callback URL names it).
 */
export async function startKitProxy(
  sandboxPort: number,
  options: { store?: PaymentStore; overrides?: Partial<PaymentHandlerOptions>; wrap?: (kit: Fetch) => Fetch } = {},
): Promise<Running & { endpoint: string; reconcile: () => Promise<unknown>; reconcileCommand: string }> {
  let listener: RequestListener = (_req, res) => res.end();
  const running = await serve((req, res) => listener(req, res));
  let handler: ReturnType<typeof createPaymentHandler>;
  let api: RequestListener;
  try {
    handler = createPaymentHandler(kitOptions(sandboxPort, running.url, options.store ?? createMemoryStore(), options.overrides));
    api = toNodeListener(options.wrap ? options.wrap(handler) : handler) as RequestListener;
  } catch (error) {
    await running.close();
    throw error;
  }
  // The check instance's reconciliation: every open booking, however young; also on a route of its
  // own, so a command line can run it (--reconcile-command).
  const reconcile = () => handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 });
  listener = (req, res) => {
    if (req.url !== '/test-reconcile') return api(req, res);
    reconcile().then(() => res.end('reconciled'), (error: unknown) => res.writeHead(500).end(String(error)));
  };
  const reconcileCommand = `${JSON.stringify(process.execPath)} -e "fetch('${running.url}/test-reconcile').then((r) => process.exit(r.ok ? 0 : 1))"`;
  return { ...running, endpoint: `${running.url}/pay`, reconcile, reconcileCommand };
}

/** A proxy under test, however it runs. */
export interface ProxyUnderTest {
  endpoint: string;
  /** Its reconciliation, run once by the checker: a shell command or a function. */
  reconcile?: string | (() => Promise<unknown>);
  /** Other origins its callback URL may be on. */
  callbackOrigins?: string[];
  /** `epay`: it runs in its ePay v2 mode, and the checker runs the ePay clauses. */
  provider?: 'epay' | 'khalti';
  stop(): Promise<void>;
  output?(): string;
}

/**
 * Starts a proxy for a sandbox port that was free a moment ago and runs the checker against it. Tests
 * run side by side, so another server may take that port first: then it starts again on another one
 * (three tries).
 */
export async function checkProxy(start: (sandboxPort: number) => Promise<ProxyUnderTest>): Promise<{ report: CheckReport; ms: number; output: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const proxy = await start(port);
    try {
      const started = Date.now();
      const report = await runCheck({
        endpoint: proxy.endpoint,
        sandboxPort: port,
        orderPrefix: PREFIX,
        amount: AMOUNT,
        // A proxy started without one is checked as a backend that has none (the clause skipped, warned).
        reconcile: proxy.reconcile ?? false,
        ...(proxy.callbackOrigins ? { callbackOrigins: proxy.callbackOrigins } : {}),
        ...(proxy.provider ? { provider: proxy.provider } : {}),
      });
      return { report, ms: Date.now() - started, output: proxy.output?.() ?? '' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw error;
    } finally {
      await proxy.stop();
    }
  }
}

/** The kit as a proxy under test. */
export async function kitUnderTest(sandboxPort: number, options: Parameters<typeof startKitProxy>[1] = {}): Promise<ProxyUnderTest> {
  const proxy = await startKitProxy(sandboxPort, options);
  return { endpoint: proxy.endpoint, stop: proxy.close, reconcile: proxy.reconcile };
}

/** Fresh steps against `endpoint`, with `sandbox` as the checker's and `options` over the checker tests' prefix and amount. */
export function stepsOn(endpoint: string, sandbox: Sandbox, options: Partial<CheckOptions> = {}): Steps {
  const steps = new Steps({ endpoint, sandboxPort: 1, orderPrefix: PREFIX, amount: AMOUNT, ...options });
  steps.sandbox = sandbox;
  return steps;
}

/** The message of the ClauseFailure `work` rejects with, or undefined when it resolves (any other error is thrown). */
export async function failureOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    if (!(error instanceof ClauseFailure)) throw error;
    return error.message;
  }
}

/**
 * A clause's verdict on a fresh run of its steps against `endpoint`, with `sandbox` as the checker's:
 * undefined when it passes, else its failure's message (any other error is thrown). `onSteps` sees
 * the steps before the clause runs (a test that feeds them the sandbox's log lines).
 */
export async function clauseFailure(
  clause: (s: Steps) => Promise<unknown>,
  { endpoint, sandbox, options = {}, onSteps }: { endpoint: string; sandbox: Sandbox; options?: Partial<CheckOptions>; onSteps?: (steps: Steps) => void },
): Promise<string | undefined> {
  const steps = stepsOn(endpoint, sandbox, options);
  onSteps?.(steps);
  return failureOf(clause(steps));
}

/** The kit's failure envelope, for a layer that answers in the kit's place. */
export const envelope = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } });

/** One row of a breakage table: `clause` passes on the kit, and fails saying `says` once the layer breaks the rule `breaks`. */
export interface ClauseBreak<F> {
  name: string;
  clause: (s: Steps) => Promise<unknown>;
  breaks: F;
  says: RegExp;
}

/** The intent kit behind a test's layer, as {@link layeredKit} answers it. */
export interface LayeredKit<F> {
  readonly sandbox: Sandbox;
  readonly proxy: Awaited<ReturnType<typeof startKitProxy>>;
  /** Resolves once the sandbox and the kit are up (for a test's own set-up that needs them). */
  readonly started: Promise<void>;
  /** A clause's verdict on a fresh run against `endpoint` (the kit's by default). */
  failureOf(clause: (s: Steps) => Promise<unknown>, endpoint?: string): Promise<string | undefined>;
  /** Registers a test per row: the clause passes on the kit, then fails as the row says once `setFault(row.breaks)`. */
  eachBreaks(cases: ReadonlyArray<ClauseBreak<F>>): void;
}

/**
 * The kit in front of a sandbox of its own (`sandboxOptions`), behind `layer`, for the enclosing file:
 * started before its tests, closed after them, the layer's fault set back to `none` (through
 * `setFault`, which writes the variable the layer reads) before each.
 */
export function layeredKit<F extends string>(sandboxOptions: SandboxOptions, layer: (kit: Fetch) => Fetch, setFault: (fault: F | 'none') => void): LayeredKit<F> {
  let sandbox: Sandbox | undefined;
  let proxy: Awaited<ReturnType<typeof startKitProxy>> | undefined;
  let up!: () => void;
  let failed!: (error: unknown) => void;
  const started = new Promise<void>((resolve, reject) => ((up = resolve), (failed = reject)));
  // Whoever waits for it sees the failure; nobody waiting is no unhandled rejection.
  started.catch(() => undefined);
  before(async () => {
    try {
      sandbox = await startSandbox(sandboxOptions);
      proxy = await startKitProxy(Number(new URL(sandbox.baseUrl).port), { wrap: layer });
      up();
    } catch (error) {
      failed(error);
      throw error;
    }
  });
  after(async () => {
    await proxy?.close();
    await sandbox?.close();
  });
  beforeEach(() => setFault('none'));
  const kit: LayeredKit<F> = {
    started,
    get sandbox() {
      return sandbox!;
    },
    get proxy() {
      return proxy!;
    },
    failureOf: (clause, endpoint = proxy!.endpoint) => clauseFailure(clause, { endpoint, sandbox: sandbox! }),
    eachBreaks(cases) {
      for (const { name, clause, breaks, says } of cases) {
        test(`${name} passes on the kit and fails when a layer breaks its rule (${breaks})`, async () => {
          assert.equal(await kit.failureOf(clause), undefined);
          setFault(breaks);
          const failure = await kit.failureOf(clause);
          assert.ok(failure, 'the broken proxy passed');
          assert.match(failure, says);
        });
      }
    },
  };
  return kit;
}

/** The kit alone in one web provider's mode, on a sandbox of its own. */
export interface ProviderKit {
  sandbox: Sandbox;
  proxy: Awaited<ReturnType<typeof startKitProxy>>;
  /** Fresh steps against the kit, for `amount` (the tests' AMOUNT by default). */
  steps(amount?: number): Steps;
  close(): Promise<void>;
}

/**
 * Starts a sandbox and the kit in its ePay mode (eSewa's test product) or its Khalti mode (the sandbox's
 * access key as the secret key) in front of it, `wrap` in front of the kit. The wrapper is given the
 * sandbox, so a return page of the test's own can ask it.
 */
export async function startProviderKit(mode: 'epay' | 'khalti', wrap: (kit: Fetch, sandbox: Sandbox) => Fetch): Promise<ProviderKit> {
  const sandbox = await startSandbox({ port: 0, linksPort: 0 });
  const provider =
    mode === 'epay'
      ? esewaEpay({ productCode: 'EPAYTEST', secretKey: EPAY_TEST_SECRET, baseUrl: sandbox.baseUrl, timeoutMs: 5_000 })
      : khalti({ secretKey: sandbox.accessKey, websiteUrl: 'http://127.0.0.1:9/', baseUrl: sandbox.baseUrl, timeoutMs: 5_000 });
  try {
    const proxy = await startKitProxy(Number(new URL(sandbox.baseUrl).port), {
      wrap: (kit) => wrap(kit, sandbox),
      // The provider alone: without the intent service's options the kit books no intent provider beside it.
      overrides: { serviceUrl: undefined, productCode: undefined, accessKey: undefined, providers: [provider] },
    });
    return {
      sandbox,
      proxy,
      steps: (amount = AMOUNT) => stepsOn(proxy.endpoint, sandbox, { amount }),
      close: async () => {
        await proxy.close();
        await sandbox.close();
      },
    };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

/**
 * The kit in `mode` for the enclosing describe, behind the layer `wrap` makes from the live `broken`
 * (the parts the running test breaks): started before its tests, closed after them, `broken` back to
 * `kept` before each. Answers the verdict of a clause on the kit with `breakage` over `kept`.
 */
export function brokenProviderKit<B extends object>(
  mode: 'epay' | 'khalti',
  kept: B,
  wrap: (kit: Fetch, broken: Readonly<B>, sandbox: Sandbox) => Fetch,
): (clause: Parameters<typeof clauseFailure>[0], breakage?: Partial<B>) => Promise<string | undefined> {
  const broken: B = { ...kept };
  let kit: ProviderKit;
  before(async () => {
    kit = await startProviderKit(mode, (inner, sandbox) => wrap(inner, broken, sandbox));
  });
  after(() => kit?.close());
  beforeEach(() => void Object.assign(broken, kept));
  return (clause, breakage = {}) => {
    Object.assign(broken, kept, breakage);
    return clauseFailure(clause, { endpoint: kit.proxy.endpoint, sandbox: kit.sandbox });
  };
}

/** A page the shopper lands on, judging nothing. */
export const thankYou = (): Response => new Response('<p>Thank you</p>', { headers: { 'content-type': 'text/html' } });

/** What bookSpoiler answers. */
export interface BookSpoiler {
  /** The layer, put in front of the kit. */
  wrap: (kit: Fetch) => Fetch;
  /** Runs `work` with the /book answers' `data` put through `change`. */
  spoiled: <T>(change: (data: Record<string, unknown>) => void, work: () => Promise<T>) => Promise<T>;
}

/**
 * A layer that passes the kit's successful /book answers' `data` through `spoiled`'s change while
 * `spoiled` runs, so a test can put the booking off one rule at a time.
 */
export function bookSpoiler(): BookSpoiler {
  let spoil: ((data: Record<string, unknown>) => void) | undefined;
  return {
    wrap: (kit) => async (request) => {
      const answer = await kit(request);
      if (new URL(request.url).pathname !== '/pay/book' || answer.status !== 200 || !spoil) return answer;
      const body = (await answer.json()) as { data: Record<string, unknown> };
      spoil(body.data);
      return Response.json(body);
    },
    spoiled: async (change, work) => {
      spoil = change;
      try {
        return await work();
      } finally {
        spoil = undefined;
      }
    },
  };
}
