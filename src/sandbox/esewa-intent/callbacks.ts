/**
 * Delivery of the signed payment-status callback to the merchant's `callback_url`, and the callback
 * desk that records it: a JSON POST, retried with exponential backoff on the sandbox's clock until
 * the merchant answers 2xx or the attempts run out (then it is a dead letter). Every delivery and
 * attempt is kept (in bounded lists) and logged, since a merchant debugging its endpoint needs to see
 * each one, and any delivery can be sent again.
 */
import type { Chaos } from '../chaos.js';
import { pause } from '../chaos.js';
import type { SandboxClock, Scheduled } from '../clock.js';

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
  /** The start of the merchant's answer (at most 200 characters). */
  answer?: string;
}

/** One callback as the desk shows it: a payload sent to one URL, with its attempts. */
export interface CallbackDelivery {
  /** `CB-1`, `CB-2`, ... */
  id: string;
  booking_id: string;
  /** The payment status the callback reports. */
  status: string;
  /** The scenario of the booking, when one was chosen. */
  scenario?: string;
  url: string;
  /** `scheduled` (waiting for its first or next attempt), `delivered`, `dead` (attempts exhausted), `stopped` (the sandbox stopped). */
  state: 'scheduled' | 'delivered' | 'dead' | 'stopped';
  attempts: CallbackAttempt[];
  /** ISO time it was created, on the sandbox's clock. */
  created_at: string;
  /** The delivery this one resends. */
  resend_of?: string;
}

/** Retry policy: `attempts` in all, the n-th retry waits `baseDelayMs * 2 ** (n - 1)`. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

/** Options of the dispatcher. */
export interface DispatcherOptions extends RetryPolicy {
  clock: SandboxClock;
  log: (line: string) => void;
  chaos?: Chaos;
  /** The merchant's own id of a booking (its transaction_uuid), which chaos keys a callback on: the sandbox's booking ids are random. */
  subjectOf?: (bookingId: string) => string | undefined;
  /** Per-attempt timeout; default 5 s. */
  timeoutMs?: number;
}

/** What one send asks for beyond the payload. */
export interface SendOptions {
  /** Wait before the first attempt, on the sandbox's clock. */
  delayMs?: number;
  scenario?: string;
  /** This many first attempts are lost on the network (a scenario). */
  drop?: number;
  resendOf?: string;
}

/** The desk keeps this many deliveries: finished ones are dropped first, oldest first. */
export const MAX_DELIVERIES = 1000;
/** `callbackAttempts()` keeps this many attempts, oldest dropped first. */
export const MAX_ATTEMPT_RECORD = 5000;
/** Bytes of an answer read; the rest is not read. */
const MAX_ANSWER_BYTES = 4096;
const ANSWER_EXCERPT = 200;

interface Entry {
  delivery: CallbackDelivery;
  body: string;
  drop: number;
  timer?: Scheduled;
}

/** Sends callbacks and keeps the desk's records. */
export class CallbackDispatcher {
  private readonly record: CallbackAttempt[] = [];
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Set<AbortController>();
  private counter = 0;
  private pending = 0;
  private waiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: DispatcherOptions) {}

  /** Every attempt so far, in order (the last {@link MAX_ATTEMPT_RECORD}). */
  attempts(): CallbackAttempt[] {
    return this.record.map((attempt) => ({ ...attempt }));
  }

  /** Deliveries, newest first; `dead` for the dead letters only. */
  deliveries(filter: { state?: CallbackDelivery['state']; booking_id?: string } = {}): CallbackDelivery[] {
    return [...this.entries.values()]
      .map((entry) => entry.delivery)
      .filter((d) => (filter.state === undefined || d.state === filter.state) && (filter.booking_id === undefined || d.booking_id === filter.booking_id))
      .reverse()
      .map((d) => structuredClone(d));
  }

  /** One delivery, or undefined. */
  delivery(id: string): CallbackDelivery | undefined {
    const entry = this.entries.get(id);
    return entry && structuredClone(entry.delivery);
  }

  /** Resolves once no delivery is in flight or scheduled. */
  whenSettled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Schedules the delivery of `payload` to `url`; returns the delivery's id. */
  send(bookingId: string, url: string, payload: Readonly<Record<string, unknown>>, options: SendOptions = {}): string {
    return this.enqueue(bookingId, url, JSON.stringify(payload), String(payload['status'] ?? ''), options);
  }

  /** Sends a recorded delivery's payload again, to its URL or `url`; returns the new delivery's id. */
  resend(id: string, url?: string): string | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const { delivery } = entry;
    return this.enqueue(delivery.booking_id, url ?? delivery.url, entry.body, delivery.status, {
      resendOf: id,
      ...(delivery.scenario ? { scenario: delivery.scenario } : {}),
    });
  }

  /** Stops every scheduled and in-flight delivery. */
  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.entries.values()) {
      entry.timer?.cancel();
      if (entry.delivery.state === 'scheduled') entry.delivery.state = 'stopped';
    }
    for (const controller of this.inFlight) controller.abort();
    this.pending = 0;
    this.settle();
  }

  private enqueue(bookingId: string, url: string, body: string, status: string, options: SendOptions): string {
    const id = `CB-${++this.counter}`;
    const delivery: CallbackDelivery = {
      id,
      booking_id: bookingId,
      status,
      ...(options.scenario ? { scenario: options.scenario } : {}),
      url,
      state: 'scheduled',
      attempts: [],
      created_at: new Date(this.options.clock.now()).toISOString(),
      ...(options.resendOf ? { resend_of: options.resendOf } : {}),
    };
    if (this.closed) {
      delivery.state = 'stopped';
      return id;
    }
    const entry: Entry = { delivery, body, drop: options.drop ?? 0 };
    this.entries.set(id, entry);
    this.prune();
    this.pending++;
    entry.timer = this.options.clock.after(options.delayMs ?? 0, () => this.attempt(entry, 1));
    return id;
  }

  /** Keeps the desk bounded: drops delivered ones first, then dead and stopped ones, oldest first. */
  private prune(): void {
    for (const state of ['delivered', 'stopped', 'dead'] as const) {
      if (this.entries.size <= MAX_DELIVERIES) return;
      for (const [id, entry] of this.entries) {
        if (this.entries.size <= MAX_DELIVERIES) return;
        if (entry.delivery.state === state) this.entries.delete(id);
      }
    }
  }

  private async post(url: string, body: string, controller: AbortController): Promise<{ status: number; answer: string }> {
    // A redirect is not an acknowledgement: the merchant must answer 2xx at the URL it gave.
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      redirect: 'manual',
      signal: controller.signal,
    });
    // Read at most a few KiB: an endless answer must not grow the sandbox.
    let answer = '';
    const reader = response.body?.getReader();
    if (reader) {
      const decoder = new TextDecoder();
      let read = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        read += value.byteLength;
        answer += decoder.decode(value, { stream: true });
        if (read >= MAX_ANSWER_BYTES) {
          await reader.cancel().catch(() => undefined);
          break;
        }
      }
    }
    return { status: response.status, answer: answer.slice(0, ANSWER_EXCERPT) };
  }

  private async attempt(entry: Entry, attempt: number): Promise<void> {
    if (this.closed) return;
    const { delivery } = entry;
    const result: CallbackAttempt = {
      booking_id: delivery.booking_id,
      attempt,
      url: delivery.url,
      at: new Date(this.options.clock.now()).toISOString(),
      delivered: false,
    };
    const subject = this.options.subjectOf?.(delivery.booking_id) ?? delivery.booking_id;
    const chaos = this.options.chaos?.draw(`callback ${delivery.id} ${delivery.booking_id} attempt ${attempt}`, { kind: 'callback', subject });
    if (attempt <= entry.drop) {
      result.error = 'lost on the network (scenario)';
    } else if (chaos?.fault === 'error') {
      result.error = 'connection refused (chaos)';
    } else {
      await pause(chaos?.latencyMs ?? 0);
      const controller = new AbortController();
      this.inFlight.add(controller);
      const timeout = setTimeout(() => controller.abort(new Error('timed out')), this.options.timeoutMs ?? 5000);
      try {
        const { status, answer } = await this.post(delivery.url, entry.body, controller);
        if (chaos?.fault === 'timeout') {
          // Sent, so the merchant got it, but the answer is lost: the retry is a duplicate, as in the field.
          result.error = 'timed out (chaos: the answer was lost)';
        } else {
          result.status = status;
          result.delivered = status >= 200 && status < 300;
        }
        result.answer = answer;
      } catch (error) {
        const cause = (error as { cause?: { message?: string } }).cause;
        result.error = controller.signal.aborted
          ? String((controller.signal.reason as Error | undefined)?.message ?? 'aborted')
          : (cause?.message ?? (error as Error).message);
      } finally {
        clearTimeout(timeout);
        this.inFlight.delete(controller);
      }
    }
    if (this.closed) return;
    this.keep(entry, result);
    const last = result.delivered || attempt >= this.options.attempts;
    const outcome = result.status !== undefined ? `HTTP ${result.status}` : `error: ${result.error}`;
    this.options.log(
      `callback ${delivery.booking_id} attempt ${attempt}/${this.options.attempts} -> ${delivery.url}: ${outcome}` +
        (delivery.scenario ? ` [${delivery.scenario}]` : '') +
        (result.delivered ? ' (delivered)' : last ? ` (giving up: dead letter ${delivery.id})` : ''),
    );
    if (last) {
      delivery.state = result.delivered ? 'delivered' : 'dead';
      this.pending--;
      this.settle();
      return;
    }
    entry.timer = this.options.clock.after(this.options.baseDelayMs * 2 ** (attempt - 1), () => this.attempt(entry, attempt + 1));
  }

  private keep(entry: Entry, result: CallbackAttempt): void {
    entry.delivery.attempts.push(result);
    this.record.push(result);
    if (this.record.length > MAX_ATTEMPT_RECORD) this.record.splice(0, this.record.length - MAX_ATTEMPT_RECORD);
  }

  private settle(): void {
    if (this.pending > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
