/**
 * The merchant's request handler: one function from `Request` to `Response` that serves the
 * element's contract (`/book`, `/status`, `/cancel`) and the service's callback (`/callback`).
 * Routing uses only the last path segment, so it can be mounted under any path of any framework.
 * Web APIs only; `node.ts` adapts it to `node:http`. Its parts: `booking.ts` (booking and
 * idempotency), `results.ts` (result delivery and reconciliation), `http.ts` (parsing and envelopes).
 */
import { CODES } from '../protocol/contract.js';
import { createBooking } from './booking.js';
import { checkContentType, failure, lastSegment, readBody, Refusal, ROUTES, success } from './http.js';
import type { Kit } from './kit.js';
import { createResults } from './results.js';
import { createServiceClient } from './service-client.js';
import { createMemoryStore, IN_MEMORY } from './memory-store.js';
import type { PaymentStore } from './store.js';
import type { PaymentHandler, PaymentHandlerOptions } from './types.js';

export { transactionUuid } from './booking.js';
export type {
  OrderDetails,
  PaymentHandler,
  PaymentHandlerOptions,
  PaymentResult,
  ReconcileOptions,
  ReconcileReport,
  RedirectContext,
} from './types.js';

/**
 * Creates the merchant's payment handler. Mount it under any path: it answers `POST .../book`,
 * `.../status`, `.../cancel` for the element and `POST .../callback` for the service.
 */
export function createPaymentHandler(options: PaymentHandlerOptions): PaymentHandler {
  for (const name of ['serviceUrl', 'productCode', 'accessKey', 'callbackUrl'] as const) {
    if (typeof options[name] !== 'string' || options[name].length === 0) throw new TypeError(`${name} is required.`);
  }
  if (typeof options.lookupOrder !== 'function') throw new TypeError('lookupOrder is required.');
  if (typeof options.onPaymentResult !== 'function') throw new TypeError('onPaymentResult is required.');
  if (typeof options.redirectUrl !== 'string' && typeof options.redirectUrl !== 'function') {
    throw new TypeError('redirectUrl must be a URL string or a function returning one.');
  }
  const leaseMs = options.leaseMs ?? 60_000;
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new TypeError('leaseMs must be a positive number.');
  const store = options.store ?? createMemoryStore();
  warnOfMemoryStore(store);
  const kit: Kit = {
    options,
    owner: `${Date.now().toString(36)}-${crypto.randomUUID()}`,
    leaseMs,
    now: Date.now,
    client: createServiceClient({
      baseUrl: options.serviceUrl,
      accessKey: options.accessKey,
      productCode: options.productCode,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    }),
    store,
    report: options.onError ?? (() => {}),
  };
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const webPaymentUrl = options.webPayment?.url ?? `${options.serviceUrl.replace(/\/+$/, '')}/web/pay`;
  const results = createResults(kit);
  const booking = createBooking(kit, webPaymentUrl, results.deliver);

  async function handle(request: Request): Promise<Response> {
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
          return success('Payment status fetched successfully', await results.status(text));
        case 'cancel':
          return success('Transaction cancelled', await results.cancel(text), CODES.CANCELLED);
        case 'callback':
          return success('Callback recorded', await results.callback(text));
      }
    } catch (error) {
      if (error instanceof Refusal) return failure(error);
      kit.report(error, { route });
      return failure(new Refusal(CODES.INTERNAL, 'The server could not handle this request.'));
    }
  }

  const handler = async (request: Request): Promise<Response> => {
    try {
      return await handle(request);
    } catch (error) {
      kit.report(error, { route: 'unknown' });
      return failure(new Refusal(CODES.INTERNAL, 'The server could not handle this request.'));
    }
  };
  return Object.assign(handler, {
    reconcile: results.reconcile,
    prune: () => store.prune(Date.now() - (options.retentionMs ?? DEFAULT_RETENTION_MS)),
  });
}

/** Bookings, keys and results are kept a week: well past a booking's life and reconcile's horizon. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

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
