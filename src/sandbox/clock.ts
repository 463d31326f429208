/**
 * The sandbox's steerable clock: real time plus an offset that a tester moves forward (or sets), and
 * a scheduler of tasks due at a time on that clock. Expiry, the scenarios' later transitions and the
 * callback retries are scheduled here, so moving the clock runs what falls due, in the order of
 * their times, before the move returns (Stripe's test clocks advance asynchronously; this one does not).
 */

/** A duration such as `15m`, `90s`, `2h`, `1d`, `250ms`, or a bare number of milliseconds. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) throw new RangeError(`"${text}" is not a duration: write a number and a unit, e.g. 15m, 90s, 2h, 1d or 250ms.`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(match[2] ?? 'ms') as 'ms'];
  return Math.round(Number(match[1]) * unit);
}

interface Task {
  at: number;
  seq: number;
  run: () => unknown;
}

/** A handle to cancel a scheduled task. */
export interface Scheduled {
  cancel(): void;
}

/** The clock and its scheduler. */
export class SandboxClock {
  private offset = 0;
  private seq = 0;
  private readonly tasks = new Set<Task>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private moving: Promise<void> = Promise.resolve();
  private stopped = false;
  /**
   * Awaited before the clock moves and after each task it runs: work that schedules tasks
   * asynchronously (a callback is signed before it is scheduled) lands on the clock first.
   */
  settle: () => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly base: () => number,
    offsetMs = 0,
  ) {
    this.offset = offsetMs;
  }

  /** Epoch milliseconds on the sandbox's clock. */
  now(): number {
    return this.base() + this.offset;
  }

  /** How far the clock is ahead of its base (real time, or the injected `now`). */
  offsetMs(): number {
    return this.offset;
  }

  /** Runs `run` when the clock reaches `at` (at once, on the next turn, when `at` has passed). */
  at(at: number, run: () => unknown): Scheduled {
    const task: Task = { at, seq: this.seq++, run };
    if (this.stopped) return { cancel: () => undefined };
    this.tasks.add(task);
    this.arm();
    return { cancel: () => this.tasks.delete(task) };
  }

  /** Runs `run` after `delayMs` on the sandbox's clock. */
  after(delayMs: number, run: () => unknown): Scheduled {
    return this.at(this.now() + delayMs, run);
  }

  /** Tasks not yet run. */
  pending(): number {
    return this.tasks.size;
  }

  /**
   * Moves the clock forward by `ms`: every task due on the way runs at its own time, in order, each
   * awaited (a callback attempt's answer included), before the clock settles at the target.
   */
  advance(ms: number): Promise<number> {
    if (!Number.isFinite(ms) || ms < 0) return Promise.reject(new RangeError(`The clock moves forward only; got ${ms} ms.`));
    return this.serialize(() => this.runUntil(this.now() + ms));
  }

  /** Sets the clock to `at` (epoch milliseconds); a time in the past is refused, since bookings already hold later times. */
  set(at: number): Promise<number> {
    if (!Number.isFinite(at)) return Promise.reject(new RangeError('The clock needs a valid time.'));
    return this.serialize(async () => {
      if (at < this.now()) throw new RangeError(`The clock moves forward only: ${new Date(at).toISOString()} is before ${new Date(this.now()).toISOString()}.`);
      return this.runUntil(at);
    });
  }

  /** Drops every task and stops the timer. */
  stop(): void {
    this.stopped = true;
    this.tasks.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private serialize(move: () => Promise<number>): Promise<number> {
    const result = this.moving.then(move);
    this.moving = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async runUntil(target: number): Promise<number> {
    for (;;) {
      await this.settle();
      const next = this.nextDue(target);
      if (!next) break;
      this.tasks.delete(next);
      if (next.at > this.now()) this.offset += next.at - this.now();
      await this.runTask(next);
    }
    if (target > this.now()) this.offset += target - this.now();
    this.arm();
    return this.now();
  }

  private nextDue(limit: number): Task | undefined {
    let next: Task | undefined;
    for (const task of this.tasks) {
      if (task.at <= limit && (!next || task.at < next.at || (task.at === next.at && task.seq < next.seq))) next = task;
    }
    return next;
  }

  private async runTask(task: Task): Promise<void> {
    try {
      await task.run();
    } catch {
      // A task reports its own failures (the dispatcher logs them); one must not stop the others.
    }
  }

  /** One real timer for the earliest task; when it fires, everything due by then runs. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped || this.tasks.size === 0) return;
    let earliest = Infinity;
    for (const task of this.tasks) earliest = Math.min(earliest, task.at);
    // Capped, so that a clock set far ahead by an injected base is re-read at least once a minute.
    const wait = Math.min(Math.max(0, earliest - this.now()), 60_000);
    this.timer = setTimeout(() => this.fireDue(), wait);
  }

  /**
   * In real time, due tasks start together rather than one after another: one merchant's slow
   * callback endpoint must not hold back every other delivery.
   */
  private fireDue(): void {
    this.timer = undefined;
    for (;;) {
      const next = this.nextDue(this.now());
      if (!next) break;
      this.tasks.delete(next);
      void this.runTask(next);
    }
    this.arm();
  }
}
