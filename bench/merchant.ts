/**
 * The merchant side every benchmark talks to: the real sandbox of the payment service and the real
 * merchant handler in front of it, both on loopback. Orders are priced by a lookup that accepts any
 * id, so each sample can book a fresh order without a shared fixture.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { createMemoryStore, createPaymentHandler, createServiceClient, type ServiceClient } from '../src/server/index.js';
import { toNodeListener, type NodeListener } from '../src/server/node.js';
import type { PaymentStore } from '../src/server/store.js';

/** The bench's own key and merchant: never a real credential. */
export const BENCH_ACCESS_KEY = 'bench-access-key';
export const BENCH_PRODUCT_CODE = 'BENCH';
/** The amount every bench order costs. */
export const BENCH_AMOUNT = 1000;
/** Path the handler is mounted under, as a merchant would on its own server. */
export const PAY_PATH = '/api/pay/';

/** A running sandbox with a merchant handler in front of it. */
export interface Merchant {
  sandbox: Sandbox;
  /** The handler as a `node:http` listener; it answers every `${PAY_PATH}*` request. */
  listener: NodeListener;
  /** A client that calls the sandbox directly, signing like the handler does. */
  direct: ServiceClient;
  /** Failures the handler reported to `onError` (a healthy run has none). */
  errors: unknown[];
  close(): Promise<void>;
}

/** What {@link startMerchant} may be given: a store (default the memory store), a running sandbox. */
export interface MerchantOptions {
  store?: PaymentStore;
  /** A sandbox someone else started (and closes); default a fresh one, closed with the merchant. */
  sandbox?: Sandbox;
}

/**
 * Starts the sandbox and the handler. `origin` is the merchant server's own origin (for the callback
 * and redirect URLs the service is given; no payment completes during a benchmark).
 */
export async function startMerchant(origin: string, options: MerchantOptions = {}): Promise<Merchant> {
  const sandbox = options.sandbox ?? (await startSandbox({ accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE }));
  const errors: unknown[] = [];
  const handler = createPaymentHandler({
    store: options.store ?? createMemoryStore(),
    serviceUrl: sandbox.baseUrl,
    productCode: BENCH_PRODUCT_CODE,
    accessKey: BENCH_ACCESS_KEY,
    callbackUrl: `${origin}${PAY_PATH}callback`,
    redirectUrl: `${origin}/`,
    lookupOrder: (order) => ({ id: String(order.id), amount: BENCH_AMOUNT, properties: { order_id: String(order.id) } }),
    onPaymentResult: () => undefined,
    onError: (error) => errors.push(error),
  });
  const direct = createServiceClient({ baseUrl: sandbox.baseUrl, accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE });
  const close = options.sandbox ? async () => {} : () => sandbox.close();
  return { sandbox, listener: toNodeListener(handler), direct, errors, close };
}

/** Routes `${PAY_PATH}*` to the handler and everything else to `rest`. */
export function withPayRoutes(
  merchant: Merchant,
  rest: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    if ((request.url ?? '').startsWith(PAY_PATH)) merchant.listener(request, response);
    else rest(request, response);
  };
}
