/**
 * One action of the payment flow at a time. Every action (a press, a status check, a cancel) starts
 * a run; starting the next one aborts the previous run's requests and drops its late answers and its
 * timer. Kept apart from the machine (`machine.ts`) because this bookkeeping knows nothing of payments: the flow asks
 * it whether a run is still the live one before it acts on an answer.
 */
import type { FlowDeps } from './deps.js';

/** One action of the flow: a newer one makes it stale, and aborting its signal stops its requests. */
export interface Run {
  gen: number;
  signal: AbortSignal;
}

/** The runs of one flow, with the one timer the live run may hold. */
export class FlowRuns {
  /** Bumped by every new action, so a late answer of an abandoned one is dropped. */
  #gen = 0;
  #controller = new AbortController();
  #timer: unknown = null;
  /** The flow's injected dependencies; the clock is read from them at each use. */
  readonly #deps: Pick<FlowDeps, 'clock'>;

  constructor(deps: Pick<FlowDeps, 'clock'>) {
    this.#deps = deps;
  }

  /** Starts a new run: the previous one's requests are aborted, its answers and timer dropped. */
  next(): Run {
    this.#clearTimer();
    this.#controller.abort();
    this.#controller = new AbortController();
    return { gen: ++this.#gen, signal: this.#controller.signal };
  }

  /** True while no newer run started. */
  live(run: Run): boolean {
    return run.gen === this.#gen;
  }

  /** Runs `then` after `ms` unless a newer run started meanwhile. */
  later(run: Run, ms: number, then: () => void): void {
    this.#timer = this.#deps.clock.setTimeout(() => {
      this.#timer = null;
      if (this.live(run)) then();
    }, ms);
  }

  #clearTimer(): void {
    if (this.#timer !== null) this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
