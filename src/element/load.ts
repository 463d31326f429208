/**
 * The load of one chunk as a reactive controller in the shape of Lit's `Task` (`@lit/task`): one
 * status, the value or why it failed, a call id so that only the latest call settles it (a stale load
 * never overwrites a newer one), the host asked to update when a load starts and when it settles, and
 * `taskComplete`, the load under way, which a press made meanwhile awaits instead of being lost. The
 * element keeps one per chunk: the payment code and the Nepali texts (per page), its own payment, and
 * the payment's hand-off.
 *
 * Not `@lit/task` itself: it costs about 1 KB gzip, more than the first module's budget has left.
 * Nor does it hook into the host's lifecycle (`addController`): an `import()` cannot be stopped, and a
 * load the host no longer waits for settles nothing that the call id does not already drop.
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
  #call = 0;
  readonly #host?: (ReactiveControllerHost & HTMLElement) | undefined;

  /**
   * `host`: the element that draws this load's state (asked to update when a load starts and when it
   * settles), and on which a missing file is reported (a console warning and an error event).
   */
  constructor(host?: ReactiveControllerHost & HTMLElement) {
    this.#host = host;
  }

  /**
   * The load under way or done ({@link taskComplete}); a new call when there is none yet, the last one
   * failed, or `again` (a call still under way then settles nothing any more).
   */
  ask(load: () => Promise<T>, again?: boolean): Promise<T> {
    if (again || !this.taskComplete || this.status === 'error') {
      const call = ++this.#call;
      // Only the latest call settles the state, and only a change of it asks the host to draw again.
      const settle = (status: LoadStatus) => call === this.#call && ((this.status = status), this.#host?.requestUpdate(), true);
      settle('pending');
      this.taskComplete = load().then(
        (value) => {
          if (settle('complete')) this.value = value;
          return value;
        },
        (error: unknown) => {
          if (settle('error')) {
            this.failure = error instanceof ChunkError ? error.failure : 'network';
            if (this.failure === 'missing' && this.#host) reportMissing(this.#host, error as ChunkError);
          }
          throw error;
        },
      );
    }
    return this.taskComplete;
  }
}
