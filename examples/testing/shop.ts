/**
 * A small shop for the testing guide: the kit on node:http behind a login. Its `lookupOrder` serves
 * only a signed-in shopper (the `session` cookie); in test mode its clock follows the sandbox's and
 * `POST /test/reconcile` runs one reconcile pass, as the shop's timer would.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore, createPaymentHandler, type PaymentResult } from 'wallet-pay-button/server';
import { toNodeListener } from 'wallet-pay-button/server/node';

/** The sandbox's clock, seen from another process: real time plus the offset `sync()` last read. */
export function sandboxClock(sandboxUrl: string) {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    async sync(): Promise<void> {
      const answer = await fetch(`${sandboxUrl}/sandbox/clock`, { signal: AbortSignal.timeout(5_000) });
      if (!answer.ok) throw new Error(`GET /sandbox/clock answered ${answer.status}`);
      offsetMs = ((await answer.json()) as { data: { offset_ms: number } }).data.offset_ms;
    },
  };
}

/** How the shop runs. */
export interface ShopOptions {
  /** The sandbox's base URL (its banner's `serviceUrl`). */
  serviceUrl: string;
  /** Default: a free port. */
  port?: number;
  /** The session tokens of signed-in shoppers (a real shop asks its session store). */
  sessions: string[];
  /** Follow the sandbox's clock and serve `POST /test/reconcile`. */
  testMode?: boolean;
}

/** The shopper's session, from the `session` cookie, when it is a signed-in one. */
function signedIn(request: Request, sessions: string[]): boolean {
  const session = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return session !== undefined && sessions.includes(session);
}

/** Starts the shop; the kit answers under `${origin}/api/pay`. */
export async function startShop(options: ShopOptions) {
  const clock = options.testMode ? sandboxClock(options.serviceUrl) : { now: Date.now, sync: async () => undefined };
  const results: PaymentResult[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const handler = createPaymentHandler({
    serviceUrl: options.serviceUrl,
    productCode: 'SANDBOX',
    accessKey: 'sandbox-access-key',
    callbackUrl: `${origin}/api/pay/callback`,
    redirectUrl: `${origin}/thanks`,
    // The kit's clock and the store's are the same one: reconcile reads a booking's age by the store's.
    now: clock.now,
    store: createMemoryStore({ now: clock.now }),
    // Someone else's order, or nobody's: IP-424, nothing booked.
    lookupOrder: (order, { request }) => (signedIn(request, options.sessions) ? { id: String(order.id), amount: 1250.5 } : undefined),
    onPaymentResult: (result) => {
      results.push(result);
    },
  });
  const pay = toNodeListener(handler);
  server.on('request', async (req, res) => {
    try {
      await clock.sync(); // once per request: a move of the sandbox's clock is seen from the next one on
    } catch (error) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end(`the sandbox's clock: ${(error as Error).message}`);
      return;
    }
    if (options.testMode && req.method === 'POST' && req.url === '/test/reconcile') {
      const pass = await handler.reconcile();
      const settled = results.map(({ status, source }) => ({ status, source }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(`${JSON.stringify({ ...pass, results: settled })}\n`);
      return;
    }
    pay(req, res);
  });
  const close = () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections()));
  return { origin, endpoint: `${origin}/api/pay`, results, close };
}
