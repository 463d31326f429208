/**
 * The merchant's request handler: one function from `Request` to `Response` that serves the
 * element's contract (`/book`, `/status`, `/cancel`) and the service's callback (`/callback`).
 * Routing uses only the last path segment, so it can be mounted under any path of any framework.
 * Web APIs only; `node.ts` adapts it to `node:http`. Its parts: `booking.ts` (booking and
 * idempotency), `results.ts` (result delivery and reconciliation), `http.ts` (parsing and envelopes).
 */
import { CODES } from '../protocol/contract.js';
import { createBooking } from './booking.js';
import { failure, lastSegment, readBody, Refusal, ROUTES, success } from './http.js';
import type { Kit } from './kit.js';
import { createResults } from './results.js';
import { createServiceClient } from './service-client.js';
import { createMemoryStore } from './store.js';
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
  const kit: Kit = {
    options,
    client: createServiceClient({
      baseUrl: options.serviceUrl,
      accessKey: options.accessKey,
      productCode: options.productCode,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    }),
    store: options.store ?? createMemoryStore(),
    report: options.onError ?? (() => {}),
  };
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const webPaymentUrl = options.webPayment?.url ?? `${options.serviceUrl.replace(/\/+$/, '')}/web/pay`;
  const booking = createBooking(kit, webPaymentUrl);
  const results = createResults(kit, booking);

  async function handle(request: Request): Promise<Response> {
    const route = lastSegment(request.url);
    if (!route) {
      return failure(new Refusal(CODES.NOT_FOUND, `No such endpoint; use ${ROUTES.map((r) => `POST .../${r}`).join(', ')}.`));
    }
    try {
      if (request.method !== 'POST') {
        throw new Refusal(CODES.METHOD_NOT_ALLOWED, `Use POST for /${route}; got ${request.method}.`, { allow: 'POST' });
      }
      const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json') {
        throw new Refusal(CODES.UNSUPPORTED_MEDIA_TYPE, `Send the body as application/json; got ${type ? `"${type}"` : 'no content type'}.`);
      }
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
  return Object.assign(handler, { reconcile: results.reconcile });
}
