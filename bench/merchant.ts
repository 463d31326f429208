/**
 * The merchant side every benchmark talks to: the real sandbox of the payment providers and the real
 * merchant handler in front of it, both on loopback, booking through one provider: eSewa's intent
 * service (the handler's own options), eSewa ePay v2 or Khalti (`providers`). Orders are priced by a
 * lookup that accepts any id, so each sample can book a fresh order without a shared fixture.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandlerOptions } from '../src/server/handler.js';
import { createMemoryStore } from '../src/server/memory-store.js';
import { toNodeListener, type NodeListener } from '../src/server/node.js';
import type { PaymentProvider } from '../src/server/provider.js';
import { esewaEpay, esewaIntent, khalti } from '../src/server/providers.js';
import type { PaymentStore } from '../src/server/store.js';

/** The bench's own key and merchant: never a real credential. */
export const BENCH_ACCESS_KEY = 'bench-access-key';
export const BENCH_PRODUCT_CODE = 'BENCH';
/** The amount every bench order costs. */
export const BENCH_AMOUNT = 1000;
/** Path the handler is mounted under, as a merchant would on its own server. */
export const PAY_PATH = '/api/pay/';
/** eSewa's published ePay v2 test merchant, which the sandbox plays (providers.md). */
const EPAY_TEST = { productCode: 'EPAYTEST', secretKey: '8gBm/:&EnhH.1/q' } as const;

/** The providers the bench books through, in the order it prints them. */
export const BENCH_PROVIDERS = ['esewa-intent', 'esewa-epay', 'khalti'] as const;
export type BenchProvider = (typeof BENCH_PROVIDERS)[number];

/** What each provider's row is called. */
export const PROVIDER_LABELS: Record<BenchProvider, string> = {
  'esewa-intent': "eSewa's intent service",
  'esewa-epay': 'eSewa ePay v2',
  khalti: 'Khalti',
};

/** What the element sends to `/book` for each provider: ePay v2 and Khalti pay on the web only. */
const BOOK_BODIES: Record<BenchProvider, { channel: 'app' | 'web'; wallet?: string }> = {
  'esewa-intent': { channel: 'app' },
  'esewa-epay': { channel: 'web', wallet: 'esewa' },
  khalti: { channel: 'web', wallet: 'khalti' },
};

/** A running sandbox with a merchant handler in front of it. */
export interface Merchant {
  sandbox: Sandbox;
  /** The handler as a `node:http` listener; it answers every `${PAY_PATH}*` request. */
  listener: NodeListener;
  /** Which provider the handler books through. */
  provider: BenchProvider;
  /** The `/book` body's channel and wallet for {@link provider}, as the element sends them. */
  book: { channel: 'app' | 'web'; wallet?: string };
  /**
   * The same provider's adapter, for calling the provider directly: the call the handler makes for
   * a booking (a signed book at the intent service, an initiate at Khalti, none at ePay v2).
   */
  adapter: PaymentProvider;
  /** Failures the handler reported to `onError` (a healthy run has none). */
  errors: unknown[];
  close(): Promise<void>;
}

/** What {@link startMerchant} may be given: a store (default the memory store), a running sandbox, a provider. */
export interface MerchantOptions {
  store?: PaymentStore;
  /** A sandbox someone else started (and closes); default a fresh one, closed with the merchant. */
  sandbox?: Sandbox;
  /** The provider the handler books through; default the intent service. */
  provider?: BenchProvider;
}

/** The adapter of `provider` on `sandbox`, as the handler is given it (the intent service's from its options). */
export function benchAdapter(provider: BenchProvider, sandbox: Sandbox, origin: string): PaymentProvider {
  if (provider === 'esewa-epay') return esewaEpay({ ...EPAY_TEST, baseUrl: sandbox.baseUrl });
  if (provider === 'khalti') return khalti({ secretKey: sandbox.accessKey, websiteUrl: `${origin}/`, baseUrl: sandbox.baseUrl });
  return esewaIntent({ serviceUrl: sandbox.baseUrl, productCode: BENCH_PRODUCT_CODE, accessKey: BENCH_ACCESS_KEY });
}

/** The handler's options for `provider`: the intent service by its own options (as before providers), the others as `providers`. */
function providerOptions(provider: BenchProvider, sandbox: Sandbox, origin: string): Partial<PaymentHandlerOptions> {
  if (provider !== 'esewa-intent') return { providers: [benchAdapter(provider, sandbox, origin)] };
  return { serviceUrl: sandbox.baseUrl, productCode: BENCH_PRODUCT_CODE, accessKey: BENCH_ACCESS_KEY, callbackUrl: `${origin}${PAY_PATH}callback` };
}

/**
 * Starts the sandbox and the handler. `origin` is the merchant server's own origin (for the callback
 * and redirect URLs the service is given; no payment completes during a benchmark).
 */
export async function startMerchant(origin: string, options: MerchantOptions = {}): Promise<Merchant> {
  const sandbox = options.sandbox ?? (await startSandbox({ accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE }));
  const provider = options.provider ?? 'esewa-intent';
  const errors: unknown[] = [];
  const handler = createPaymentHandler({
    ...providerOptions(provider, sandbox, origin),
    store: options.store ?? createMemoryStore(),
    redirectUrl: `${origin}/`,
    lookupOrder: (order) => ({ id: String(order.id), amount: BENCH_AMOUNT, properties: { order_id: String(order.id) } }),
    onPaymentResult: () => undefined,
    onError: (error) => errors.push(error),
  });
  const close = options.sandbox ? async () => {} : () => sandbox.close();
  return { sandbox, listener: toNodeListener(handler), provider, book: BOOK_BODIES[provider], adapter: benchAdapter(provider, sandbox, origin), errors, close };
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
