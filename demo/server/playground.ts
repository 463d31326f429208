/**
 * The playground's merchant server, as a Vite plugin: it starts the sandbox of the payment service and
 * mounts the merchant kit's handler on the dev (and preview) server, so `npm run dev` is the whole
 * journey on one machine, with real HTTP on loopback and real signatures.
 *
 * Routes on the Vite server:
 * - `/api/pay/{book,status,cancel,callback}`: the merchant kit's handler (the element's endpoint).
 * - `/api/merchant/bookings/{booking_id}`: the merchant's own record of a verified result.
 * - `/api/log`: Server-Sent Events with the proxy calls, the callbacks and the sandbox's lines.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Plugin, PreviewServer, ViteDevServer } from 'vite';
import { createPaymentHandler, type PaymentResult } from '../../src/server/index.js';
import { toNodeListener } from '../../src/server/node.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { findItem } from '../catalog.js';

/** A development key: the sandbox and the merchant server share it; it never reaches the browser. */
export const PLAYGROUND_ACCESS_KEY = 'playground-dev-access-key';
export const PLAYGROUND_PRODUCT_CODE = 'ILAM_TEA';

/** The merchant's record of one payment, as the success and failure pages show it. */
export interface MerchantRecord {
  booking_id: string;
  order_id: string;
  amount: number | undefined;
  status: PaymentResult['status'];
  verified_by: 'callback' | 'status-check' | 'cancel' | 'reconcile';
}

export interface PlaygroundOptions {
  /** Options passed on to the sandbox (ports, retry policy, booking lifetime). */
  sandbox?: SandboxOptions;
  /** Called once both servers run, e.g. by tests that need the sandbox. */
  onReady?: (state: PlaygroundState) => void;
}

/** What a running playground holds; tests read it. */
export interface PlaygroundState {
  sandbox: Sandbox;
  origin: string;
  records: Map<string, MerchantRecord>;
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
type LogLine = { source: string; text: string };

/** The playground plugin. */
export function playground(options: PlaygroundOptions = {}): Plugin {
  const records = new Map<string, MerchantRecord>();
  const listeners = new Set<ServerResponse>();
  const backlog: LogLine[] = [];
  let sandbox: Sandbox | undefined;

  const log = (source: string, text: string) => {
    const line = { source, text };
    backlog.push(line);
    if (backlog.length > 200) backlog.shift();
    for (const res of listeners) res.write(`data: ${JSON.stringify(line)}\n\n`);
  };

  async function mount(server: ViteDevServer | PreviewServer): Promise<Middleware> {
    const httpServer = server.httpServer;
    if (!httpServer) throw new Error('The playground needs Vite to run its own HTTP server (not middleware mode).');
    // The callback and redirect URLs need the origin the server actually listens on.
    const origin = await new Promise<string>((resolve) => {
      const read = () => {
        const { port } = httpServer.address() as AddressInfo;
        resolve(`http://127.0.0.1:${port}`);
      };
      if (httpServer.listening) read();
      else httpServer.once('listening', read);
    });

    sandbox = await startSandbox({
      accessKey: PLAYGROUND_ACCESS_KEY,
      productCode: PLAYGROUND_PRODUCT_CODE,
      callbackRetry: { attempts: 5, baseDelayMs: 500 },
      ...options.sandbox,
      log: (line) => log('sandbox', line),
    });

    const handler = createPaymentHandler({
      serviceUrl: sandbox.baseUrl,
      productCode: PLAYGROUND_PRODUCT_CODE,
      accessKey: PLAYGROUND_ACCESS_KEY,
      callbackUrl: `${origin}/api/pay/callback`,
      // The shopper comes back to the checkout, where the element verifies the status and routes; a
      // phone that paid from the code on a computer's checkout (a hand-off) has nothing to follow there:
      // it gets a page that shows the result and says the computer carries on.
      redirectUrl: ({ handoff }) => (handoff ? `${origin}/phone.html` : `${origin}/`),
      lookupOrder: async (order) => {
        const item = findItem(order.id);
        return item && { amount: item.amount, properties: { order_id: item.id, item: item.title, ...item.properties } };
      },
      onPaymentResult: async (result) => {
        if (!result.booking_id) return;
        const verifiedBy = result.source === 'status' ? 'status-check' : result.source;
        records.set(result.booking_id, {
          booking_id: result.booking_id,
          order_id: String(result.order?.id ?? ''),
          amount: result.amount,
          status: result.status,
          verified_by: verifiedBy,
        });
        log(
          result.source === 'callback' ? 'callback' : 'merchant',
          `${result.status} for ${result.booking_id} verified by ${verifiedBy}; order ${String(result.order?.id)} updated`,
        );
      },
      onError: (error, { route }) => log('merchant', `${route}: ${error instanceof Error ? error.message : String(error)}`),
    });
    const listener = toNodeListener(async (request) => {
      const response = await handler(request);
      const route = new URL(request.url).pathname.split('/').pop();
      log(route === 'callback' ? 'callback' : 'proxy', `POST ${route} → ${response.status}`);
      return response;
    });

    const routes: Middleware = (req, res, next) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path.startsWith('/api/pay/')) {
        listener(req, res, next);
        return;
      }
      if (path === '/api/log') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
        for (const line of backlog) res.write(`data: ${JSON.stringify(line)}\n\n`);
        listeners.add(res);
        req.on('close', () => listeners.delete(res));
        return;
      }
      const match = /^\/api\/merchant\/bookings\/([^/]+)$/.exec(path);
      if (match) {
        const record = records.get(decodeURIComponent(match[1]!));
        res.writeHead(record ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        res.end(JSON.stringify(record ?? { code: 'IP-404', error_message: 'The merchant has no verified result for this booking.' }));
        return;
      }
      next();
    };

    // The spec's five-minute rule on the server: payments nobody came back for are settled anyway.
    const reconciling = setInterval(() => {
      handler.reconcile().then(
        ({ settled }) => settled > 0 && log('merchant', `reconcile: ${settled} payment(s) settled by a status check`),
        (error: unknown) => log('merchant', `reconcile: ${error instanceof Error ? error.message : String(error)}`),
      );
    }, 30_000);
    reconciling.unref();

    httpServer.once('close', () => {
      clearInterval(reconciling);
      for (const res of listeners) res.end();
      void sandbox?.close();
    });
    log('merchant', `sandbox API ${sandbox.baseUrl}, wallet links ${sandbox.linksUrl}, merchant ${origin}`);
    options.onReady?.({ sandbox, origin, records });
    return routes;
  }

  // Mounted ahead of Vite's own middleware; a request that arrives before the servers are up waits.
  let ready: Promise<Middleware> | undefined;
  const gate =
    (server: ViteDevServer | PreviewServer): Middleware =>
    (req, res, next) => {
      if (!(req.url ?? '').startsWith('/api/')) return next();
      (ready ??= mount(server)).then((routes) => routes(req, res, next), next);
    };

  return {
    name: 'wallet-pay-playground',
    configureServer(server) {
      server.middlewares.use(gate(server));
      server.httpServer?.once('listening', () => {
        (ready ??= mount(server)).catch((error: unknown) => server.config.logger.error(String(error)));
      });
    },
    configurePreviewServer(server) {
      server.middlewares.use(gate(server));
      server.httpServer.once('listening', () => {
        (ready ??= mount(server)).catch((error: unknown) => server.config.logger.error(String(error)));
      });
    },
  };
}
