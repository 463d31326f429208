/**
 * The one failure a {@link PaymentStore} reports on purpose: the database did not answer in time or
 * cannot be reached. The handler answers such a request `IP-503` (HTTP 503 with `Retry-After`), which
 * the element retries with the same `Idempotency-Key`; any other error of a store is a defect.
 *
 * Each store tells its own driver's "late" and "gone" errors apart and rejects with this error (the
 * PostgreSQL, MySQL and Redis stores do); the handler reads nothing else, so a store of your own
 * classifies its driver's errors itself.
 */

/** The mark of the error, shared by every copy of this package loaded at once. */
const MARK = Symbol.for('wallet-pay-button.store-unavailable');

export class StoreUnavailableError extends Error {
  /** What failed: a call past its deadline, or no connection. */
  readonly reason: 'deadline' | 'unreachable';

  constructor(reason: 'deadline' | 'unreachable', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
    this.reason = reason;
    Object.defineProperty(this, MARK, { value: true });
  }
}

/**
 * Whether `error` is a {@link StoreUnavailableError}: of this copy of the package, or of another copy
 * loaded beside it, which `instanceof` would miss: a store bundled with a copy of its own.
 */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return error instanceof StoreUnavailableError || (error instanceof Error && (error as unknown as Record<symbol, unknown>)[MARK] === true);
}
