/**
 * Seeded chaos: timeouts, errors and latency decided by a seed, per request kind and per booking, so
 * the same seed gives the same faults to the same bookings whatever else runs beside them (Juspay's
 * dummy gateway times out 16 % of answers; theirs is not repeatable). Each decision is a pure function
 * of (seed, kind, subject, n): the kind of request (`book`, `status`, `epay status`, `callback`, ...),
 * its subject (the merchant's own id: `transaction_uuid`, `purchase_order_id`, never a random id the
 * sandbox made) and n, the how-many-th request of that kind for that subject. Each fault is logged.
 */
import type { IncomingMessage } from 'node:http';
import { parseDuration } from './clock.js';

/** What `--chaos` sets. */
export interface ChaosOptions {
  /** Share of draws that time out (0 to 1). */
  timeouts?: number;
  /** Share of draws that fail (0 to 1). */
  errors?: number;
  /** Up to this much added delay per draw (uniform), in milliseconds. */
  latencyMs?: number;
  /** How long a timed-out request is held before its connection is dropped; default 10 s. */
  holdMs?: number;
  /** The seed; default 1. */
  seed?: number;
}

/** Parses `timeouts=0.16,errors=0.05,latency=200ms,hold=10s`. */
export function parseChaos(text: string): ChaosOptions {
  const options: ChaosOptions = {};
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key = '', value = ''] = part.split('=', 2).map((p) => p.trim());
    if (key === 'timeouts' || key === 'errors') {
      const share = Number(value);
      if (value === '' || !Number.isFinite(share) || share < 0 || share > 1) throw new RangeError(`chaos ${key} must be a share from 0 to 1; got "${value}".`);
      options[key] = share;
    } else if (key === 'latency' || key === 'hold') {
      options[key === 'latency' ? 'latencyMs' : 'holdMs'] = parseDuration(value);
    } else {
      throw new RangeError(`chaos knows timeouts, errors, latency and hold; got "${part}".`);
    }
  }
  if ((options.timeouts ?? 0) + (options.errors ?? 0) > 1) throw new RangeError('chaos timeouts and errors add up to more than 1.');
  return options;
}

/** The faults a request can be given by hand (`Wallet-Pay-Fault`), whatever the chaos settings. */
export const FAULTS = ['timeout', 'error', 'slow'] as const;
/** One of {@link FAULTS}. */
export type Fault = (typeof FAULTS)[number];
/** How long a `slow` request is held before it is answered (as scenario WPS-013's answers). */
export const SLOW_MS = 3000;
/** How long a timed-out request is held before its connection is dropped, by default. */
export const DEFAULT_HOLD_MS = 10_000;

/** What a draw is about: the kind of request and whose it is. */
export interface ChaosKey {
  /** `book`, `status`, `wallet page`, `epay status`, `khalti lookup`, `callback`, ... */
  kind: string;
  /** The merchant's id of the booking or transaction; empty when the request names none. */
  subject?: string;
}

/** Finds a request's {@link ChaosKey} from its method, path and body (the body is read first). */
export type ChaosKeyOf = (req: IncomingMessage, path: string, body: string) => ChaosKey | undefined;

/** What one draw decided. */
export interface ChaosDraw {
  /** Draw number in this sandbox, from 1 (for the log; the decision does not depend on it). */
  n: number;
  /** The how-many-th draw of this kind and subject, from 1. */
  nth: number;
  kind: string;
  subject: string;
  fault: 'timeout' | 'error' | undefined;
  latencyMs: number;
}

/** mulberry32: small, fast, and the same sequence on every platform for a seed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over UTF-16 code units: a 32-bit seed for one decision's generator. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

// Counters kept per kind and subject; past this many the oldest are forgotten (memory stays bounded).
const MAX_COUNTERS = 50_000;

/** The chaos source of one sandbox. */
export class Chaos {
  private count = 0;
  private readonly counters = new Map<string, number>();
  readonly holdMs: number;

  constructor(
    private readonly options: ChaosOptions,
    private readonly log: (line: string) => void,
  ) {
    this.holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
  }

  /** A one-line description, for the start banner. */
  describe(): string {
    const { timeouts = 0, errors = 0, latencyMs = 0, seed = 1 } = this.options;
    return `timeouts=${timeouts},errors=${errors},latency=${latencyMs}ms,hold=${this.holdMs}ms seed ${seed}`;
  }

  /**
   * Draws for one request or attempt. `target` names it in the log; `key` says what it is about
   * (without one, the target text is its kind).
   */
  draw(target: string, key?: ChaosKey): ChaosDraw {
    const n = ++this.count;
    const { kind, subject } = this.keyOf(target, key);
    const nth = this.next(kind, subject);
    const seed = this.options.seed ?? 1;
    const random = generator(hash(`${seed}\u0000${kind}\u0000${subject}\u0000${nth}`));
    const roll = random();
    const spread = random();
    const { timeouts = 0, errors = 0, latencyMs = 0 } = this.options;
    const fault = roll < timeouts ? 'timeout' : roll < timeouts + errors ? 'error' : undefined;
    if (fault) this.log(`chaos #${n} (seed ${seed}) ${target}: ${fault} (${kind}${subject ? ` ${subject}` : ''}, its #${nth})`);
    return { n, nth, kind, subject, fault, latencyMs: Math.floor(spread * latencyMs) };
  }

  private keyOf(target: string, key: ChaosKey | undefined): { kind: string; subject: string } {
    return key ? { kind: key.kind, subject: key.subject ?? '' } : { kind: target, subject: '' };
  }

  private next(kind: string, subject: string): number {
    const id = `${kind}\u0000${subject}`;
    const nth = (this.counters.get(id) ?? 0) + 1;
    this.counters.delete(id);
    this.counters.set(id, nth);
    if (this.counters.size > MAX_COUNTERS) this.counters.delete(this.counters.keys().next().value!);
    return nth;
  }
}

/** The fault of one request, and how answers and the log name it (`chaos #12`, `Wallet-Pay-Fault`). */
export interface FaultDecision {
  fault: Fault | undefined;
  latencyMs: number;
  label: string;
}

/**
 * A request's fault: the `Wallet-Pay-Fault` header's when it has one, else chaos's draw; `{ unknown }`
 * for a header value that is none of {@link FAULTS}. Chaos draws even when the header decides, so the
 * header on one request never shifts the faults of later requests of the same booking.
 */
export async function decideFault(input: {
  chaos?: Chaos;
  header: string | string[] | undefined;
  /** Names the request in the log. */
  target: string;
  /** What the request is about; called only when chaos draws. */
  key: () => Promise<ChaosKey | undefined>;
  log: (line: string) => void;
}): Promise<FaultDecision | { unknown: string }> {
  const asked = faultOfHeader(input.header);
  if (asked && 'unknown' in asked) return asked;
  let decision: FaultDecision = { fault: undefined, latencyMs: 0, label: '' };
  if (input.chaos) {
    const draw = input.chaos.draw(input.target, await input.key());
    decision = { fault: draw.fault, latencyMs: draw.latencyMs, label: `chaos #${draw.n}` };
  }
  if (!asked) return decision;
  input.log(`Wallet-Pay-Fault ${input.target}: ${asked.fault}`);
  return { fault: asked.fault, latencyMs: asked.fault === 'slow' ? SLOW_MS : 0, label: 'Wallet-Pay-Fault' };
}

/**
 * Reads a whole request body so chaos can name what the request is about, then hands the same bytes
 * to the handler after it (whose own limits apply as always). The text is empty past `maxBytes`;
 * past `dropBytes` the connection is dropped.
 */
export async function bufferBody(req: IncomingMessage, maxBytes: number, dropBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > dropBytes) {
      req.destroy();
      break;
    }
    chunks.push(chunk);
  }
  Object.defineProperty(req, Symbol.asyncIterator, {
    configurable: true,
    value: async function* replay() {
      yield* chunks;
    },
  });
  return size > maxBytes ? '' : Buffer.concat(chunks).toString('utf8');
}

/**
 * The `Wallet-Pay-Fault` header's fault: undefined when absent, `{ unknown }` for a value that is
 * none of {@link FAULTS}.
 */
export function faultOfHeader(value: string | string[] | undefined): { fault: Fault } | { unknown: string } | undefined {
  if (value === undefined) return undefined;
  const text = (Array.isArray(value) ? value.join(', ') : value).trim().toLowerCase();
  return (FAULTS as readonly string[]).includes(text) ? { fault: text as Fault } : { unknown: text };
}

/** Waits `ms` real milliseconds (chaos latency is real: it is what the merchant's timeouts see). */
export function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
