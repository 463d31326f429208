/** A hand-written fake clock: timers run only when the test advances time. */
import type { Clock } from '../../src/core/clock.js';

interface Task {
  id: number;
  at: number;
  callback: () => void;
}

/**
 * Waits one task turn: every promise callback already queued, and every one those queue in turn, has
 * run by then (the microtask queue is drained before the next task), however long the chain.
 */
export function flush(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** A {@link Clock} whose time only moves in {@link FakeClock.advance}. */
export class FakeClock implements Clock {
  private time: number;
  private tasks: Task[] = [];
  private nextId = 1;

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const task = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.tasks.push(task);
    return task.id;
  }

  clearTimeout(handle: unknown): void {
    this.tasks = this.tasks.filter((task) => task.id !== handle);
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.tasks.length;
  }

  /** Delay until the next timer, or `null`. */
  nextDelay(): number | null {
    if (this.tasks.length === 0) return null;
    return Math.min(...this.tasks.map((task) => task.at)) - this.time;
  }

  /** Moves time forward, running every timer that falls due (and the promises they start), in order. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await flush();
      const due = this.tasks.filter((task) => task.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.tasks = this.tasks.filter((task) => task !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = end;
    await flush();
  }
}
