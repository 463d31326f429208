/**
 * The payment state machine, free of the DOM: the booking client, the navigator, the storage, the
 * clock and the page's visibility are all injected, so every path runs as plain functions in tests.
 */
import type { Channel } from '../protocol/contract.js';
import { ALREADY_PROCESSED, STATUS_CHECK_AFTER_MS, isFinalStatus, type BookResult, type OrderReference, type PaymentStatus } from '../protocol/contract.js';
import { BookingError, type BookingClient, type BookingErrorKind } from './booking-client.js';
import type { Environment } from './environment.js';
import type { PageNavigator } from './navigator.js';
import { bookingKey, type BookingStore, type KeptBooking } from './session-store.js';
import type { StringKey } from '../element/strings.js';
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
  finalCheckAfterMs: STATUS_CHECK_AFTER_MS,
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
  /** The document's base URL, against which relative return URLs resolve (default: `pageUrl`). */
  baseUrl?: string;
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

/* One strategy per environment: which channel it books and what it does with the booking. The flow
 * picks one by the resolved environment instead of branching on it everywhere. */

/** What a strategy may ask of the flow. */
export interface StrategyContext {
  /** Books on `channel`; resolves `null` when the booking failed (the flow already shows why). */
  book(channel: Channel): Promise<BookedAttempt | null>;
  /** Follows the web-payment instruction as a top-level navigation. */
  followWebPayment(attempt: BookedAttempt): void;
  /** Opens the wallet app now (inside the click's activation) and arms the fallback panel. */
  openApp(attempt: BookedAttempt): void;
  /** Hands the payment to the app around a WebView: no booking, no navigation. */
  handOver(): void;
}

/** The payment path of one environment (the mobile path books on the `app` channel, the desktop one on `web`, the WebView one books nothing). */
export interface PaymentStrategy {
  /** Runs the path. */
  start(context: StrategyContext): Promise<void>;
}

/** The three strategies, by environment. */
export const STRATEGIES: Readonly<Record<Environment, PaymentStrategy>> = {
  desktop: {
    async start(context) {
      const attempt = await context.book('web');
      if (attempt) context.followWebPayment(attempt);
    },
  },
  mobile: {
    async start(context) {
      const attempt = await context.book('app');
      if (attempt) context.openApp(attempt);
    },
  },
  webview: {
    async start(context) {
      context.handOver();
    },
  },
};

interface Attempt {
  key: string;
  environment: Environment;
  /** The storage key of its endpoint and order: another order is another payment, with its own key. */
  order: string;
}

const BUSY = ['booking', 'redirecting', 'opening-app', 'verifying', 'cancelling'];

/** The status text of a request failure: a refusal (4xx) reads differently from an outage. */
function errorMessageKey(kind: FlowErrorKind, httpStatus?: number): StringKey {
  return kind === 'http' && httpStatus! < 500 ? 'error.rejected' : `error.${kind}`;
}

const isProcessed = (error: unknown) => error instanceof BookingError && error.code === ALREADY_PROCESSED;

/** The state before anything happened. */
export const IDLE_STATE: FlowState = { name: 'idle', busy: false, message: null, booking: null, canRetry: false };

/** The payment state machine of one element. */
export class PaymentFlow {
  #state = IDLE_STATE;
  #attempt: Attempt | null = null;
  #retry: (() => void) | null = null;
  #timer: unknown = null;
  /** Bumped by every new action, so a late answer of an abandoned one is dropped. */
  #gen = 0;
  readonly #deps: FlowDeps;

  constructor(deps: FlowDeps) {
    this.#deps = deps;
  }

  /** The current state. */
  get state(): FlowState {
    return this.#state;
  }

  /** The shopper pressed the pay button. Ignored while busy. Returns whether it started something. */
  start(): boolean {
    if (this.#state.busy) return false;
    const config = this.#deps.config();
    const problem = config.blockedByFrame
      ? 'The element is inside a cross-origin frame without allow-framed.'
      : config.problem ||
        (config.environment !== 'webview' && (!config.endpoint || !config.client || !config.order)
          ? 'The element needs an endpoint and an order (order property or order-id attribute).'
          : null);
    if (problem) {
      this.#retry = null;
      this.#fail(config.blockedByFrame ? 'framed' : 'config', problem, null);
      return false;
    }
    const kept = this.#load(config);
    // A booking is already in flight: asking again must not book twice.
    if (kept) this.#verify(kept, 0);
    else {
      // A retry keeps the attempt (its key and its path); a fresh click after a booking, or a press
      // for another order, starts a new one (the same key with another body is refused, IP-409).
      const order = keyOf(config);
      if (this.#attempt?.order !== order) {
        // An attempt cut short by a reload is taken up again with its key: one booking per attempt.
        const [environment, key] = this.#deps.store.attempt(order)?.split(/:(.*)/) ?? [];
        this.#attempt = key && Object.hasOwn(STRATEGIES, environment!)
          ? { key, environment: environment as Environment, order }
          : { key: this.#deps.newKey(), environment: config.environment, order };
      }
      void STRATEGIES[this.#attempt.environment].start(this.#context(this.#begin(), config));
    }
    return true;
  }

  /** Retries the last failed action (same Idempotency-Key for a booking). */
  retry(): void {
    if (!this.#state.busy) this.#retry?.();
  }

  /** "Check again": one status check now. */
  checkAgain(): void {
    const booking = this.#idle();
    if (booking) this.#verify(booking, 0);
  }

  /** "Cancel payment". */
  cancel(): void {
    const booking = this.#idle();
    if (!booking) return;
    const gen = this.#begin('cancelling', booking);
    this.#deps
      .config()
      .client!.cancel(ids(booking))
      .then(
        (result) => {
          if (gen !== this.#gen) return;
          this.#deps.emit({ type: 'cancel', booking_id: result.booking_id, status: result.status });
          this.#finish(booking, isFinalStatus(result.status) ? result.status : 'CANCELED');
        },
        // Already processed: the status decides where the shopper goes (it may have succeeded).
        (error: unknown) => gen === this.#gen && (isProcessed(error) ? this.#verify(booking, 0) : this.#failRequest(error, () => this.cancel(), booking)),
      );
  }

  /**
   * "Pay on the web instead": the app booking may already have been paid, so its status is asked
   * first; an open app booking is cancelled before a new web attempt, so the shopper cannot pay twice.
   */
  payOnWeb(): void {
    const booking = this.#idle();
    if (!booking) return;
    const gen = this.#begin('verifying', booking);
    const config = this.#deps.config();
    const client = config.client!;
    const startWeb = () => {
      this.#deps.store.clear(keyOf(config));
      this.#attempt = { key: this.#deps.newKey(), environment: 'desktop', order: keyOf(config) };
      void STRATEGIES.desktop.start(this.#context(gen, config));
    };
    client
      .status(ids(booking))
      .then(async (result) => {
        if (gen !== this.#gen) return;
        if (result.status === 'SUCCESS') return this.#finish(booking, 'SUCCESS');
        if (!isFinalStatus(result.status)) {
          try {
            await client.cancel(ids(booking));
          } catch (error) {
            if (gen === this.#gen && isProcessed(error)) return this.#verify(booking, 0);
            throw error;
          }
        }
        if (gen === this.#gen) startWeb();
      })
      .catch((error: unknown) => gen === this.#gen && this.#failRequest(error, () => this.payOnWeb(), booking));
  }

  /**
   * The page came back (bfcache `pageshow`, visible again) or was freshly loaded: a kept booking is
   * checked and routed. Nothing happens without one, or while a request is already running.
   */
  resume(): void {
    const name = this.#state.name;
    const left = name === 'opening-app' || name === 'redirecting';
    if (this.#state.busy && !left) return;
    const kept = this.#load(this.#deps.config());
    if (kept) this.#verify(kept, 0);
    else if (name === 'redirecting' || name === 'done') this.#set('idle', null);
  }

  /** Stops every timer and drops late answers (element disconnected). */
  dispose(): void {
    this.#begin();
    // A dropped answer must not leave the button busy forever if the element is attached again; the
    // attempt (and its key) stays, so pressing again re-books idempotently.
    if (this.#state.busy) this.#set('idle', null);
  }

  /** The booking the panel acts on, when nothing is running. */
  #idle(): KeptBooking | null {
    return this.#state.busy ? null : this.#state.booking;
  }

  /** Starts a new action: older answers and timers are dropped; optionally shows its state. */
  #begin(name?: FlowStateName, booking: KeptBooking | null = null): number {
    this.#clearTimer();
    const gen = ++this.#gen;
    if (name) this.#set(name, booking);
    return gen;
  }

  #context(gen: number, config: FlowConfig): StrategyContext {
    return {
      book: (channel) => this.#book(gen, config, channel),
      followWebPayment: (attempt) => this.#followWebPayment(gen, config, attempt),
      openApp: (attempt) => this.#openApp(gen, config, attempt),
      handOver: () => {
        this.#attempt = null;
        this.#deps.emit({
          type: 'webview',
          order: config.order ?? {},
          endpoint: config.endpoint ?? '',
          success_url: config.successUrl,
          failure_url: config.failureUrl,
        });
        this.#set('webview', null);
      },
    };
  }

  async #book(gen: number, config: FlowConfig, channel: 'app' | 'web'): Promise<BookedAttempt | null> {
    const { key, environment } = this.#attempt!;
    this.#deps.store.setAttempt(keyOf(config), `${environment}:${key}`);
    this.#set('booking', null);
    try {
      const result = await config.client!.book({ channel, order: config.order! }, key);
      if (gen !== this.#gen) return null;
      const { booking_id, correlation_id, deeplink } = result;
      const kept: KeptBooking = { booking_id, correlation_id, channel, idempotency_key: key, started_at: this.#deps.clock.now() };
      if (deeplink) kept.deeplink = deeplink;
      this.#deps.emit({ type: 'booked', booking_id, correlation_id, channel });
      return { kept, result };
    } catch (error) {
      if (gen === this.#gen) this.#failRequest(error, () => this.start(), null);
      return null;
    }
  }

  /** Checks a provider URL; a refused one ends the attempt with an error and `null`. */
  #checked(gen: number, config: FlowConfig, raw: string | undefined): URL | null {
    if (gen !== this.#gen) return null;
    const check = checkProviderUrl(raw, config.allowedHosts);
    if (check.ok) return check.url;
    // The booking stays unpaid on the server; a retry with the same key gets the same answer, so the
    // shopper is told and nothing is followed.
    this.#retry = () => this.start();
    this.#fail('url-refused', `Refused to follow ${JSON.stringify((raw ?? '').slice(0, 200))}: ${check.reason} (allowed-hosts: ${config.allowedHosts.join(' ')}).`, null, { reason: check.reason }, 'error.url-refused', true);
    return null;
  }

  #followWebPayment(gen: number, config: FlowConfig, { kept, result }: BookedAttempt): void {
    const { url: raw, method, fields = {} } = result.web_payment!;
    const checked = this.#checked(gen, config, raw);
    if (!checked) return;
    this.#keep(config, kept);
    const post = method === 'POST';
    const url = post ? checked.href : withQuery(checked, fields);
    const detail: FlowEvent = { type: 'navigate', reason: 'web-payment', url, method, booking_id: kept.booking_id };
    if (post) detail.fields = fields;
    this.#set('redirecting', kept);
    // A host that routes itself keeps the element usable; the kept booking answers the next press.
    if (!this.#deps.emit(detail)) this.#set('idle', null);
    else if (post) this.#deps.navigator().postForm(url, fields);
    else this.#deps.navigator().assign(url);
  }

  #openApp(gen: number, config: FlowConfig, { kept, result }: BookedAttempt): void {
    const checked = this.#checked(gen, config, result.deeplink);
    if (!checked) return;
    const url = (kept.deeplink = checked.href);
    this.#keep(config, kept);
    this.#set('opening-app', kept);
    // Synchronously after the booking's answer: still inside the click's activation window.
    if (this.#deps.emit({ type: 'navigate', reason: 'app', url, method: 'GET', booking_id: kept.booking_id })) {
      this.#deps.navigator().openApp(url);
    }
    this.#later(gen, this.#deps.timings().fallbackDelayMs, () => {
      // Hidden means the app (probably) took over; the way back is resume(), not a panel.
      if (this.#state.name === 'opening-app' && this.#deps.isVisible()) this.#set('app-fallback', kept);
    });
  }

  #verify(kept: KeptBooking, checkNumber: number): void {
    const gen = this.#begin('verifying', kept);
    const client = this.#deps.config().client;
    if (!client) {
      this.#retry = null;
      return this.#fail('config', 'The element has no endpoint to ask the status from.', null);
    }
    client.status(ids(kept)).then(
      ({ status }) => gen === this.#gen && (isFinalStatus(status) ? this.#finish(kept, status) : this.#waitFor(kept, status, checkNumber)),
      (error: unknown) => gen === this.#gen && this.#failRequest(error, () => this.#verify(kept, checkNumber), kept),
    );
  }

  /** BOOKED/PENDING: check again with backoff until five minutes after the booking, then one last check. */
  #waitFor(kept: KeptBooking, status: PaymentStatus, checkNumber: number): void {
    const { pollDelaysMs, finalCheckAfterMs } = this.#deps.timings();
    const elapsed = this.#deps.clock.now() - kept.started_at;
    if (elapsed >= finalCheckAfterMs) return this.#set('stalled', kept);
    this.#set('pending', kept);
    this.#deps.emit({ type: 'pending', booking_id: kept.booking_id, status, elapsed_ms: elapsed });
    const backoff = pollDelaysMs[Math.min(checkNumber, pollDelaysMs.length - 1)] ?? 0;
    this.#later(this.#gen, Math.min(backoff, finalCheckAfterMs - elapsed), () => this.#verify(kept, checkNumber + 1));
  }

  /** Runs `then` after `ms` unless a newer action started meanwhile. */
  #later(gen: number, ms: number, then: () => void): void {
    this.#timer = this.#deps.clock.setTimeout(() => {
      this.#timer = null;
      if (gen === this.#gen) then();
    }, ms);
  }

  #finish(kept: KeptBooking, status: PaymentStatus): void {
    const config = this.#deps.config();
    const { booking_id } = kept;
    this.#deps.store.clear(keyOf(config));
    this.#attempt = null;
    const success = status === 'SUCCESS';
    const outcome = success ? 'success' : 'failure';
    this.#deps.emit({ type: outcome, booking_id, status });
    this.#set('done', null, success ? 'status.success' : status === 'CANCELED' ? 'status.cancelled' : 'status.failure');
    const raw = success ? config.successUrl : config.failureUrl;
    if (!raw) return;
    const check = checkReturnUrl(raw, config.pageUrl, config.returnOrigins, config.baseUrl);
    if (!check.ok) {
      return this.#fail('return-url-refused', `The ${outcome} URL was refused (${check.reason}).`, null, { reason: check.reason }, 'error.return-url-refused', false, 'done');
    }
    const url = withQuery(check.url, { booking_id, status });
    if (this.#deps.emit({ type: 'navigate', reason: outcome, url, method: 'GET', booking_id })) this.#deps.navigator().assign(url);
  }

  #failRequest(error: unknown, retry: () => void, booking: KeptBooking | null): void {
    const e = error instanceof BookingError ? error : new BookingError('network', String(error));
    this.#retry = retry;
    this.#fail(e.kind, e.message, booking, { code: e.code, http_status: e.status }, errorMessageKey(e.kind, e.status), true);
  }

  /** Shows a failure, then reports it: listeners of the error event see the element already showing it. */
  #fail(
    kind: FlowErrorKind,
    message: string,
    booking: KeptBooking | null,
    extra: { code?: string | undefined; http_status?: number | undefined; reason?: UrlRefusal } = {},
    text: StringKey = errorMessageKey(kind),
    canRetry = false,
    name: FlowStateName = 'error',
  ): void {
    this.#set(name, booking, text, canRetry);
    const event = { type: 'error', kind, message, ...extra } as FlowEvent & Record<string, unknown>;
    for (const field in event) if (event[field] === undefined) delete event[field];
    this.#deps.emit(event);
  }

  #keep(config: FlowConfig, kept: KeptBooking): void {
    this.#attempt = null;
    this.#deps.store.setAttempt(keyOf(config), null);
    this.#deps.store.save(keyOf(config), kept);
  }

  #load(config: FlowConfig): KeptBooking | null {
    return config.endpoint && config.order ? this.#deps.store.load(keyOf(config)) : null;
  }

  #clearTimer(): void {
    if (this.#timer !== null) this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #set(name: FlowStateName, booking: KeptBooking | null, message?: StringKey, canRetry = false): void {
    this.#state = {
      name,
      busy: BUSY.includes(name),
      // Each state with a message shows `status.<name>`.
      message: message ?? (name === 'idle' || name === 'done' || name === 'error' ? null : (`status.${name}` as StringKey)),
      booking,
      canRetry,
    };
    this.#deps.onChange(this.#state);
  }
}

function ids({ booking_id, correlation_id }: KeptBooking): { booking_id: string; correlation_id: string } {
  return { booking_id, correlation_id };
}

function keyOf(config: FlowConfig): string {
  return bookingKey(config.endpoint ?? '', config.order);
}
