/**
 * The merchant's request handler: one function from `Request` to `Response` that serves the
 * element's contract (`/book`, `/status`, `/cancel`, `/order`) and the service's callback (`/callback`).
 * Routing uses only the last path segment, so it can be mounted under any path of any framework.
 * Web APIs only; `node.ts` adapts it to `node:http`. Its parts, composed here as hono's `Hono` composes
 * its routes: `booking.ts` (booking and idempotency), `result-routes.ts` (status, cancel, callback),
 * `delivery.ts` (each result once to `onPaymentResult`), `reconcile.ts`, `order-route.ts`, `http.ts`
 * (parsing and envelopes), `context.ts` (what they share) and `guards.ts` (the order lookup and the store
 * under their deadlines, the store's outages as `IP-503`). Only this module reads the options, and builds
 * once what the parts use: the providers and their calls (provider-calls.ts; the options of the intent
 * service alone build its adapter, as before providers were named), the merchant key (order-tag.ts),
 * the order lookup and the store's guard (guards.ts).
 */
import { CODES } from '../protocol/contract.js';
import { attemptTag } from './attempt.js';
import { createBooking } from './booking.js';
import { checkContentType, failure, lastSegment, readBody, Refusal, ROUTES, success } from './http.js';
import type { Kit } from './context.js';
import { createDelivery } from './delivery.js';
import { createMerchantKey } from './order-tag.js';
import { refuseMalformed } from './malformed.js';
import { createOrderRoute } from './order-route.js';
import { createReconciler } from './reconcile.js';
import { createRefund } from './refund.js';
import { createResultRoutes } from './result-routes.js';
import { esewaIntent } from '../providers/esewa-intent/adapter.js';
import type { PaymentProvider } from './provider.js';
import { createProviders } from './provider-calls.js';
import { StoreUnavailableError } from './store-errors.js';
import { asStoreOutage, createLookup, guardStore, storeUnavailable } from './guards.js';
import { IN_MEMORY } from './memory-store.js';
import type { PaymentStore } from './store.js';
import type { ErrorContext, PaymentHandler, PaymentHandlerOptions, PaymentResult } from './types.js';

export { AmountMismatchError, DuplicatePaymentError, OverpaymentError } from './delivery.js';
export type {
  ErrorContext,
  LookupContext,
  OrderDetails,
  PaidOrder,
  PaymentHandler,
  PaymentHandlerOptions,
  PaymentResult,
  ReconcileOptions,
  ReconcileReport,
  RedirectContext,
} from './types.js';

/**
 * Creates the merchant's payment handler. Mount it under any path: it answers `POST .../book`,
 * `.../status`, `.../cancel`, `.../order` for the element and `POST .../callback` for the service.
 *
 * @throws {TypeError} at once for a set-up mistake (a missing option or store, a relative
 * `callbackUrl`, a `serviceUrl` that carries the API path), naming the option and the fix.
 */
export function createPaymentHandler(options: PaymentHandlerOptions): PaymentHandler {
  checkOptions(options);
  const providerList = providersOf(options);
  const leaseMs = options.leaseMs ?? 60_000;
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new TypeError('leaseMs must be a positive number.');
  const now = options.now ?? Date.now;
  const sample: unknown = typeof now === 'function' ? now() : undefined;
  if (typeof sample !== 'number' || !Number.isFinite(sample)) {
    throw new TypeError(`now must be a function returning milliseconds since the epoch (default Date.now); got ${typeof now === 'function' ? `one returning ${String(sample)}` : typeof now}.`);
  }
  warnOfMemoryStore(options.store);
  const tell = options.onError ?? (() => {});
  const lookupTimeoutMs = deadlineOption('lookupTimeoutMs', options.lookupTimeoutMs, 5_000);
  const storeTimeoutMs = deadlineOption('storeTimeoutMs', options.storeTimeoutMs, 10_000);
  const report = (error: unknown, context: ErrorContext): void => {
    if (!(error instanceof StoreUnavailableError)) tell(error, context);
  };
  const [first] = providerList;
  const kit: Kit = {
    providers: createProviders(providerList, report),
    key: createMerchantKey(first!.account, first!.secret),
    lookup: createLookup(options.lookupOrder, lookupTimeoutMs, report),
    // Outages are told once each by the guard; the parts' own reports of them would repeat it per request.
    store: guardStore(options.store, (outage) => tell(outage, { route: 'store' }), storeTimeoutMs),
    owner: `${now().toString(36)}-${crypto.randomUUID()}`,
    leaseMs,
    now,
    report,
  };
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  // Each result names its wallet, from the provider that made its booking (set on the result itself,
  // so an error that carries the result carries the same object the hook got).
  const onPaymentResult: PaymentHandlerOptions['onPaymentResult'] = async (result) => {
    if (result.provider && !result.wallet) result.wallet = kit.providers.of(result).wallet;
    await options.onPaymentResult(result);
    if (options.refundDuplicates) refundExtra(result);
  };
  const delivery = createDelivery(kit, onPaymentResult);
  const refund = createRefund(kit, delivery);
  /**
   * `refundDuplicates`: a second payment is refunded whole, an overpayment's excess in part, through the
   * provider's refund API where it has one (after the hook took the result); a refund that fails, or a
   * provider without one, is told to `onError`, naming the booking to refund by hand.
   */
  function refundExtra(result: PaymentResult): void {
    if (result.status !== 'SUCCESS' || !result.booking_id || !(result.duplicate || result.overpayment)) return;
    const context = { route: 'refund', booking_id: result.booking_id, correlation_id: result.correlation_id, wallet: result.wallet, provider: result.provider };
    const amount = result.duplicate ? undefined : result.overpayment;
    void refund({ booking_id: result.booking_id, ...(amount === undefined ? {} : { amount }) }).catch((error: unknown) =>
      tell(new Error(`The ${result.duplicate ? 'second payment' : 'overpayment'} of booking ${result.booking_id} was not refunded automatically: ${(error as Error).message} Refund it from the provider's merchant portal.`, { cause: error }), context),
    );
  }
  const results = createResultRoutes(kit, delivery, options.resultTimeoutMs ?? 10_000);
  const reconcile = createReconciler(kit, delivery);
  const booking = createBooking(
    kit,
    { callbackUrl: options.callbackUrl ?? '', redirectUrl: options.redirectUrl, serviceTimeoutMs: options.timeoutMs ?? 10_000 },
    delivery,
  );
  const order = createOrderRoute(kit, delivery);

  async function handle(request: Request): Promise<Response> {
    const refused = refuseMalformed(request);
    if (refused) return refused;
    const route = lastSegment(request.url);
    if (!route) {
      return failure(new Refusal(CODES.NOT_FOUND, `No such endpoint; use ${ROUTES.map((r) => `POST .../${r}`).join(', ')}.`));
    }
    try {
      if (request.method !== 'POST') {
        throw new Refusal(CODES.METHOD_NOT_ALLOWED, `Use POST for /${route}; got ${request.method}.`, { allow: 'POST' });
      }
      checkContentType(request.headers.get('content-type'));
      const text = await readBody(request, maxBodyBytes);
      switch (route) {
        case 'book':
          return success('Booking created', await booking.book(request, text));
        case 'status':
          return success('Payment status fetched successfully', await results.status(text, request));
        case 'cancel':
          return success('Transaction cancelled', await results.cancel(text, request), CODES.CANCELLED);
        case 'order':
          return success('Order state fetched', await order.answer(request, text));
        case 'callback':
          return success('Callback recorded', await results.callback(text));
      }
    } catch (error) {
      return answerFailure(error, route, route === 'book' || route === 'order' ? attemptTag(request) : {});
    }
  }

  function answerFailure(error: unknown, route: string, tag: { attempt?: string } = {}): Response {
    if (error instanceof Refusal) return failure(error);
    // Told once per outage by the store's guard; each request gets 503 and a time to come back.
    if (asStoreOutage(error)) return failure(storeUnavailable());
    kit.report(error, { route, ...tag });
    return failure(new Refusal(CODES.INTERNAL, 'The server could not handle this request.'));
  }

  const handler = async (request: Request): Promise<Response> => {
    try {
      return await handle(request);
    } catch (error) {
      return answerFailure(error, 'unknown');
    }
  };
  return Object.assign(handler, {
    wallets: Object.freeze([...new Set(kit.providers.list.map((provider) => provider.wallet))]),
    reconcile,
    prune: () => kit.store.prune({ before: now() - (options.retentionMs ?? DEFAULT_RETENTION_MS) }),
    refund,
  });
}

/** Bookings, keys and results are kept a week: well past a booking's life and reconcile's horizon. */
const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** A positive, finite number of milliseconds, or the default when absent; else a set-up error naming the option. */
function deadlineOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${name} must be a positive number of milliseconds; got ${String(value)}.`);
  }
  return value;
}

/**
 * The handler's providers: those the merchant lists, in order, then the intent service's when its
 * options are given (its deeplinks serve the phones a web checkout listed first does not).
 */
function providersOf(options: PaymentHandlerOptions): PaymentProvider[] {
  const listed = options.providers ?? [];
  if (!Array.isArray(listed)) throw new TypeError('providers must be an array of providers, e.g. [esewaEpay({ ... })].');
  const intent = options.serviceUrl !== undefined || options.productCode !== undefined || options.accessKey !== undefined;
  const list = [
    ...listed,
    ...(intent
      ? [esewaIntent({
          serviceUrl: options.serviceUrl!,
          productCode: options.productCode!,
          accessKey: options.accessKey!,
          webPaymentUrl: options.webPayment?.url,
          timeoutMs: options.timeoutMs,
          fetch: options.fetch,
        })]
      : []),
  ];
  if (list.length === 0) {
    throw new TypeError(
      'No provider: pass providers (e.g. [esewaEpay({ productCode, secretKey })] from wallet-pay-button/server/providers), ' +
        "or the intent service's serviceUrl, productCode and accessKey.",
    );
  }
  const names = new Set<string>();
  for (const provider of list) {
    if (names.has(provider.name)) throw new TypeError(`Two providers are named "${provider.name}": list each provider once.`);
    names.add(provider.name);
  }
  const needsCallback = list.some((provider) => provider.capabilities.outcome === 'signed-callback');
  if (needsCallback && (typeof options.callbackUrl !== 'string' || options.callbackUrl.length === 0)) {
    throw new TypeError('callbackUrl is required.');
  }
  return list;
}

function checkOptions(options: PaymentHandlerOptions): void {
  if (typeof options.lookupOrder !== 'function') throw new TypeError('lookupOrder is required.');
  if (typeof options.onPaymentResult !== 'function') throw new TypeError('onPaymentResult is required.');
  if (typeof options.redirectUrl !== 'string' && typeof options.redirectUrl !== 'function') {
    throw new TypeError('redirectUrl must be a URL string or a function returning one.');
  }
  const store = options.store as PaymentStore | undefined;
  if (store === undefined || store === null) {
    throw new TypeError(
      'store is required: where the handler keeps bookings decides whether a restart can charge a shopper twice. ' +
        'A real server: createPostgresStore(new pg.Pool({ connectionString })) from wallet-pay-button/server/postgres ' +
        "(or createPostgresStore(new PGlite('./payments')) for one process with a data folder). " +
        'Tests and demos only: createMemoryStore() from wallet-pay-button/server, whose bookings are lost on restart.',
    );
  }
  const urls: [string, URL][] = [];
  if (options.serviceUrl !== undefined) urls.push(['serviceUrl', absoluteUrl('serviceUrl', options.serviceUrl, "the provider's base address, e.g. https://pay.provider.example")]);
  if (options.callbackUrl !== undefined) {
    urls.push(['callbackUrl', absoluteUrl('callbackUrl', options.callbackUrl, "this handler's public callback address, e.g. https://shop.example/api/pay/callback")]);
  }
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (env?.NODE_ENV === 'production') {
    for (const [name, url] of urls) {
      if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
        console.warn(
          `wallet-pay-button: ${name} is plain http (${url.href}) under NODE_ENV=production. ` +
            `${name === 'serviceUrl' ? 'Signed requests and their answers' : "The service's callbacks"} cross the network unencrypted; ` +
            `use https:// for ${name}.`,
        );
      }
    }
  }
}

function absoluteUrl(name: string, value: string, example: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${name} must be an absolute URL (http: or https:), ${example}; got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`${name} must be an absolute URL (http: or https:), ${example}; got ${JSON.stringify(value)}.`);
  }
  return url;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

let warnedOfMemoryStore = false;

/** Once per process: a production server on the memory store loses every booking on restart. */
function warnOfMemoryStore(store: PaymentStore): void {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (warnedOfMemoryStore || env?.NODE_ENV !== 'production' || !(IN_MEMORY in store)) return;
  warnedOfMemoryStore = true;
  console.warn(
    'wallet-pay-button: the payment handler runs with the in-memory store under NODE_ENV=production. A restart loses ' +
      'every booking, and several processes do not share it; pass createPostgresStore(...) from wallet-pay-button/server/postgres.',
  );
}
