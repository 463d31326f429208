/**
 * The payment state machine, free of the DOM: the booking client, the navigator, the storage, the
 * clock and the page's visibility are all injected, so every path runs as plain functions in tests.
 */
import { CODES, isFinalStatus, type BookResult, type OrderReference, type PaymentStatus } from './contract.js';
import { BookingError, type BookingClient, type BookingErrorKind } from './booking-client.js';
import type { Environment } from './environment.js';
import type { PageNavigator } from './navigator.js';
import { bookingKey, type BookingStore, type KeptBooking } from './session-store.js';
import { STRATEGIES, type StrategyContext } from './strategies.js';
import type { StringKey } from './strings.js';
import { checkProviderUrl, checkReturnUrl, withQuery, type UrlRefusal } from './urls.js';

/** Every kind of failure the shopper can meet. */
export type FlowErrorKind = BookingErrorKind | 'url-refused' | 'return-url-refused' | 'framed' | 'config';

/** What the flow reports to its host; the element turns each into a DOM event. */
export type FlowEvent =
  | { type: 'booked'; booking_id: string; correlation_id: string; channel: 'app' | 'web' }
  | {
      type: 'navigate';
      reason: 'app' | 'web-payment' | 'success' | 'failure';
      url: string;
      method: 'GET' | 'POST';
      fields?: Record<string, string>;
      booking_id: string;
    }
  | { type: 'webview'; order: OrderReference; endpoint: string; success_url: string | null; failure_url: string | null }
  | { type: 'pending'; booking_id: string; status: PaymentStatus; elapsed_ms: number }
  | { type: 'success'; booking_id: string; status: PaymentStatus }
  | { type: 'failure'; booking_id: string; status: PaymentStatus }
  | { type: 'cancel'; booking_id: string; status: PaymentStatus }
  | { type: 'error'; kind: FlowErrorKind; message: string; code?: string; http_status?: number; reason?: UrlRefusal };

/** The names of the flow's states. */
export type FlowStateName =
  | 'idle'
  | 'booking'
  | 'redirecting'
  | 'opening-app'
  | 'app-fallback'
  | 'verifying'
  | 'pending'
  | 'stalled'
  | 'cancelling'
  | 'webview'
  | 'done'
  | 'error';

/** A snapshot for rendering. */
export interface FlowState {
  name: FlowStateName;
  /** True while a request or a navigation is under way: clicks are ignored. */
  busy: boolean;
  /** The status-region text key. */
  message: StringKey | null;
  /** The booking in flight, when there is one. */
  booking: KeptBooking | null;
  /** True when the "try again" action is offered. */
  canRetry: boolean;
}

/** Timers and delays, injectable so tests run in milliseconds. */
export interface FlowTimings {
  /** How long after opening the app the fallback panel appears if the page is still visible. */
  fallbackDelayMs: number;
  /** Delays between status checks while BOOKED/PENDING; the last one repeats. */
  pollDelaysMs: readonly number[];
  /** Time after the booking at which one last check decides (the spec's five minutes). */
  finalCheckAfterMs: number;
}

/** Default timings: the spec's five minutes, a 1.5 s app-switch window, a gentle backoff. */
export const DEFAULT_TIMINGS: FlowTimings = {
  fallbackDelayMs: 1500,
  pollDelaysMs: [2000, 3000, 5000, 10000, 20000, 30000],
  finalCheckAfterMs: 5 * 60 * 1000,
};

/** A clock with timers. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The settings of one payment, read when the shopper acts. */
export interface FlowConfig {
  /** Absolute base URL of the merchant's proxy, or `null` when missing or invalid. */
  endpoint: string | null;
  client: BookingClient | null;
  order: OrderReference | null;
  environment: Environment;
  successUrl: string | null;
  failureUrl: string | null;
  pageUrl: string;
  allowedHosts: readonly string[];
  returnOrigins: readonly string[];
  /** True when inside a cross-origin frame without the merchant's opt-in. */
  blockedByFrame: boolean;
  /** A set-up mistake found by the host (bad attribute value), reported when the shopper acts. */
  problem?: string | null;
}

/** What the flow needs from its host. */
export interface FlowDeps {
  config(): FlowConfig;
  navigator(): PageNavigator;
  store: BookingStore;
  clock: Clock;
  isVisible(): boolean;
  newKey(): string;
  timings(): FlowTimings;
  /** Reports an event; returns `false` when the host cancelled it (navigate only). */
  emit(event: FlowEvent): boolean;
  /** Called after every state change. */
  onChange(state: FlowState): void;
}

/** A booking made in this attempt, with what the strategy needs next. */
export interface BookedAttempt {
  kept: KeptBooking;
  result: BookResult;
}

interface Attempt {
  key: string;
  environment: Environment;
}

const BUSY: ReadonlySet<FlowStateName> = new Set(['booking', 'redirecting', 'opening-app', 'verifying', 'cancelling']);

const STATE_MESSAGES: Record<FlowStateName, StringKey | null> = {
  idle: null,
  booking: 'status.booking',
  redirecting: 'status.redirecting',
  'opening-app': 'status.opening-app',
  'app-fallback': 'status.app-fallback',
  verifying: 'status.verifying',
  pending: 'status.pending',
  stalled: 'status.stalled',
  cancelling: 'status.cancelling',
  webview: 'status.webview',
  done: null,
  error: null,
};

function errorMessageKey(kind: FlowErrorKind, httpStatus?: number): StringKey {
  if (kind === 'http') return httpStatus !== undefined && httpStatus < 500 ? 'error.rejected' : 'error.http';
  return `error.${kind}`;
}

/** The payment state machine of one element. */
export class PaymentFlow {
  private current: FlowState = { name: 'idle', busy: false, message: null, booking: null, canRetry: false };
  private attempt: Attempt | null = null;
  private retryAction: (() => void) | null = null;
  private timer: unknown = null;
  /** Bumped by every new action, so a late answer of an abandoned one is dropped. */
  private generation = 0;

  constructor(private readonly deps: FlowDeps) {}

  /** The current state. */
  get state(): FlowState {
    return this.current;
  }

  /** The shopper pressed the pay button. Ignored while busy. Returns whether it started something. */
  start(): boolean {
    if (this.current.busy) return false;
    const config = this.deps.config();
    if (config.blockedByFrame) {
      this.fail('framed', 'The element is inside a cross-origin frame without allow-framed.');
      return false;
    }
    if (config.problem) {
      this.fail('config', config.problem);
      return false;
    }
    if (config.environment !== 'webview' && (!config.endpoint || !config.client || !config.order)) {
      this.fail('config', 'The element needs an endpoint and an order (order property or order-id attribute).');
      return false;
    }
    const kept = this.loadKept(config);
    if (kept) {
      // A booking is already in flight: asking again must not book twice.
      this.verify(kept, 0);
      return true;
    }
    // A retry keeps the attempt (its key and its path); a fresh click after a booking starts a new one.
    this.attempt ??= { key: this.deps.newKey(), environment: config.environment };
    const gen = ++this.generation;
    this.clearTimer();
    void STRATEGIES[this.attempt.environment].start(this.context(gen, config));
    return true;
  }

  /** Retries the last failed action (same Idempotency-Key for a booking). */
  retry(): void {
    if (this.current.busy || !this.retryAction) return;
    this.retryAction();
  }

  /** "Check again": one status check now. */
  checkAgain(): void {
    const booking = this.current.booking;
    if (this.current.busy || !booking) return;
    this.verify(booking, 0);
  }

  /** "Cancel payment". */
  cancel(): void {
    const booking = this.current.booking;
    if (this.current.busy || !booking) return;
    const gen = ++this.generation;
    this.clearTimer();
    this.set('cancelling', booking);
    const config = this.deps.config();
    config.client!
      .cancel({ booking_id: booking.booking_id, correlation_id: booking.correlation_id })
      .then((result) => {
        if (gen !== this.generation) return;
        this.deps.emit({ type: 'cancel', booking_id: result.booking_id, status: result.status });
        this.finish(booking, isFinalStatus(result.status) ? result.status : 'CANCELED');
      })
      .catch((error: unknown) => {
        if (gen !== this.generation) return;
        // Already processed: the status decides where the shopper goes (it may have succeeded).
        if (error instanceof BookingError && error.code === CODES.ALREADY_PROCESSED) this.verify(booking, 0);
        else this.failRequest(error, () => this.cancel(), booking);
      });
  }

  /**
   * "Pay on the web instead": the app booking may already have been paid, so its status is asked
   * first; an open app booking is cancelled before a new web attempt, so the shopper cannot pay twice.
   */
  payOnWeb(): void {
    const booking = this.current.booking;
    if (this.current.busy || !booking) return;
    const gen = ++this.generation;
    this.clearTimer();
    this.set('verifying', booking);
    const config = this.deps.config();
    const client = config.client!;
    const ids = { booking_id: booking.booking_id, correlation_id: booking.correlation_id };
    const startWeb = () => {
      this.deps.store.clear(this.keyOf(config));
      this.attempt = { key: this.deps.newKey(), environment: 'desktop' };
      void STRATEGIES.desktop.start(this.context(gen, config));
    };
    client
      .status(ids)
      .then(async (result) => {
        if (gen !== this.generation) return;
        if (result.status === 'SUCCESS') return this.finish(booking, 'SUCCESS');
        if (isFinalStatus(result.status)) return startWeb();
        try {
          await client.cancel(ids);
        } catch (error) {
          if (gen !== this.generation) return;
          if (error instanceof BookingError && error.code === CODES.ALREADY_PROCESSED) return this.verify(booking, 0);
          throw error;
        }
        if (gen === this.generation) startWeb();
      })
      .catch((error: unknown) => {
        if (gen !== this.generation) return;
        this.failRequest(error, () => this.payOnWeb(), booking);
      });
  }

  /**
   * The page came back (bfcache `pageshow`, visible again) or was freshly loaded: a kept booking is
   * checked and routed. Nothing happens without one, or while a request is already running.
   */
  resume(): void {
    if (this.current.busy && this.current.name !== 'opening-app' && this.current.name !== 'redirecting') return;
    const config = this.deps.config();
    const kept = this.loadKept(config);
    if (kept) this.verify(kept, 0);
    else if (this.current.name === 'redirecting' || this.current.name === 'done') this.set('idle', null);
  }

  /** Stops every timer and drops late answers (element disconnected). */
  dispose(): void {
    this.generation++;
    this.clearTimer();
    // A dropped answer must not leave the button busy forever if the element is attached again; the
    // attempt (and its key) stays, so pressing again re-books idempotently.
    if (this.current.busy) this.set('idle', null);
  }

  private context(gen: number, config: FlowConfig): StrategyContext {
    return {
      book: (channel) => this.book(gen, config, channel),
      followWebPayment: (attempt) => this.followWebPayment(gen, config, attempt),
      openApp: (attempt) => this.openApp(gen, config, attempt),
      handOver: () => {
        this.attempt = null;
        this.deps.emit({
          type: 'webview',
          order: config.order ?? {},
          endpoint: config.endpoint ?? '',
          success_url: config.successUrl,
          failure_url: config.failureUrl,
        });
        this.set('webview', null);
      },
    };
  }

  private async book(gen: number, config: FlowConfig, channel: 'app' | 'web'): Promise<BookedAttempt | null> {
    const attempt = this.attempt!;
    this.set('booking', null);
    try {
      const result = await config.client!.book({ channel, order: config.order! }, attempt.key);
      if (gen !== this.generation) return null;
      const kept: KeptBooking = {
        booking_id: result.booking_id,
        correlation_id: result.correlation_id,
        channel,
        idempotency_key: attempt.key,
        started_at: this.deps.clock.now(),
      };
      if (result.deeplink) kept.deeplink = result.deeplink;
      this.deps.emit({ type: 'booked', booking_id: kept.booking_id, correlation_id: kept.correlation_id, channel });
      return { kept, result };
    } catch (error) {
      if (gen !== this.generation) return null;
      this.failRequest(error, () => this.start(), null);
      return null;
    }
  }

  private followWebPayment(gen: number, config: FlowConfig, { kept, result }: BookedAttempt): void {
    if (gen !== this.generation) return;
    const instruction = result.web_payment!;
    const check = checkProviderUrl(instruction.url, config.allowedHosts);
    if (!check.ok) return this.refuse(check.reason, instruction.url);
    this.keep(config, kept);
    const fields = instruction.fields ?? {};
    const url = instruction.method === 'GET' ? withQuery(check.url, fields) : check.url.href;
    const detail: FlowEvent = { type: 'navigate', reason: 'web-payment', url, method: instruction.method, booking_id: kept.booking_id };
    if (instruction.method === 'POST') detail.fields = fields;
    this.set('redirecting', kept);
    if (!this.deps.emit(detail)) {
      // The host routes itself; the element stays usable and the kept booking answers the next press.
      this.set('idle', null);
      return;
    }
    if (instruction.method === 'POST') this.deps.navigator().postForm(url, fields);
    else this.deps.navigator().assign(url);
  }

  private openApp(gen: number, config: FlowConfig, { kept, result }: BookedAttempt): void {
    if (gen !== this.generation) return;
    const check = checkProviderUrl(result.deeplink, config.allowedHosts);
    if (!check.ok) return this.refuse(check.reason, result.deeplink ?? '');
    kept.deeplink = check.url.href;
    this.keep(config, kept);
    this.set('opening-app', kept);
    // Synchronously after the booking's answer: still inside the click's activation window.
    if (this.deps.emit({ type: 'navigate', reason: 'app', url: check.url.href, method: 'GET', booking_id: kept.booking_id })) {
      this.deps.navigator().openApp(check.url.href);
    }
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null;
      if (gen !== this.generation || this.current.name !== 'opening-app') return;
      // Hidden means the app (probably) took over; the way back is resume(), not a panel.
      if (this.deps.isVisible()) this.set('app-fallback', kept);
    }, this.deps.timings().fallbackDelayMs);
  }

  private verify(kept: KeptBooking, checkNumber: number): void {
    const gen = ++this.generation;
    this.clearTimer();
    this.set('verifying', kept);
    const client = this.deps.config().client;
    if (!client) return this.fail('config', 'The element has no endpoint to ask the status from.');
    client
      .status({ booking_id: kept.booking_id, correlation_id: kept.correlation_id })
      .then((result) => {
        if (gen !== this.generation) return;
        if (isFinalStatus(result.status)) return this.finish(kept, result.status);
        this.waitFor(kept, result.status, checkNumber);
      })
      .catch((error: unknown) => {
        if (gen !== this.generation) return;
        this.failRequest(error, () => this.verify(kept, checkNumber), kept);
      });
  }

  /** BOOKED/PENDING: check again with backoff until five minutes after the booking, then one last check. */
  private waitFor(kept: KeptBooking, status: PaymentStatus, checkNumber: number): void {
    const { pollDelaysMs, finalCheckAfterMs } = this.deps.timings();
    const elapsed = this.deps.clock.now() - kept.started_at;
    if (elapsed >= finalCheckAfterMs) {
      this.set('stalled', kept);
      return;
    }
    this.set('pending', kept);
    this.deps.emit({ type: 'pending', booking_id: kept.booking_id, status, elapsed_ms: elapsed });
    const backoff = pollDelaysMs[Math.min(checkNumber, pollDelaysMs.length - 1)] ?? 0;
    const gen = this.generation;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null;
      if (gen === this.generation) this.verify(kept, checkNumber + 1);
    }, Math.min(backoff, finalCheckAfterMs - elapsed));
  }

  private finish(kept: KeptBooking, status: PaymentStatus): void {
    const config = this.deps.config();
    this.deps.store.clear(this.keyOf(config));
    this.attempt = null;
    const success = status === 'SUCCESS';
    const outcome = success ? 'success' : 'failure';
    this.deps.emit({ type: outcome, booking_id: kept.booking_id, status });
    this.set('done', null, success ? 'status.success' : status === 'CANCELED' ? 'status.cancelled' : 'status.failure');
    const raw = success ? config.successUrl : config.failureUrl;
    if (!raw) return;
    const check = checkReturnUrl(raw, config.pageUrl, config.returnOrigins);
    if (!check.ok) {
      this.set('done', null, 'error.return-url-refused');
      this.emitError('return-url-refused', `The ${outcome} URL was refused (${check.reason}).`, { reason: check.reason });
      return;
    }
    const url = withQuery(check.url, { booking_id: kept.booking_id, status });
    if (this.deps.emit({ type: 'navigate', reason: outcome, url, method: 'GET', booking_id: kept.booking_id })) {
      this.deps.navigator().assign(url);
    }
  }

  private refuse(reason: UrlRefusal, url: string): void {
    // The booking stays unpaid on the server; a retry with the same key gets the same answer, so the
    // shopper is told and nothing is followed.
    this.retryAction = () => this.start();
    // State first, event second: listeners of the error event see the element already showing it.
    this.set('error', null, 'error.url-refused', true);
    this.emitError('url-refused', `Refused to follow ${JSON.stringify(url.slice(0, 200))}: ${reason}.`, { reason });
  }

  private failRequest(error: unknown, retry: () => void, booking: KeptBooking | null): void {
    const e = error instanceof BookingError ? error : new BookingError('network', String(error));
    this.retryAction = retry;
    this.set('error', booking, errorMessageKey(e.kind, e.status), true);
    this.emitError(e.kind, e.message, { code: e.code, http_status: e.status });
  }

  private fail(kind: FlowErrorKind, message: string): void {
    this.retryAction = null;
    this.set('error', null, errorMessageKey(kind), false);
    this.emitError(kind, message, {});
  }

  private emitError(kind: FlowErrorKind, message: string, extra: { code?: string; http_status?: number; reason?: UrlRefusal }): void {
    const event: FlowEvent = { type: 'error', kind, message };
    if (extra.code !== undefined) event.code = extra.code;
    if (extra.http_status !== undefined) event.http_status = extra.http_status;
    if (extra.reason !== undefined) event.reason = extra.reason;
    this.deps.emit(event);
  }

  private keep(config: FlowConfig, kept: KeptBooking): void {
    this.attempt = null;
    this.deps.store.save(this.keyOf(config), kept);
  }

  private loadKept(config: FlowConfig): KeptBooking | null {
    return config.endpoint && config.order ? this.deps.store.load(this.keyOf(config)) : null;
  }

  private keyOf(config: FlowConfig): string {
    return bookingKey(config.endpoint ?? '', config.order);
  }

  private clearTimer(): void {
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private set(name: FlowStateName, booking: KeptBooking | null, message?: StringKey, canRetry = false): void {
    this.current = {
      name,
      busy: BUSY.has(name),
      message: message ?? STATE_MESSAGES[name],
      booking,
      canRetry,
    };
    this.deps.onChange(this.current);
  }
}
