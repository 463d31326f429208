/** The deadline every call of a database store runs under (shared by the PostgreSQL, MySQL and Redis stores). */
import { StoreUnavailableError } from './store-errors.js';

/**
 * Runs one store call under `limitMs`: past it, or when `classify` names the driver's error "late" or
 * "gone", the call rejects with {@link StoreUnavailableError}; any other error passes unchanged.
 */
export async function withinDeadline<T>(
  call: () => Promise<T>,
  limitMs: number,
  classify: (error: unknown) => StoreUnavailableError | undefined,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError('deadline', `The payment store's database did not answer within ${limitMs} ms.`)),
      limitMs,
    );
  });
  const running = call();
  // Settled after the deadline: nobody awaits it any more, so its failure must not go unhandled.
  running.catch(() => {});
  try {
    return await Promise.race([running, late]);
  } catch (error) {
    throw (error instanceof StoreUnavailableError ? error : classify(error)) ?? error;
  } finally {
    clearTimeout(timer);
  }
}

/** Checks a `deadlineMs` option. */
export function checkDeadline(deadlineMs: number): number {
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0) throw new TypeError('deadlineMs must be a positive number of milliseconds.');
  return deadlineMs;
}

/** How often a statement the database ended as a deadlock's victim is tried before it is an outage. */
const DEADLOCK_TRIES = 5;

/**
 * Runs `call`, trying it again when `isDeadlock` names its error: a deadlock's victim is rolled back
 * whole (each of the stores' statements is its own transaction), so it is tried after a short wait
 * with jitter, and the statements of one moment (reconcile's workers claiming at once) stop meeting.
 * Past the tries it is an outage ({@link StoreUnavailableError}, IP-503), never a raw driver error.
 */
export async function retryingDeadlocks<T>(call: () => Promise<T>, isDeadlock: (error: unknown) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isDeadlock(error)) throw error;
      if (attempt >= DEADLOCK_TRIES) {
        throw new StoreUnavailableError('deadline', `The payment store's database kept reporting a deadlock after ${DEADLOCK_TRIES} tries: ${(error as Error).message}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, attempt * 10 + Math.random() * 20));
    }
  }
}
