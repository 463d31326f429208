/**
 * The shop behind every example: its settings, its orders, the payment handler and the three pages.
 * Web APIs only, so the same file runs on Node, Bun, Deno, Next.js and Cloudflare Workers; each
 * example's entry file adds the store and the mount. Replace the orders and the records with your own
 * database.
 */
import { createPaymentHandler, type PaymentHandler, type PaymentResult, type PaymentStore } from 'wallet-pay-button/server';

/** What the shop reads from its environment (`process.env`, `Deno.env`, a worker's `env`). */
export interface ShopConfig {
  /** The service's base URL (the sandbox prints it as `serviceUrl`). */
  serviceUrl: string;
  productCode: string;
  /** Signs every request to the service; never sent to the browser. */
  accessKey: string;
  /** This shop's own origin, as shoppers reach it, e.g. `https://shop.example`. */
  publicUrl: string;
  /** The element's `allowed-hosts` (the sandbox prints it). */
  allowedHosts: string;
  /** Where the service sends callbacks; default `${publicUrl}/api/pay/callback`. */
  callbackUrl: string;
  /** The spec's five minutes: bookings younger than this are left to the shopper's own page. */
  reconcileOlderThanMs: number;
}

/** Reads the settings; a missing one is named, so a wrong deployment fails at start, not at payment. */
export function readConfig(env: Record<string, string | undefined>): ShopConfig {
  const need = (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`Set ${name} (see the README).`);
    return value;
  };
  const publicUrl = need('PUBLIC_URL').replace(/\/+$/, '');
  return {
    serviceUrl: need('WALLET_SERVICE_URL'),
    productCode: need('WALLET_PRODUCT_CODE'),
    accessKey: need('WALLET_ACCESS_KEY'),
    publicUrl,
    allowedHosts: need('WALLET_ALLOWED_HOSTS'),
    callbackUrl: env.WALLET_CALLBACK_URL || `${publicUrl}/api/pay/callback`,
    reconcileOlderThanMs: Number(env.RECONCILE_OLDER_THAN_MS || 300_000),
  };
}

/** One payment result as the shop recorded it. */
export interface RecordedPayment {
  status: PaymentResult['status'];
  source: PaymentResult['source'];
  amount: number | undefined;
  reference_code: string | undefined;
}

/** The shop: its payment handler, its orders and its pages. */
export interface Shop {
  config: ShopConfig;
  handler: PaymentHandler;
  /** An order and what was recorded for it, or undefined for an id that is not an order. */
  order(id: string): { id: string; amount: number; payments: RecordedPayment[]; deliveries: number; paid: boolean } | undefined;
  /** One reconcile pass, bounded in time: the spec's five-minute status check of forgotten payments. */
  reconcileNow(): Promise<unknown>;
  /** Answers the shop's own routes (pages, order lookup); undefined for a path it does not serve. */
  page(request: Request): Response | undefined;
}

/** Every order costs the same in this shop; a real one reads the amount from its database. */
const PRICE = 1250;
/** An order id: what the checkout page mints. Anything else is not an order (IP-424). */
const ORDER_ID = /^order-[a-z0-9-]{6,64}$/;

/** Builds the shop on a store the entry file chose (PostgreSQL in production). */
export function createShop(config: ShopConfig, store: PaymentStore): Shop {
  // Your database's payments table: one row per order, booking and final status.
  const records = new Map<string, RecordedPayment[]>();
  // How often the kit called onPaymentResult per order: once per booking and status.
  const deliveries = new Map<string, number>();
  const handler = createPaymentHandler({
    serviceUrl: config.serviceUrl,
    productCode: config.productCode,
    accessKey: config.accessKey,
    callbackUrl: config.callbackUrl,
    store,
    // Back to the checkout of the same order: the element there checks the status and routes on. The
    // phone that paid a desktop's code (a hand-off) has no checkout to follow: a page of its own.
    redirectUrl: ({ order, handoff }) => `${config.publicUrl}/${handoff ? 'phone' : ''}?order=${encodeURIComponent(String(order.id))}`,
    // Paid orders are not refused here: the kit answers IP-412 for them while it keeps the booking.
    lookupOrder: (order) => (typeof order.id === 'string' && ORDER_ID.test(order.id) ? { id: order.id, amount: PRICE, properties: { order_id: order.id } } : undefined),
    onPaymentResult: (result) => {
      const id = String(result.order?.id ?? result.correlation_id);
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
      const list = records.get(id) ?? [];
      // Idempotent, as the kit asks: a result delivered again after a crash is not counted twice.
      if (!list.some((p) => p.status === result.status)) {
        list.push({ status: result.status, source: result.source, amount: result.amount, reference_code: result.reference_code });
      }
      records.set(id, list);
    },
    onError: (error, { route }) => console.error('wallet-pay', route, error),
  });

  const order: Shop['order'] = (id) => {
    if (!ORDER_ID.test(id)) return undefined;
    const payments = records.get(id) ?? [];
    const last = payments.at(-1);
    return { id, amount: PRICE, payments, deliveries: deliveries.get(id) ?? 0, paid: last?.status === 'SUCCESS' && last.amount === PRICE };
  };

  return {
    config,
    handler,
    order,
    reconcileNow: () => handler.reconcile({ olderThanMs: config.reconcileOlderThanMs, timeBudgetMs: 5_000 }),
    page(request) {
      const url = new URL(request.url);
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const requested = url.searchParams.get('order') ?? '';
      if (url.pathname === '/') {
        const id = ORDER_ID.test(requested) ? requested : `order-${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
        return html(checkoutPage(id, config.allowedHosts));
      }
      if (url.pathname === '/success' || url.pathname === '/failure') {
        return html(resultPage(url.pathname === '/success', order(requested)));
      }
      if (url.pathname === '/phone') return html(phonePage(order(requested)));
      const match = /^\/api\/orders\/([^/]+)$/.exec(url.pathname);
      if (match) {
        const found = order(decodeURIComponent(match[1]!));
        return Response.json(found ?? { error: 'No such order.' }, { status: found ? 200 : 404, headers: { 'cache-control': 'no-store' } });
      }
      return undefined;
    },
  };
}

/**
 * Reconciliation where no timer runs (serverless, edge): every status check may start one bounded
 * pass, at most once per `everyMs`. The shopper's answer does not wait for it.
 */
export function reconcileOnStatus(shop: Shop, everyMs: number, waitUntil: (work: Promise<unknown>) => void = () => {}) {
  let last = 0;
  return (request: Request): Promise<Response> => {
    const now = Date.now();
    if (new URL(request.url).pathname.endsWith('/status') && now - last >= everyMs) {
      last = now;
      waitUntil(shop.reconcileNow().catch((error: unknown) => console.error('reconcile', error)));
    }
    return shop.handler(request);
  };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function html(body: string): Response {
  return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

/** The checkout: the element, pointed at the kit's mount and at the result pages of this order. */
export function checkoutPage(orderId: string, allowedHosts: string, script = '<script type="module" src="/wallet-pay-button/wallet-pay-button.min.js"></script>'): string {
  const id = escape(orderId);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title>${script}</head>
<body><h1>Checkout</h1><p>Order <code>${id}</code>: NPR ${PRICE.toFixed(2)}</p>
<wallet-pay-button endpoint="/api/pay" order-id="${id}" allowed-hosts="${escape(allowedHosts)}"
  success-url="/success?order=${id}" failure-url="/failure?order=${id}"></wallet-pay-button>
</body></html>`;
}

/** The phone that paid a desktop's code: where the order stands, and that the computer carries on. */
export function phonePage(order: ReturnType<Shop['order']>): string {
  const detail = !order ? 'Unknown order.' : order.paid ? `Order ${escape(order.id)} is paid.` : `Order ${escape(order.id)}: the payment is being confirmed.`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Payment</title></head>
<body><h1>Payment</h1><p id="result">${detail}</p><p>Go back to your computer: the checkout there carries on.</p></body></html>`;
}

/** Success and failure: what the shop recorded, never the status in the address alone. */
export function resultPage(success: boolean, order: ReturnType<Shop['order']>): string {
  const title = success ? 'Thank you' : 'Payment not completed';
  const detail = !order
    ? 'Unknown order.'
    : order.paid
      ? `Order ${escape(order.id)} is paid.`
      : success
        ? `Order ${escape(order.id)}: the payment is being confirmed.`
        : `Order ${escape(order.id)} is not paid. <a href="/?order=${escape(order.id)}">Try again</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><p id="result">${detail}</p></body></html>`;
}
