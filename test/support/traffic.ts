/**
 * The one shopper-traffic generator of the tests: shoppers that run rounds (book, pay, ask) side by
 * side, with a pause between rounds, until stopped or until a deadline; `withTraffic` runs a fault
 * inside such traffic, and `bookPayAndAsk` is the round the process tests' shoppers play.
 */
import type { Answer } from './handler-processes.js';

/** How the shoppers shop. */
export interface TrafficOptions {
  /** How many shoppers run at once. */
  shoppers: number;
  /** One round of one shopper; `round` counts every shopper's rounds, so it is unique in the run. */
  round(index: number, round: number): Promise<void>;
  /** A shopper's pause between rounds; default 50 ms: traffic all along, without the cores spent on it alone. */
  pauseMs?: number;
  /** When given (a `Date.now()` time), the shoppers stop by themselves once it passes. */
  until?: number;
  /** When given, each shopper stops after this many rounds. */
  maxRounds?: number;
}

/** Traffic under way. */
export interface Traffic {
  /** Rounds started so far, by every shopper. */
  readonly rounds: number;
  /** Every shopper ends after its current round; rejects with the first round's error, if one threw. */
  stop(): Promise<void>;
  /** Resolves when every shopper has ended by itself (`until` or `maxRounds`); rejects as `stop` does. */
  done(): Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `options.shoppers` shoppers. A round that throws ends its shopper, and `stop()`/`done()`
 * reject with that error once the others have ended, so a broken round fails the test instead of
 * thinning the traffic unseen.
 */
export function startTraffic(options: TrafficOptions): Traffic {
  if (!(Number.isInteger(options.shoppers) && options.shoppers > 0)) throw new TypeError(`shoppers must be a whole number above 0; got ${options.shoppers}`);
  let running = true;
  let rounds = 0;
  const goesOn = (mine: number) => running && (options.until === undefined || Date.now() < options.until) && (options.maxRounds === undefined || mine < options.maxRounds);
  const loops = Array.from({ length: options.shoppers }, async (_, index) => {
    for (let mine = 0; goesOn(mine); mine++) {
      await options.round(index, rounds++);
      if (goesOn(mine + 1)) await pause(options.pauseMs ?? 50);
    }
  });
  // Settled at once, so a round's error waits for stop() instead of being an unhandled rejection.
  const settled = Promise.allSettled(loops);
  const ended = async () => {
    const failed = (await settled).find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  return {
    get rounds() {
      return rounds;
    },
    stop() {
      running = false;
      return ended();
    },
    done: ended,
  };
}

/** Timing of {@link withTraffic}. */
export interface FaultTiming {
  /** Traffic before the fault starts; default 500 ms. */
  leadMs?: number;
  /** Traffic after the fault ends, which shows the processes recovered; default 1.5 s. */
  tailMs?: number;
}

/**
 * Shoppers shop while `fault` runs, from `leadMs` before it to `tailMs` after it; the traffic is
 * stopped even when the fault throws (its error wins over a round's).
 */
export async function withTraffic(fault: () => Promise<void>, options: TrafficOptions & FaultTiming): Promise<void> {
  const traffic = startTraffic(options);
  let faultError: { error: unknown } | undefined;
  try {
    await pause(options.leadMs ?? 500);
    await fault();
  } catch (error) {
    faultError = { error };
  }
  await pause(options.tailMs ?? 1_500);
  const stopped = traffic.stop();
  if (!faultError) return stopped;
  await stopped.catch(() => undefined);
  throw faultError.error;
}

/** What {@link bookPayAndAsk} needs of the test: its processes and how it asks them. */
export interface ShopperParts<W> {
  /** The handler processes; read at each request, so a test may replace one while traffic runs. */
  workers: readonly W[];
  /** Asks one process (the test records the answer as it likes). */
  post(worker: W, route: 'book' | 'status', body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Pays a booking at the service, as the shopper's wallet would. */
  pay(deeplink: string): Promise<void>;
  /** Told of each booking answered (200), with the key it was booked with. */
  onBooked?(key: string, answer: Answer): void;
  /** Tries of a book, and of a status, before the shopper gives the order up; default 20. */
  tries?: number;
  /** Pause between two tries; default 100 ms. */
  retryMs?: number;
}

/**
 * A round of one shopper: books a fresh order (a failure retried with the same key, on the next
 * process), pays it when `index` is even, then asks its status (on each process in turn) until answered.
 */
export function bookPayAndAsk<W>(parts: ShopperParts<W>): (index: number, round: number) => Promise<void> {
  const tries = parts.tries ?? 20;
  const retryMs = parts.retryMs ?? 100;
  const at = (n: number): W => {
    if (parts.workers.length === 0) throw new Error('the shoppers have no process to ask');
    return parts.workers[n % parts.workers.length]!;
  };
  return async (index, round) => {
    const key = `shop-${round}-${index}-${crypto.randomUUID()}`;
    const order = { id: `F-${round}-${index}-${crypto.randomUUID()}` };
    let booked: Answer | undefined;
    for (let attempt = 0; attempt < tries && !booked; attempt++) {
      const answer = await parts.post(at(index + attempt), 'book', { channel: 'app', order }, { 'idempotency-key': key });
      if (answer.status === 200) booked = answer;
      else await pause(retryMs);
    }
    if (!booked) return;
    parts.onBooked?.(key, booked);
    if (index % 2 === 0) await parts.pay(booked.data!.deeplink!);
    const { booking_id, correlation_id } = booked.data!;
    for (let attempt = 0; attempt < tries; attempt++) {
      const answer = await parts.post(at(attempt), 'status', { booking_id, correlation_id });
      if (answer.status === 200) return;
      await pause(retryMs);
    }
  };
}
