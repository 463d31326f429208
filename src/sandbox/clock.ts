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

/**
 * The latest time the clock reaches: 9999-12-31T23:59:59.999Z, the last one written with four year
 * digits. A JavaScript Date ends at year 275760, and every answer and record the sandbox writes turns
 * the clock into a Date, so a move past this is refused rather than left to fail each later call.
 */
export const CLOCK_LIMIT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const LIMIT_TEXT = new Date(CLOCK_LIMIT_MS).toISOString();
const DAY_MS = 86_400_000;

/**
 * A move the clock refuses because it would leave its range; the message names the limit and a move
 * that fits. `/sandbox/clock` answers it HTTP 400 (`IP-421`): no later call makes it fit.
 */
export class ClockRangeError extends RangeError {
  override name = 'ClockRangeError';
}

/** Whole days (or minutes, below a day) of a duration, for the refusals. */
function durationText(ms: number): string {
  if (!Number.isFinite(ms)) return 'an endless time';
  return ms >= DAY_MS ? `${Math.floor(ms / DAY_MS)}d` : `${Math.max(0, Math.floor(ms / 60_000))}m`;
}

/** A time as ISO text, or as milliseconds when no Date holds it. */
function timeText(ms: number): string {
  return Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : `${ms} ms`;
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

  /**
   * `offsetMs` is where an earlier run left the clock (the state file's `clockOffsetMs`). One that puts
   * the clock out of its range (written before moves were bounded) throws a `ClockRangeError` naming the
   * fix, rather than making every later answer that shows the time fail.
   */
  constructor(
    private readonly base: () => number,
    offsetMs = 0,
  ) {
    const at = base() + offsetMs;
    if (!Number.isFinite(offsetMs) || !Number.isFinite(at) || Math.abs(at) > CLOCK_LIMIT_MS) {
      throw new ClockRangeError(
        `The saved clock is out of range: an offset of ${String(offsetMs)} ms puts it past ${LIMIT_TEXT}, the latest it reaches. ` +
          'Remove "clockOffsetMs" from the state file (sandbox.json in the --data folder) to restart the clock at real time, or start with a new --data folder.',
      );
    }
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
    if (Number.isNaN(ms) || ms < 0) return Promise.reject(new RangeError(`The clock moves forward only; got ${ms} ms.`));
    return this.serialize(async () => {
      const from = this.now();
      if (!(from + ms <= CLOCK_LIMIT_MS)) {
        throw new ClockRangeError(
          `The clock reaches no later than ${LIMIT_TEXT}: advancing ${durationText(ms)} from ${timeText(from)} would pass it. ` +
            (CLOCK_LIMIT_MS - from >= 15 * 60_000 ? `Advance by at most ${durationText(CLOCK_LIMIT_MS - from)}, e.g. 15m.` : 'The clock is at its limit; no move forward fits.'),
        );
      }
      return this.runUntil(from + ms);
    });
  }

  /**
   * Sets the clock to `at` (epoch milliseconds); a time in the past is refused, since bookings already
   * hold later times, and so is one past {@link CLOCK_LIMIT_MS}.
   */
  set(at: number): Promise<number> {
    if (Number.isNaN(at)) return Promise.reject(new RangeError('The clock needs a valid time.'));
    return this.serialize(async () => {
      if (!(at <= CLOCK_LIMIT_MS)) {
        const example = new Date(Math.min(this.now() + 365 * DAY_MS, CLOCK_LIMIT_MS)).toISOString();
        throw new ClockRangeError(`The clock reaches no later than ${LIMIT_TEXT}; set a time up to it, e.g. ${example}.`);
      }
      if (at < this.now()) throw new RangeError(`The clock moves forward only: ${timeText(at)} is before ${timeText(this.now())}.`);
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
