/**
 * Summaries of repeated measurements. Every figure the benchmark prints is a median with its spread,
 * never a single run, and warm-up runs are thrown away before anything is summarised.
 */

/** The summary of one series of samples. */
export interface Summary {
  /** Number of samples kept (warm-ups excluded). */
  n: number;
  median: number;
  min: number;
  max: number;
  /** First and third quartiles. */
  q1: number;
  q3: number;
  /** 99th percentile (nearest rank); meaningful only for long series. */
  p99: number;
}

/** The `p`-quantile (0..1) of already sorted values, interpolated between neighbours. */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('quantile() of an empty series.');
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile p must be within 0..1; got ${p}.`);
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/** Summarises a series of samples. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new RangeError('summarize() needs at least one sample.');
  if (samples.some((value) => !Number.isFinite(value))) throw new RangeError('summarize() got a sample that is not a finite number.');
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
    // Nearest rank, so a p99 never invents a value between the two slowest samples.
    p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!,
  };
}

/** Runs `measure` `warmup + runs` times in sequence and keeps only the last `runs` results. */
export async function repeat<T>(warmup: number, runs: number, measure: (index: number) => Promise<T> | T): Promise<T[]> {
  if (!Number.isInteger(warmup) || warmup < 0) throw new RangeError(`warmup must be a whole number >= 0; got ${warmup}.`);
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`runs must be a whole number >= 1; got ${runs}.`);
  const kept: T[] = [];
  for (let index = 0; index < warmup + runs; index++) {
    const result = await measure(index);
    if (index >= warmup) kept.push(result);
  }
  return kept;
}

/** One line of the summary table. */
export interface GoalRow {
  measure: string;
  median: string;
  spread: string;
  goal: string;
  /** `met`, `missed`, or empty when the figure has no goal. */
  verdict: '' | 'met' | 'missed';
}
