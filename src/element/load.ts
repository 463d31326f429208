/**
 * The load of one chunk as a reactive controller in the shape of Lit's `Task` (`@lit/task`): one
 * status, the value or why it failed, the host asked to update when a load starts and when it
 * settles, and `taskComplete`, the load under way, which a press made meanwhile awaits instead of
 * being lost. A new load starts only when none was asked for or the last one failed, so no load is
 * ever stale: `Task`'s call id would guard nothing here. The element keeps one per chunk: the payment
 * code and the Nepali texts (per page), its own payment, and the payment's hand-off and in-app panel.
 *
 * Not `@lit/task` itself: it costs about 1 KB gzip, more than the first module's budget has left.
 * Nor does it hook into the host's lifecycle (`addController`): an `import()` cannot be stopped, and a
 * module that comes after the host left is kept for the page's next ask.
 */
import type { ReactiveControllerHost } from '@lit/reactive-element';
import { ChunkError, reportMissing, type ChunkFailure } from './chunk.js';

/**
 * A load's status, as `@lit/task`'s `TaskStatus`: never asked, under way, `value` in, failed (`failure`
 * says why). The first module writes the values themselves, which the type checks: each
 * `LoadStatus.X` read would cost it bytes that every visitor of a checkout waits for.
 */
export const LoadStatus = { INITIAL: 'initial', PENDING: 'pending', COMPLETE: 'complete', ERROR: 'error' } as const;
/** One of {@link LoadStatus}'s values. */
export type LoadStatus = (typeof LoadStatus)[keyof typeof LoadStatus];

/** One chunk's load and its state. */
export class Load<T> {
  status: LoadStatus = 'initial';
  value?: T;
  failure?: ChunkFailure;
  /**
   * The last load asked for, as `Task.taskComplete`: settles with it (rejects when it failed);
   * `undefined` before the first ask. What was pressed while it is under way awaits it.
   */
  taskComplete?: Promise<T>;
  readonly #host?: (ReactiveControllerHost & HTMLElement) | undefined;

  /**
   * `host`: the element that draws this load's state (asked to update when a load starts and when it
   * settles), and on which a missing file is reported (a console warning and an error event).
   */
  constructor(host?: ReactiveControllerHost & HTMLElement) {
    this.#host = host;
  }

  /** The load under way or done ({@link taskComplete}); a new call when there is none yet, or the last one failed. */
  ask(load: () => Promise<T>): Promise<T> {
    if (!this.taskComplete || this.status === 'error') {
      // Each change of the status asks the host to draw again.
      const settle = (status: LoadStatus) => ((this.status = status), this.#host?.requestUpdate());
      settle('pending');
      this.taskComplete = load().then(
        (value) => {
          this.value = value;
          settle('complete');
          return value;
        },
        (error: unknown) => {
          this.failure = error instanceof ChunkError ? error.failure : 'network';
          settle('error');
          if (this.failure === 'missing' && this.#host) reportMissing(this.#host, error as ChunkError);
          throw error;
        },
      );
    }
    return this.taskComplete;
  }
}
