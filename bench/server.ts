/**
 * Server figures: signatures per second, the merchant handler's added latency over calling the
 * sandbox directly, and bookings per second through handler and sandbox under 50 concurrent clients.
 * Everything listens on 127.0.0.1; every loop has a fixed number of iterations, so it ends by itself.
 */
import { createSignature, SIGNED_FIELDS } from '../src/server/index.js';
import { listen } from '../test/node/server/helpers.js';
import { BENCH_ACCESS_KEY, BENCH_AMOUNT, BENCH_PRODUCT_CODE, PAY_PATH, startMerchant, withPayRoutes, type Merchant } from './merchant.js';
import { repeat, summarize, type Summary } from './stats.js';

/** How much work each measure does; the defaults keep the server part under a minute on 2 cores. */
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

/** The server figures. */
export interface ServerResults {
  signaturesPerSecond: Summary;
  /** Per round: p50 (and p99) of handler latency minus p50 (p99) of direct latency, in ms. */
  addedP50Ms: Summary;
  addedP99Ms: Summary;
  directP50Ms: Summary;
  handlerP50Ms: Summary;
  bookingsPerSecond: Summary;
  /** Failed bookings over every throughput round (warm-up included): a healthy run has 0. */
  bookingErrors: number;
  bookingsAttempted: number;
  concurrentClients: number;
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

/** One booking through the merchant handler, as the element makes it; throws unless it is booked. */
export async function bookThroughHandler(kitUrl: string): Promise<void> {
  const response = await fetch(`${kitUrl}${PAY_PATH}book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ channel: 'app', order: { id: uniqueId('order') } }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`The handler answered ${response.status}: ${text.slice(0, 200)}`);
}

/** The same booking made straight against the sandbox with the kit's own service client. */
async function bookDirect(merchant: Merchant, kitUrl: string): Promise<void> {
  await merchant.direct.book({
    amount: BENCH_AMOUNT,
    transaction_uuid: uniqueId('direct'),
    callback_url: `${kitUrl}${PAY_PATH}callback`,
    redirect_url: `${kitUrl}/`,
    properties: { order_id: uniqueId('order') },
  });
}

async function timed(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** Per round: the p50 and p99 of bookings through the handler at `kitUrl` and straight to the sandbox. */
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
        viaHandler.push(await timed(() => bookThroughHandler(kitUrl)));
        direct.push(await timed(() => bookDirect(merchant, kitUrl)));
      } else {
        direct.push(await timed(() => bookDirect(merchant, kitUrl)));
        viaHandler.push(await timed(() => bookThroughHandler(kitUrl)));
      }
    }
    return { handler: summarize(viaHandler), direct: summarize(direct) };
  });
}

/** Runs the server measures against a fresh sandbox and handler. */
export async function benchServer(options: ServerBenchOptions = SERVER_DEFAULTS): Promise<ServerResults> {
  const o = options;
  const sigRates = await repeat(o.warmupRounds, o.rounds, () => signaturesPerSecond(o.signaturesPerRound));

  let merchant: Merchant | undefined;
  const kit = await listen(
    (request, response) => {
      if (!merchant) {
        response.writeHead(503).end();
        return;
      }
      withPayRoutes(merchant, (_req, res) => res.writeHead(404).end())(request, response);
    },
  );
  try {
    merchant = await startMerchant(kit.url);
    const m = merchant;
    const latencyRounds = await measureLatency(m, kit.url, o);

    let bookingErrors = 0;
    let bookingsAttempted = 0;
    const rates = await repeat(o.warmupRounds, o.throughputRounds, async () => {
      const start = performance.now();
      const client = async () => {
        for (let i = 0; i < o.bookingsPerClient; i++) {
          bookingsAttempted++;
          await bookThroughHandler(kit.url).catch(() => {
            bookingErrors++;
          });
        }
      };
      await Promise.all(Array.from({ length: o.concurrentClients }, client));
      return (o.concurrentClients * o.bookingsPerClient) / ((performance.now() - start) / 1000);
    });

    return {
      signaturesPerSecond: summarize(sigRates),
      addedP50Ms: summarize(latencyRounds.map((r) => r.handler.median - r.direct.median)),
      addedP99Ms: summarize(latencyRounds.map((r) => r.handler.p99 - r.direct.p99)),
      directP50Ms: summarize(latencyRounds.map((r) => r.direct.median)),
      handlerP50Ms: summarize(latencyRounds.map((r) => r.handler.median)),
      bookingsPerSecond: summarize(rates),
      bookingErrors: bookingErrors + m.errors.length,
      bookingsAttempted,
      concurrentClients: o.concurrentClients,
    };
  } finally {
    await merchant?.close();
    await kit.close();
  }
}
