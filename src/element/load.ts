/**
 * The state of one chunk's load, as Lit's `Task` keeps a task's: a status, the value or why it failed,
 * and a call id, so that only the latest call settles it (a stale load never overwrites a newer one).
 * The element keeps one per chunk: the payment code and the Nepali texts (per page), its own payment,
 * and the payment's hand-off.
 */
import { ChunkError, reportMissing, type ChunkFailure } from './chunk.js';

/** `initial`: never asked; `pending`: under way; `complete`: `value` is in; `error`: `failure` says why. */
type LoadStatus = 'initial' | 'pending' | 'complete' | 'error';

/** One chunk's load and its state. */
export class Load<T> {
  status: LoadStatus = 'initial';
  value?: T;
  failure?: ChunkFailure;
  #call = 0;
  #last?: Promise<T>;

  /** `host`: the element a missing file is reported on (a console warning and an error event). */
  constructor(readonly host?: HTMLElement) {}

  /**
   * The load under way or done; a new call when there is none yet, the last one failed, or `again`
   * (a call still under way then settles nothing any more).
   */
  ask(load: () => Promise<T>, again = false): Promise<T> {
    if (again || !this.#last || this.status === 'error') {
      const call = ++this.#call;
      this.status = 'pending';
      this.#last = load().then(
        (value) => {
          if (call === this.#call) {
            this.status = 'complete';
            this.value = value;
          }
          return value;
        },
        (error: unknown) => {
          if (call === this.#call) {
            this.status = 'error';
            this.failure = error instanceof ChunkError ? error.failure : 'network';
            if (this.failure === 'missing' && this.host) reportMissing(this.host, error as ChunkError);
          }
          throw error;
        },
      );
    }
    return this.#last;
  }
}
