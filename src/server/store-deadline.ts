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
