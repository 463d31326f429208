/**
 * A shop for the server-kit tests of the shopper's comings and goings: the sandbox, and the payment
 * handler on node:http at 127.0.0.1 (so the sandbox's callbacks reach it), with every hook call and
 * error recorded. Each test makes its own shop.
 */
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { createPaymentHandler, type ErrorContext, type PaymentHandler, type PaymentHandlerOptions, type PaymentResult } from '../../../src/server/handler.js';
import { createMemoryStore } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/node.js';
import { listen, type Loopback } from './helpers.js';

export const KEY = 'shop-access-key';
export const PRODUCT = 'SHOP30';

/** What a test sees of its shop. */
export interface Shop {
  sandbox: Sandbox;
  handler: PaymentHandler;
  url: string;
  /** Every `onPaymentResult` call. */
  results: PaymentResult[];
  /** Every `onError` call. */
  errors: Array<{ error: unknown; context: ErrorContext }>;
  /** The order totals `lookupOrder` answers, by id (change one to see an order grow). */
  totals: Map<string, number>;
  /** POSTs JSON to one of the handler's routes. */
  post(route: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Answer }>;
  /** Books an order and answers the booking. */
  book(channel: 'app' | 'web', id: string, headers?: Record<string, string>): Promise<Booked>;
  /** Pays a booking at the sandbox: in the wallet app (an app booking) or on the web payment page (a web one). */
  pay(booked: Booked): Promise<number>;
  close(): Promise<void>;
}

export interface Answer {
  code: string;
  error_message?: string;
  message?: string;
  data?: Record<string, unknown>;
}

export interface Booked {
  booking_id: string;
  correlation_id: string;
  deeplink?: string;
  web_payment?: { url: string; method: string; fields: Record<string, string> };
}

export async function openShop(
  overrides: Partial<PaymentHandlerOptions> = {},
  sandboxOptions: SandboxOptions = {},
  /** Another shop's sandbox, for a second instance of one shop: left running by `close()`. */
  shared?: Sandbox,
): Promise<Shop> {
  const sandbox = shared ?? (await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 2, baseDelayMs: 20 }, ...sandboxOptions }));
  const results: PaymentResult[] = [];
  const errors: Shop['errors'] = [];
  const totals = new Map<string, number>();
  // The handler needs the server's address for its callback URL, so it is mounted once made.
  const mounted: { listener?: ReturnType<typeof toNodeListener> } = {};
  const server: Loopback = await listen((request, response) => void mounted.listener?.(request, response));
  const handler = createPaymentHandler({
    serviceUrl: sandbox.baseUrl,
    productCode: PRODUCT,
    accessKey: KEY,
    callbackUrl: `${server.url}/api/pay/callback`,
    redirectUrl: `${server.url}/done`,
    lookupOrder: (order) => {
      const amount = totals.get(String(order.id)) ?? 500;
      return { id: String(order.id), amount };
    },
    // A shop on a moved clock runs its store on it too: a booking's age is read by the store's clock.
    store: createMemoryStore(overrides.now ? { now: overrides.now } : {}),
    onError: (error, context) => errors.push({ error, context }),
    onPaymentResult: (result) => {
      results.push(result);
    },
    ...overrides,
  });
  mounted.listener = toNodeListener(handler);

  async function post(route: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}/api/pay/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer };
  }

  async function submit(url: string, fields: Record<string, string>): Promise<number> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    await response.arrayBuffer();
    return response.status;
  }

  return {
    sandbox,
    handler,
    url: server.url,
    results,
    errors,
    totals,
    post,
    async book(channel, id, headers = {}) {
      const answer = await post('book', { channel, order: { id } }, { 'idempotency-key': crypto.randomUUID(), ...headers });
      if (answer.status !== 200) throw new Error(`book ${id}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.data as unknown as Booked;
    },
    async pay(booked) {
      let page = booked.deeplink;
      if (page === undefined) {
        // The browser's form post opens the web payment page, then the shopper confirms on it.
        await submit(booked.web_payment!.url, booked.web_payment!.fields);
        page = `${sandbox.baseUrl}/web/pay/${encodeURIComponent(booked.booking_id)}`;
      }
      return submit(`${page}/confirm`, { mpin: '1234', method: 'wallet_balance' });
    },
    async close() {
      if (!shared) await sandbox.close();
      await server.close();
    },
  };
}
