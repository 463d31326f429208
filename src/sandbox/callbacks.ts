/**
 * Delivery of the signed payment-status callback to the merchant's `callback_url`: a JSON POST,
 * retried with exponential backoff until the merchant answers 2xx or the attempts run out. Every
 * attempt is recorded and logged, since a merchant debugging its endpoint needs to see each one.
 */

/** One delivery attempt. */
export interface CallbackAttempt {
  booking_id: string;
  /** 1 for the first attempt. */
  attempt: number;
  url: string;
  /** The merchant's HTTP status, when it answered. */
  status?: number;
  /** Why the attempt failed without an answer (connection refused, timeout, ...). */
  error?: string;
  /** ISO time of the attempt on the sandbox's clock. */
  at: string;
  /** True when this attempt was answered 2xx. */
  delivered: boolean;
}

/** Retry policy: `attempts` in all, the n-th retry waits `baseDelayMs * 2 ** (n - 1)`. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

/** Options of the dispatcher. */
export interface DispatcherOptions extends RetryPolicy {
  now: () => number;
  log: (line: string) => void;
  /** Per-attempt timeout; default 5 s. */
  timeoutMs?: number;
}

/** Sends callbacks and keeps the record of every attempt. */
export class CallbackDispatcher {
  private readonly record: CallbackAttempt[] = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Set<AbortController>();
  private pending = 0;
  private waiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: DispatcherOptions) {}

  /** Every attempt so far, in order. */
  attempts(): CallbackAttempt[] {
    return this.record.map((attempt) => ({ ...attempt }));
  }

  /** Resolves once no delivery is in flight or scheduled. */
  whenSettled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Schedules the delivery of `payload` to `url`; the first attempt runs after `initialDelayMs`. */
  send(bookingId: string, url: string, payload: Readonly<Record<string, unknown>>, initialDelayMs = 0): void {
    if (this.closed) return;
    this.pending++;
    this.schedule(initialDelayMs, () => this.attempt(bookingId, url, JSON.stringify(payload), 1));
  }

  /** Stops every scheduled and in-flight delivery. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
    this.pending = 0;
    this.settle();
  }

  private schedule(delayMs: number, run: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void run();
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(bookingId: string, url: string, body: string, attempt: number): Promise<void> {
    if (this.closed) return;
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(new Error('timed out')), this.options.timeoutMs ?? 5000);
    const entry: CallbackAttempt = {
      booking_id: bookingId,
      attempt,
      url,
      at: new Date(this.options.now()).toISOString(),
      delivered: false,
    };
    try {
      // A redirect is not an acknowledgement: the merchant must answer 2xx at the URL it gave.
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      // Only the status acknowledges: the body is never read, so an endless one cannot fill memory.
      await response.body?.cancel().catch(() => undefined);
      entry.status = response.status;
      entry.delivered = response.status >= 200 && response.status < 300;
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause;
      entry.error = controller.signal.aborted
        ? String((controller.signal.reason as Error | undefined)?.message ?? 'aborted')
        : (cause?.message ?? (error as Error).message);
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
    if (this.closed) return;
    this.record.push(entry);
    const outcome = entry.status !== undefined ? `HTTP ${entry.status}` : `error: ${entry.error}`;
    const last = entry.delivered || attempt >= this.options.attempts;
    this.options.log(
      `callback ${bookingId} attempt ${attempt}/${this.options.attempts} -> ${url}: ${outcome}` +
        (entry.delivered ? ' (delivered)' : last ? ' (giving up)' : ''),
    );
    if (last) {
      this.pending--;
      this.settle();
      return;
    }
    this.schedule(this.options.baseDelayMs * 2 ** (attempt - 1), () => this.attempt(bookingId, url, body, attempt + 1));
  }

  private settle(): void {
    if (this.pending > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
