/**
 * The playground's merchant server, as a Vite plugin: it starts the sandbox of the payment service and
 * mounts the merchant kit's handler on the dev (and preview) server, so `npm run dev` is the whole
 * journey on one machine, with real HTTP on loopback and real signatures.
 *
 * Routes on the Vite server:
 * - `/api/pay/{book,status,cancel,callback}`: the merchant kit's handler (the element's endpoint), with
 *   the intent service first: a desktop pays on the intent service's web page.
 * - `/api/pay-epay/...`: the same kit, store and providers with eSewa's web checkout (ePay v2) first and
 *   Khalti (KPG-2) beside it: a desktop pays on ePay's page, as production does today, or on Khalti's
 *   when the shopper picks that wallet (the checkout's "Web checkout" switch).
 * - `/api/merchant/bookings/{booking_id}`: the merchant's own record of a verified result; `?wait=MS` waits
 *   for it (10 s at most), for a page that can arrive before the service's callback.
 * - `/api/log`: Server-Sent Events with the proxy calls, the callbacks and the sandbox's lines.
 *
 * What it remembers lives in a data folder (`.playground-data/`, ignored by git), so stopping and
 * starting `npm run dev` between a booking and the shopper's return loses nothing: the merchant kit's
 * PostgreSQL store on PGlite (`merchant/`), with the merchant's records in a table beside it, and the
 * sandbox's bookings and ports (`sandbox.json`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Plugin, PreviewServer, ViteDevServer } from 'vite';
import { createMemoryStore, createPaymentHandler, type PaymentHandlerOptions, type PaymentResult } from '../../src/server/index.js';
import type { ReconcileOptions, ReconcileReport } from '../../src/server/types.js';
import { esewaEpay } from '../../src/providers/epay/adapter.js';
import { EPAY_TEST_CREDENTIALS } from '../../src/providers/epay/wire.js';
import { esewaIntent } from '../../src/providers/esewa-intent/adapter.js';
import { khalti } from '../../src/providers/khalti/adapter.js';
import { toNodeListener } from '../../src/server/node.js';
import { createPostgresStore } from '../../src/server/postgres.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { itemOfOrder } from '../catalog.js';

/** A development key: the sandbox and the merchant server share it; it never reaches the browser. */
export const PLAYGROUND_ACCESS_KEY = 'playground-dev-access-key';
export const PLAYGROUND_PRODUCT_CODE = 'ILAM_TEA';

/** The merchant's record of one payment, as the success and failure pages show it. */
export interface MerchantRecord {
  booking_id: string;
  order_id: string;
  amount: number | undefined;
  status: PaymentResult['status'];
  verified_by: 'callback' | 'status-check' | 'cancel' | 'reconcile' | 'refund';
}

/** The longest a record lookup waits for its record (`?wait=MS`): the sandbox's callback comes within it. */
const RECORD_WAIT_MS = 10_000;

/** The playground's data folder: the repository's `.playground-data/`. */
export const PLAYGROUND_DATA_DIR = fileURLToPath(new URL('../../.playground-data/', import.meta.url));

export interface PlaygroundOptions {
  /** Options passed on to the sandbox (ports, retry policy, booking lifetime). */
  sandbox?: SandboxOptions;
  /**
   * Where bookings, results and the sandbox's state are kept across restarts. Default
   * {@link PLAYGROUND_DATA_DIR}; `null` keeps everything in memory (a fresh playground each start).
   */
  dataDir?: string | null;
  /** Called once both servers run, e.g. by tests that need the sandbox. */
  onReady?: (state: PlaygroundState) => void;
}

/** What a running playground holds; tests read it. */
export interface PlaygroundState {
  sandbox: Sandbox;
  origin: string;
  records: Map<string, MerchantRecord>;
  /** Every result this run handed to the merchant's `onPaymentResult`, in order. */
  deliveries: PaymentResult[];
  /** One reconcile pass of the playground's merchant (as its timer runs every 30 s), e.g. with `olderThanMs: 0`. */
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
  /** Stops the sandbox and closes the data folder (also done when the HTTP server closes). */
  close(): Promise<void>;
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
type LogLine = { source: string; text: string };

/** The checkout's own query for an order id (`A-1001/k3f9x2`): its checkout number and item. */
export function returnQuery(orderId: string): string {
  const [item = '', checkout = ''] = orderId.split('/');
  return new URLSearchParams({ checkout, item }).toString();
}

/** The playground plugin. */
export function playground(options: PlaygroundOptions = {}): Plugin {
  const records = new Map<string, MerchantRecord>();
  const deliveries: PaymentResult[] = [];
  const dataDir = options.dataDir === undefined ? PLAYGROUND_DATA_DIR : options.dataDir;
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
      ...(dataDir === null ? {} : { stateFile: join(dataDir, 'sandbox.json') }),
      ...options.sandbox,
      log: (line) => log('sandbox', line),
    });
    // PGlite: PostgreSQL in this process, on files in the data folder; the merchant's records sit
    // in a table beside the kit's, so the result pages find them after a restart too.
    const db = dataDir === null ? undefined : new PGlite(join(dataDir, 'merchant'));
    const store = db && createPostgresStore(db);
    if (db && store) {
      await store.ready();
      await db.query('CREATE TABLE IF NOT EXISTS playground_records (booking_id text PRIMARY KEY, record text NOT NULL)');
      for (const row of (await db.query<{ record: string }>('SELECT record FROM playground_records')).rows) {
        const record = JSON.parse(row.record) as MerchantRecord;
        records.set(record.booking_id, record);
      }
    }

    // Two handlers on one store, each knowing every provider (so either reads, and reconcile checks,
    // the other's bookings): the intent service first, or eSewa's web checkout (ePay v2) first, which
    // takes the desktops, with Khalti for a shopper who picks it.
    const intent = esewaIntent({ serviceUrl: sandbox.baseUrl, productCode: PLAYGROUND_PRODUCT_CODE, accessKey: PLAYGROUND_ACCESS_KEY });
    // eSewa's published test code and secret, as a merchant starts: the sandbox signs EPAYTEST with it.
    const epay = esewaEpay({ ...EPAY_TEST_CREDENTIALS, baseUrl: sandbox.baseUrl });
    // Khalti's secret key is the sandbox's access key there; Khalti asks for the shop's own site with every payment.
    const khaltiProvider = khalti({ secretKey: sandbox.accessKey, websiteUrl: origin, baseUrl: sandbox.baseUrl });
    const common: Omit<PaymentHandlerOptions, 'providers'> = {
      // The playground without a data folder is a throwaway demo: bookings in memory, lost on restart.
      store: store ?? createMemoryStore(),
      callbackUrl: `${origin}/api/pay/callback`,
      // The shopper comes back to the checkout, where the element verifies the status and routes; a
      // phone that paid from the code on a computer's checkout (a hand-off) has nothing to follow there:
      // it gets a page that shows the result and says the computer carries on.
      // The checkout's address names its order (`?checkout=…&item=…`): the wallet often sends the shopper
      // back to the phone's default browser, not the tab that started, and that browser must find the
      // order (and show it paid) without the first tab's storage.
      redirectUrl: ({ handoff, order }) => (handoff ? `${origin}/phone.html` : `${origin}/?${returnQuery(String(order.id))}`),
      lookupOrder: async (order) => {
        const item = itemOfOrder(order.id);
        // An order is the item's id and a per-checkout suffix (`A-1001/x1`): the whole id is the order's own.
        return item && { id: String(order.id), amount: item.amount, properties: { order_id: item.id, item: item.title, ...item.properties } };
      },
      onPaymentResult: async (result) => {
        deliveries.push(result);
        if (!result.booking_id) return;
        const verifiedBy = result.source === 'status' ? 'status-check' : result.source;
        const record: MerchantRecord = {
          booking_id: result.booking_id,
          order_id: String(result.order?.id ?? ''),
          amount: result.amount,
          status: result.status,
          verified_by: verifiedBy,
        };
        await db?.query(
          'INSERT INTO playground_records (booking_id, record) VALUES ($1, $2) ON CONFLICT (booking_id) DO UPDATE SET record = EXCLUDED.record',
          [record.booking_id, JSON.stringify(record)],
        );
        records.set(result.booking_id, record);
        log(
          result.source === 'callback' ? 'callback' : 'merchant',
          `${result.status} for ${result.booking_id} verified by ${verifiedBy}; order ${String(result.order?.id)} updated`,
        );
      },
      onError: (error, { route }) => log('merchant', `${route}: ${error instanceof Error ? error.message : String(error)}`),
    };
    // Khalti last on /api/pay: it books there only for a book that names the wallet, which that endpoint's element does not.
    const handler = createPaymentHandler({ ...common, providers: [intent, epay, khaltiProvider] });
    const epayFirst = createPaymentHandler({ ...common, providers: [epay, khaltiProvider, intent] });
    const listener = toNodeListener(async (request) => {
      const first = new URL(request.url).pathname.startsWith('/api/pay-epay/') ? epayFirst : handler;
      const response = await first(request);
      const route = new URL(request.url).pathname.split('/').pop();
      log(route === 'callback' ? 'callback' : 'proxy', `POST ${route} → ${response.status}`);
      return response;
    });

    /** The merchant's record of `id`, waiting up to `waitMs` for it to be written (not past the request's end). */
    const recordOf = async (id: string, waitMs: number, req: IncomingMessage): Promise<MerchantRecord | undefined> => {
      const end = Date.now() + waitMs;
      let record = records.get(id);
      while (!record && Date.now() < end && !req.destroyed) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        record = records.get(id);
      }
      return record;
    };

    const routes: Middleware = (req, res, next) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path.startsWith('/api/pay/') || path.startsWith('/api/pay-epay/')) {
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
        const id = decodeURIComponent(match[1]!);
        // `?wait=MS` (at most RECORD_WAIT_MS): a page that can arrive before the service's callback (the
        // phone that paid from a computer's code) waits here for the record, instead of asking again
        // after a 404 that its console would show as an error.
        const waitMs = Math.min(Math.max(Number(new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('wait')) || 0, 0), RECORD_WAIT_MS);
        // `?optional=1`: no record yet is an answer (`{ booking_id, status: null }`), not a 404 (a failure
        // page after a web checkout that sent the shopper back unpaid: the provider settles it later).
        const optional = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').has('optional');
        void recordOf(id, waitMs, req).then((record) => {
          const none = optional ? { booking_id: id, status: null } : { code: 'IP-404', error_message: 'The merchant has no verified result for this booking.' };
          res.writeHead(record || optional ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
          res.end(JSON.stringify(record ?? none));
        });
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

    const running = sandbox;
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        clearInterval(reconciling);
        for (const res of listeners) res.end();
        await running.close();
        await db?.close();
      })());
    httpServer.once('close', () => void close());
    log(
      'merchant',
      `sandbox API ${sandbox.baseUrl}, wallet links ${sandbox.linksUrl}, merchant ${origin}` +
        (dataDir === null ? ' (in memory)' : `, data in ${dataDir}`),
    );
    options.onReady?.({ sandbox, origin, records, deliveries, close, reconcile: (pass) => handler.reconcile(pass) });
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
