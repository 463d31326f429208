/**
 * The checker is itself checked: proxies that each break one rule of the contract (most are a thin
 * layer in front of the kit) must each fail exactly the clause that names the fault, and pass the rest.
 */
import { randomUUID } from 'node:crypto';
import { createMemoryStore, type LookupContext, type PaymentHandlerOptions, type PaymentResult } from '../../../src/server/index.js';
import type { OrderReference } from '../../../src/protocol/contract.js';
import { checkEachBroken, type BrokenProxy } from './broken-runner.js';
import { AMOUNT, kitUnderTest, PREFIX, type Fetch } from './support.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
const envelope = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
const route = (request: Request) => new URL(request.url).pathname.split('/').filter(Boolean).at(-1) ?? '';

/** The request again, with its body read once (so the layer can look at it) and maybe a new key. */
async function readAndRebuild(request: Request, change: { key?: string; body?: string } = {}): Promise<{ text: string; request: Request }> {
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
  const headers = new Headers(request.headers);
  if (change.key !== undefined) headers.set('idempotency-key', change.key);
  const body = change.body ?? text;
  return { text, request: new Request(request.url, { method: request.method, headers, ...(body ? { body } : {}) }) };
}

const parse = (text: string): Record<string, unknown> | undefined => {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/** Remembers which order each booking (by correlation id) is for, from the kit's book answers. */
function bookingsSeen() {
  const orders = new Map<string, string>();
  return {
    orders,
    async note(bookText: string, answer: Response): Promise<Response> {
      const data = (parse(await answer.clone().text())?.data ?? {}) as Record<string, unknown>;
      const order = parse(bookText)?.order;
      if (typeof data.correlation_id === 'string') orders.set(data.correlation_id, JSON.stringify(order));
      return answer;
    },
  };
}

/** The kit with its options changed, or a layer in front of it. */
interface Broken extends BrokenProxy {
  overrides?: Partial<PaymentHandlerOptions>;
  wrap?: (kit: Fetch) => Fetch;
}

const BROKEN: Broken[] = [
  {
    name: 'takes the price from the order the browser sent',
    fault: 'amount-from-merchant',
    overrides: {
      lookupOrder: (order) =>
        typeof order.id === 'string' && order.id.startsWith(PREFIX) ? { id: order.id, amount: typeof order.amount === 'number' ? order.amount : AMOUNT } : undefined,
    },
  },
  {
    name: 'books anew on every request (no idempotency), though it still refuses a key reused for another order',
    fault: 'one-booking-per-key',
    wrap: (kit) => {
      const seen = new Map<string, string>();
      return async (request) => {
        const key = request.headers.get('idempotency-key');
        if (route(request) !== 'book' || key === null || !/^[A-Za-z0-9_.:-]{16,80}$/.test(key)) return kit(request);
        const { text, request: again } = await readAndRebuild(request, { key: `${key}.${randomUUID()}` });
        const body = parse(text);
        const fingerprint = JSON.stringify([body?.channel, body?.order]);
        if (seen.has(key) && seen.get(key) !== fingerprint) return envelope(409, { code: 'IP-409', error_message: 'Key reused.' });
        seen.set(key, fingerprint);
        return kit(again);
      };
    },
  },
  {
    // A race that the timing of one burst can hide: the checker asks in bursts until one shows it.
    name: 'keeps one booking per key for the first crowd of requests at once with one key, and books anew for each request of a later crowd',
    fault: 'one-booking-per-key',
    wrap: (kit) => {
      const inFlight = new Map<string, number>();
      const crowds: string[] = [];
      return async (request) => {
        const key = request.headers.get('idempotency-key');
        if (route(request) !== 'book' || key === null) return kit(request);
        const count = (inFlight.get(key) ?? 0) + 1;
        inFlight.set(key, count);
        try {
          if (count >= 5 && !crowds.includes(key)) crowds.push(key);
          if (crowds.indexOf(key) < 1) return await kit(request);
          const { request: again } = await readAndRebuild(request, { key: `${key}.${randomUUID()}` });
          return await kit(again);
        } finally {
          inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
        }
      };
    },
  },
  {
    name: 'skips the signature check for callbacks of its own bookings',
    fault: 'callback-forgeries-refused',
    // It answers its bookings' callbacks without recording them: the SUCCESS after a cancel is lost too.
    alsoFails: ['paid-after-cancel'],
    wrap: (kit) => {
      const seen = bookingsSeen();
      return async (request) => {
        const { text, request: again } = await readAndRebuild(request);
        if (route(request) === 'book') return seen.note(text, await kit(again));
        const correlation = parse(text)?.correlation_id;
        if (route(request) === 'callback' && typeof correlation === 'string' && seen.orders.has(correlation)) {
          return envelope(200, { code: 'IP-201', message: 'Callback recorded', data: {} });
        }
        return kit(again);
      };
    },
  },
  {
    name: 'records a callback\'s first SUCCESS before it checks the signature (and a REVERTED)',
    fault: 'forged-success-not-paid',
    wrap: (kit) => {
      const seen = bookingsSeen();
      const paid = new Set<string>();
      const settled = new Set<string>();
      return async (request) => {
        const { text, request: again } = await readAndRebuild(request);
        if (route(request) === 'book') {
          if (paid.has(JSON.stringify(parse(text)?.order))) return envelope(409, { code: 'IP-412', error_message: 'Already paid.' });
          return seen.note(text, await kit(again));
        }
        const callback = parse(text);
        const order = seen.orders.get(String(callback?.correlation_id));
        if (route(request) === 'callback' && order && callback?.status === 'SUCCESS' && !settled.has(String(callback.correlation_id))) {
          settled.add(String(callback.correlation_id));
          paid.add(order);
        }
        if (route(request) === 'callback' && order && callback?.status === 'REVERTED') paid.delete(order);
        return kit(again);
      };
    },
  },
  {
    name: 'books an order already paid again (under a changed order reference)',
    fault: 'paid-order-refused',
    // It forgets an order was paid when it books: its lookup names the order anew on /book after each
    // payment of it, while its /order names it as the last book did (so /order is not at fault).
    overrides: (() => {
      const payments = new Map<string, number>();
      return {
        lookupOrder: (order: OrderReference, { request }: LookupContext) => {
          if (typeof order.id !== 'string' || !order.id.startsWith(PREFIX)) return undefined;
          const paid = payments.get(order.id) ?? 0;
          return { id: `${order.id}#${request.url.endsWith('/book') ? paid : Math.max(0, paid - 1)}`, amount: AMOUNT };
        },
        onPaymentResult: (result: PaymentResult) => {
          const id = result.order?.id;
          if (result.status === 'SUCCESS' && typeof id === 'string') payments.set(id, (payments.get(id) ?? 0) + 1);
        },
      };
    })(),
  },
  {
    name: 'answers /order from the shop\'s order table alone, which its payments never update',
    fault: 'order-paid',
    wrap: (kit) => async (request) =>
      route(request) === 'order'
        ? new Response(JSON.stringify({ code: 'IP-201', message: 'OK', data: { paid: false } }), {
            headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
          })
        : kit(request),
  },
  {
    name: 'redirects addresses it does not know to the shop\'s home page',
    fault: 'no-redirect',
    wrap: (kit) => async (request) =>
      ['book', 'status', 'cancel', 'order', 'callback'].includes(route(request)) ? kit(request) : new Response(null, { status: 302, headers: { location: '/' } }),
  },
  {
    name: 'lets answers be cached (no Cache-Control: no-store)',
    fault: 'no-store',
    wrap: (kit) => async (request) => {
      const answer = await kit(request);
      const headers = new Headers(answer.headers);
      headers.delete('cache-control');
      return new Response(answer.body, { status: answer.status, headers });
    },
  },
  {
    name: 'acknowledges a signed callback for a booking it never made',
    fault: 'callback-unknown-booking',
    wrap: (kit) => async (request) => {
      const answer = await kit(request);
      if (route(request) !== 'callback' || answer.status !== 404) return answer;
      return Response.json({ code: 'IP-200', message: 'Recorded', data: {} }, { headers: answer.headers });
    },
  },
  {
    name: 'answers an unknown order with IP-404 instead of IP-424',
    fault: 'unknown-order',
    wrap: (kit) => async (request) => {
      const answer = await kit(request);
      const body = parse(await answer.clone().text());
      return body?.code === 'IP-424' ? envelope(404, { code: 'IP-404', error_message: String(body.error_message) }) : answer;
    },
  },
  {
    name: 'answers an unknown address with a failure envelope and HTTP 200',
    fault: 'failure-not-2xx',
    wrap: (kit) => async (request) => {
      const answer = await kit(request);
      const body = parse(await answer.clone().text());
      return body?.code === 'IP-444' ? envelope(200, body) : answer;
    },
  },
  {
    name: 'answers GET with 404 instead of 405 and Allow: POST',
    fault: 'method-not-allowed',
    wrap: (kit) => async (request) => (request.method === 'POST' ? kit(request) : envelope(404, { code: 'IP-444', error_message: 'Not found.' })),
  },
  {
    name: 'verifies callbacks on the parsed amount (the body re-serialized, as json_decode and JSON.parse do)',
    fault: 'callback-amount-as-written',
    says: /amount written 1250\.50 was refused.*The docs warn: "verify a callback on its raw text/,
    wrap: (kit) => async (request) => {
      if (route(request) !== 'callback') return kit(request);
      const text = await request.text();
      const parsed = parse(text);
      return kit(new Request(request.url, { method: request.method, headers: request.headers, body: parsed ? JSON.stringify(parsed) : text }));
    },
  },
  {
    name: 'leaves the signature out of the web payment form',
    fault: 'book-web',
    // The provider's page's own words, not its styles.
    says: /the provider's page refused the instruction \(HTTP 422: [^{;]*signature/i,
    wrap: (kit) => async (request) => {
      const answer = await kit(request);
      const body = parse(await answer.clone().text()) as { data?: { web_payment?: { fields?: Record<string, string> } } } | undefined;
      if (route(request) !== 'book' || !body?.data?.web_payment?.fields) return answer;
      delete body.data.web_payment.fields.signature;
      return envelope(answer.status, body);
    },
  },
  {
    name: 'registers a callback URL on a wrong public URL',
    fault: 'callback-url-origin',
    says: /http:\/\/127\.0\.0\.1:9\/pay\/callback, is not on --endpoint's origin .*a wrong public URL/,
    overrides: { callbackUrl: 'http://127.0.0.1:9/pay/callback' },
  },
];

checkEachBroken('the checker fails each broken proxy on exactly the clause that names its fault', BROKEN, {
  concurrency: 3,
  title: (broken) => `${broken.fault}: a proxy that ${broken.name}`,
  prepare: (broken) => (port) =>
    kitUnderTest(port, { store: createMemoryStore(), ...(broken.overrides ? { overrides: broken.overrides } : {}), ...(broken.wrap ? { wrap: broken.wrap } : {}) }),
});
