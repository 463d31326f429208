/**
 * Seeded chaos: timeouts, errors and latency drawn from a seeded generator, so the same seed gives
 * the same faults in the same order (Juspay's dummy gateway times out 16 % of answers; theirs is not
 * repeatable). One draw per API request, page request and callback attempt, each logged with its number.
 */
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

/** What one draw decided. */
export interface ChaosDraw {
  /** Draw number, from 1. */
  n: number;
  fault: 'timeout' | 'error' | undefined;
  latencyMs: number;
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

/** The chaos source of one sandbox. */
export class Chaos {
  private readonly random: () => number;
  private count = 0;
  readonly holdMs: number;

  constructor(
    private readonly options: ChaosOptions,
    private readonly log: (line: string) => void,
  ) {
    this.random = generator(options.seed ?? 1);
    this.holdMs = options.holdMs ?? 10_000;
  }

  /** A one-line description, for the start banner. */
  describe(): string {
    const { timeouts = 0, errors = 0, latencyMs = 0, seed = 1 } = this.options;
    return `timeouts=${timeouts},errors=${errors},latency=${latencyMs}ms,hold=${this.holdMs}ms seed ${seed}`;
  }

  /** Draws for one request or attempt; a fault is logged with its number and what it hit. */
  draw(target: string): ChaosDraw {
    const n = ++this.count;
    // Two numbers per draw, always, so one draw's outcome never shifts the next draw's.
    const roll = this.random();
    const spread = this.random();
    const { timeouts = 0, errors = 0, latencyMs = 0 } = this.options;
    const fault = roll < timeouts ? 'timeout' : roll < timeouts + errors ? 'error' : undefined;
    const latency = Math.floor(spread * latencyMs);
    if (fault) this.log(`chaos #${n} (seed ${this.options.seed ?? 1}) ${target}: ${fault}`);
    return { n, fault, latencyMs: latency };
  }
}

/** Waits `ms` real milliseconds (chaos latency is real: it is what the merchant's timeouts see). */
export function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
