/**
 * Server figures: signatures per second and, for each provider the kit books through (eSewa's intent
 * service, eSewa ePay v2, Khalti), the merchant handler's added latency over the provider call the
 * handler makes (the same adapter called directly: a signed book at the intent service, an initiate
 * at Khalti, only signing at ePay v2, which a booking does not call) and bookings per second through
 * handler and sandbox under 50 concurrent clients. Everything listens on 127.0.0.1; every loop has a
 * fixed number of iterations, so it ends by itself.
 */
import { createSignature, SIGNED_FIELDS } from '../src/protocol/signature.js';
import { startSandbox } from '../src/sandbox/index.js';
import { listen } from '../test/node/server/helpers.js';
import {
  BENCH_ACCESS_KEY,
  BENCH_AMOUNT,
  BENCH_PRODUCT_CODE,
  BENCH_PROVIDERS,
  PAY_PATH,
  startMerchant,
  withPayRoutes,
  type BenchProvider,
  type Merchant,
} from './merchant.js';
import { repeat, summarize, type Summary } from './stats.js';

/** How much work each measure does; the defaults keep the server part near a minute per provider on 2 cores. */
export interface ServerBenchOptions {
  signaturesPerRound: number;
  latencyPairsPerRound: number;
  concurrentClients: number;
  bookingsPerClient: number;
  warmupRounds: number;
  rounds: number;
  throughputRounds: number;
}

export const SERVER_DEFAULTS: ServerBenchOptions = {
  signaturesPerRound: 2000,
  latencyPairsPerRound: 400,
  concurrentClients: 50,
  bookingsPerClient: 30,
  warmupRounds: 1,
  rounds: 5,
  throughputRounds: 3,
};

/** One provider's figures, with the memory store. */
export interface ProviderServerResults {
  provider: BenchProvider;
  /** Per round: p50 (and p99) of handler latency minus p50 (p99) of the direct provider call, in ms. */
  addedP50Ms: Summary;
  addedP99Ms: Summary;
  directP50Ms: Summary;
  handlerP50Ms: Summary;
  bookingsPerSecond: Summary;
  /** Failed bookings over every throughput round (warm-up included): a healthy run has 0. */
  bookingErrors: number;
  bookingsAttempted: number;
}

/** The server figures. */
export interface ServerResults {
  signaturesPerSecond: Summary;
  concurrentClients: number;
  /** A row each, in {@link BENCH_PROVIDERS}' order. */
  providers: ProviderServerResults[];
}

let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

async function signaturesPerSecond(count: number): Promise<number> {
  const values = { product_code: BENCH_PRODUCT_CODE, amount: BENCH_AMOUNT, transaction_uuid: '' };
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    values.transaction_uuid = `tx-${i}`;
    await createSignature(values, SIGNED_FIELDS.book, BENCH_ACCESS_KEY);
  }
  return count / ((performance.now() - start) / 1000);
}

/** What the element sends to `/book` besides the order: the intent service's app channel by default. */
export type BookBody = Merchant['book'];

/** One booking through the merchant handler, as the element makes it; throws unless it is booked. */
export async function bookThroughHandler(kitUrl: string, book: BookBody = { channel: 'app' }): Promise<void> {
  const response = await fetch(`${kitUrl}${PAY_PATH}book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ ...book, order: { id: uniqueId('order') } }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`The handler answered ${response.status}: ${text.slice(0, 200)}`);
}

/** The provider call of the same booking, made by the same adapter without the handler. */
async function bookDirect(merchant: Merchant, kitUrl: string): Promise<void> {
  const orderId = uniqueId('order');
  await merchant.adapter.book({
    amount: BENCH_AMOUNT,
    reference: uniqueId('direct'),
    channel: merchant.book.channel,
    returnUrl: `${kitUrl}/`,
    callbackUrl: `${kitUrl}${PAY_PATH}callback`,
    orderId,
    properties: { order_id: orderId },
  });
}

async function timed(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** Per round: the p50 and p99 of bookings through the handler at `kitUrl` and of the provider call alone. */
export async function measureLatency(
  merchant: Merchant,
  kitUrl: string,
  o: Pick<ServerBenchOptions, 'warmupRounds' | 'rounds' | 'latencyPairsPerRound'>,
): Promise<Array<{ handler: Summary; direct: Summary }>> {
  // Pairs alternate which path goes first, so drift (GC, JIT, a growing store) hits both alike.
  return repeat(o.warmupRounds, o.rounds, async () => {
    const viaHandler: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < o.latencyPairsPerRound; i++) {
      if (i % 2 === 0) {
        viaHandler.push(await timed(() => bookThroughHandler(kitUrl, merchant.book)));
        direct.push(await timed(() => bookDirect(merchant, kitUrl)));
      } else {
        direct.push(await timed(() => bookDirect(merchant, kitUrl)));
        viaHandler.push(await timed(() => bookThroughHandler(kitUrl, merchant.book)));
      }
    }
    return { handler: summarize(viaHandler), direct: summarize(direct) };
  });
}

/** One provider's measures: its handler on a loopback server of its own, in front of `sandbox`. */
async function benchProvider(provider: BenchProvider, sandbox: Merchant['sandbox'], o: ServerBenchOptions): Promise<ProviderServerResults> {
  let merchant: Merchant | undefined;
  const kit = await listen((request, response) => {
    if (!merchant) response.writeHead(503).end();
    else withPayRoutes(merchant, (_req, res) => res.writeHead(404).end())(request, response);
  });
  try {
    merchant = await startMerchant(kit.url, { sandbox, provider });
    const m = merchant;
    const latencyRounds = await measureLatency(m, kit.url, o);

    let bookingErrors = 0;
    let bookingsAttempted = 0;
    const rates = await repeat(o.warmupRounds, o.throughputRounds, async () => {
      const start = performance.now();
      const client = async () => {
        for (let i = 0; i < o.bookingsPerClient; i++) {
          bookingsAttempted++;
          await bookThroughHandler(kit.url, m.book).catch(() => {
            bookingErrors++;
          });
        }
      };
      await Promise.all(Array.from({ length: o.concurrentClients }, client));
      return (o.concurrentClients * o.bookingsPerClient) / ((performance.now() - start) / 1000);
    });

    return {
      provider,
      addedP50Ms: summarize(latencyRounds.map((r) => r.handler.median - r.direct.median)),
      addedP99Ms: summarize(latencyRounds.map((r) => r.handler.p99 - r.direct.p99)),
      directP50Ms: summarize(latencyRounds.map((r) => r.direct.median)),
      handlerP50Ms: summarize(latencyRounds.map((r) => r.handler.median)),
      bookingsPerSecond: summarize(rates),
      bookingErrors: bookingErrors + m.errors.length,
      bookingsAttempted,
    };
  } finally {
    await merchant?.close();
    await kit.close();
  }
}

/** Runs the server measures: signatures, then each provider in turn against one sandbox that plays all three. */
export async function benchServer(options: ServerBenchOptions = SERVER_DEFAULTS, providers: readonly BenchProvider[] = BENCH_PROVIDERS): Promise<ServerResults> {
  const o = options;
  const sigRates = await repeat(o.warmupRounds, o.rounds, () => signaturesPerSecond(o.signaturesPerRound));
  const sandbox = await startSandbox({ accessKey: BENCH_ACCESS_KEY, productCode: BENCH_PRODUCT_CODE });
  try {
    const rows: ProviderServerResults[] = [];
    for (const provider of providers) rows.push(await benchProvider(provider, sandbox, o));
    return { signaturesPerSecond: summarize(sigRates), concurrentClients: o.concurrentClients, providers: rows };
  } finally {
    await sandbox.close();
  }
}
