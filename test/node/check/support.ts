/**
 * What the checker's tests share: a free port for the sandbox, the kit as a proxy under test (node:http,
 * a store passed explicitly), a plain node:http server for proxies built by hand, and a clause's
 * verdict on one run of its steps.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentHandler, createMemoryStore, type PaymentHandlerOptions, type PaymentStore } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/node.js';
import { SANDBOX_DEFAULTS, type Sandbox } from '../../../src/sandbox/index.js';
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
  const handler = createPaymentHandler(kitOptions(sandboxPort, running.url, options.store ?? createMemoryStore(), options.overrides));
  // The check instance's reconciliation: every open booking, however young; also on a route of its
  // own, so a command line can run it (--reconcile-command).
  const reconcile = () => handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 });
  const api = toNodeListener(options.wrap ? options.wrap(handler) : handler) as RequestListener;
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

/**
 * A clause's verdict on a fresh run of its steps against `endpoint`, with `sandbox` as the checker's:
 * undefined when it passes, else its failure's message (any other error is thrown). `onSteps` sees
 * the steps before the clause runs (a test that feeds them the sandbox's log lines).
 */
export async function clauseFailure(
  clause: (s: Steps) => Promise<unknown>,
  { endpoint, sandbox, options = {}, onSteps }: { endpoint: string; sandbox: Sandbox; options?: Partial<CheckOptions>; onSteps?: (steps: Steps) => void },
): Promise<string | undefined> {
  const steps = new Steps({ endpoint, sandboxPort: 1, orderPrefix: PREFIX, amount: AMOUNT, ...options });
  steps.sandbox = sandbox;
  onSteps?.(steps);
  try {
    await clause(steps);
    return undefined;
  } catch (error) {
    if (!(error instanceof ClauseFailure)) throw error;
    return error.message;
  }
}
