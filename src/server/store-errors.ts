/**
 * The one failure a {@link PaymentStore} reports on purpose: the database did not answer in time or
 * cannot be reached. The handler answers such a request `IP-503` (HTTP 503 with `Retry-After`), which
 * the element retries with the same `Idempotency-Key`; any other error of a store is a defect.
 */
export class StoreUnavailableError extends Error {
  /** What failed: a call past its deadline, or no connection. */
  readonly reason: 'deadline' | 'unreachable';

  constructor(reason: 'deadline' | 'unreachable', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
    this.reason = reason;
  }
}
