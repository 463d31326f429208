/**
 * The payment state machine, free of the DOM: the booking client, the navigator, the storage, the
 * clock and the page's visibility are all injected, so every path runs as plain functions in tests.
 */
import { IDEMPOTENCY_CONFLICT, MERCHANT_SETUP, ORDER_ALREADY_PAID, UNKNOWN_BOOKING, isFinalStatus, type Channel, type PaymentStatus, type WebPaymentInstruction } from '../../protocol/contract.js';
import type { BookingClient } from '../booking-client.js';
import type { KeptBooking } from '../session-store.js';
import type { PaymentSettings, SettingsResult } from '../settings.js';
import { checkProviderUrl } from '../urls.js';
import { IDLE_STATE, flowState, type AbandonReason, type FlowErrorKind, type FlowEvent, type FlowEventMap, type FlowState, type FlowStateName, type LeftFor } from './state.js';
import { STRATEGIES, type BookedAttempt, type PaymentPath, type StrategyContext } from '../strategies.js';
import { FlowRuns, type Run } from './runs.js';
// The booking and return-routing rules live apart, as plain functions; they do not import this file.
import { bookedAttempt, cancelQuietly, failureReport, funnelStep, hasCode, ids, isProcessed, nextAttempt, paidUrl, passingFailure, type Attempt, type FailureExtra, type Funnel } from './booking.js';
import { refusedUrlMessage, requestFailure, returnRoute, webviewEvent, webPaymentNavigation } from './booking.js';

import type { FlowDeps } from './deps.js';


/** How a failure is shown, beside its kind and message. */
interface FailOptions {
  /** The booking the state keeps (its panel stays usable). */
  booking?: KeptBooking | null;
  /** The error event's details (code, HTTP status, refusal reason). */
  extra?: FailureExtra;
  /** "Try again" is offered. */
  canRetry?: boolean;
  /** "Start again" (a new attempt, a new key) is offered. */
  canStartAgain?: boolean;
  /** The state shown (`error`, or `done` when the way back was refused). */
  name?: FlowStateName;
  /** The final status, when the payment ended. */
  outcome?: PaymentStatus | null;
}

/** Where a booking of these settings is kept (also when they have problems, if endpoint and order are readable). */
const keyOf = (read: SettingsResult): string | undefined => (read.ok ? read.settings.storageKey : read.storageKey);

/** The payment state machine of one element. */
export class PaymentFlow {
  #state = IDLE_STATE;
  #attempt: Attempt | null = null;
  #retry: (() => void) | null = null;
  /** The kept booking the shop's server answered `IP-404` for once: a second one ends it. */
  #unconfirmed: string | null = null;
  /** The live action and its timer: a newer action makes older answers stale. */
  readonly #runs: FlowRuns;
  readonly #clients = new WeakMap<PaymentSettings, BookingClient>();
  readonly #deps: FlowDeps;
  /** The settings of the next action ({@link configure}). */
  #read: SettingsResult | undefined;
  /** Settings came since the flow was built or disposed. */
  #configured = false;
  /** The funnel of the attempt under way (its steps share its id); `over` once it ended. */
  #funnel: Funnel & { over?: boolean };
  /** A booking this page cancelled itself: its CANCELED is the shopper's "cancel", not the app's. */
  #cancelledHere: string | null = null;

  constructor(deps: FlowDeps) {
    this.#deps = deps;
    this.#runs = new FlowRuns(deps);
    this.#funnel = deps.funnel ?? { id: crypto.randomUUID(), at: deps.clock.now() };
  }

  /** Reports a funnel step of the attempt under way (or of `kept`'s attempt, after a reload). */
  #step<K extends 'pressed' | 'left' | 'returned' | 'confirmed' | 'abandoned'>(type: K, detail: Omit<FlowEventMap[K], 'attempt_id' | 'elapsed_ms'>, kept?: KeptBooking): void {
    const funnel = kept?.attempt_id && kept.attempt_at !== undefined ? { id: kept.attempt_id, at: kept.attempt_at } : this.#funnel;
    this.#deps.emit({ type, ...funnelStep(funnel, this.#deps.clock.now()), ...detail } as unknown as FlowEvent);
  }

  /** A press: a new funnel when the last one ended (or belongs to a booking followed since), then `pressed`. */
  #pressed(path: PaymentPath): void {
    // Its own ids, not the Idempotency-Keys': a funnel id is shared with analytics, a key is not.
    if (this.#funnel.over) this.#funnel = { id: crypto.randomUUID(), at: this.#deps.clock.now() };
    this.#step('pressed', { path });
  }

  /** The funnel of `kept` ended: a later press starts a new one. */
  #funnelOver(kept: KeptBooking): void {
    if (!kept.attempt_id || kept.attempt_id === this.#funnel.id) this.#funnel.over = true;
  }

  /**
   * The shopper followed one of the in-app actions (the app link, their own browser): reported as the
   * funnel's `left` step. "Pay on the web" reports itself when it leaves.
   */
  left(to: LeftFor): void {
    const booking = this.#state.booking;
    if (booking) this.#step('left', { booking_id: booking.booking_id, to }, booking);
  }

  /** The current state. */
  get state(): FlowState {
    return this.#state;
  }

  /**
   * The element's settings, read when one of them changed, when the element was attached, or at a
   * press (the environment rule reads the page of that moment): the flow keeps them for its next
   * action. While no payment is under way, the first settings, settings of another order, and the
   * first after {@link dispose} are also a way back: a booking kept for that order in this tab is
   * checked, an order this tab paid shows paid, and a paid or finished state of another order goes
   * back to idle. A payment under way goes on with the settings it started with.
   */
  configure(read: SettingsResult): void {
    const before = this.#read;
    this.#read = read;
    const fresh = !this.#configured;
    this.#configured = true;
    // Another order while a payment is under way: that payment keeps its own settings (its kept
    // booking carries them) and goes on as it is.
    if (fresh || (keyOf(before!) !== keyOf(read) && !this.#state.booking && !this.#state.busy)) this.resume();
  }

  /**
   * The shopper pressed the pay button (`wallet`'s, where the shop offers several): pays with the
   * settings last {@link configure}d. Ignored while busy. Returns whether it started something.
   */
  start(wallet?: string): boolean {
    const read = this.#read;
    if (this.#state.busy || !read) return false;
    if (!read.ok) {
      this.#retry = null;
      const framed = read.problems.find((problem) => problem.kind === 'framed');
      this.#fail(framed ? 'framed' : 'config', (framed ? [framed] : read.problems).map((problem) => problem.message).join(' '));
      return false;
    }
    this.#pressed(read.settings.environment);
    // The wallet rides in the press's settings snapshot: the book request and the kept booking carry it.
    this.#pay(wallet ? { ...read.settings, wallet } : read.settings, true);
    return true;
  }

  /**
   * "Pay with the app on your phone" (desktop only): an `app` booking on an attempt of its own, shown
   * as a code for the phone while this page follows its status. A booking already kept for this order
   * is checked instead, so the shopper never holds two open bookings. Returns whether it started.
   */
  handOff(): boolean {
    const read = this.#read;
    if (this.#state.busy || !read) return false;
    if (!read.ok) return this.start();
    if (read.settings.environment !== 'desktop') return false;
    this.#pressed('handoff');
    this.#pay(read.settings, true, 'handoff');
    return true;
  }

  /** "Get a new code": the hand-off's booking expired unpaid; a new attempt (a new key) books again. */
  newCode(): void {
    const booking = this.#state.name === 'handoff-expired' ? this.#state.booking : null;
    if (!booking) return;
    this.#deps.store.clear(booking.settings.storageKey);
    this.#attempt = { key: this.#deps.newKey(), environment: 'handoff', settings: booking.settings };
    void STRATEGIES.handoff.start(this.#context(this.#begin(), this.#attempt));
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
    // An expired hand-off is already final at the service: nothing is left to cancel.
    if (this.#state.name === 'handoff-expired') return this.#finish(booking, 'CANCELED');
    const run = this.#begin('cancelling', booking);
    this.#cancelledHere = booking.booking_id;
    this.#client(booking.settings)
      .cancel(ids(booking), run.signal)
      .then(
        (result) => {
          if (!this.#live(run)) return;
          this.#deps.emit({ type: 'cancel', booking_id: result.booking_id, status: result.status });
          this.#finish(booking, isFinalStatus(result.status) ? result.status : 'CANCELED');
        },
        // Already processed: the status decides where the shopper goes (it may have succeeded).
        (error: unknown) => this.#live(run) && (isProcessed(error) ? this.#verify(booking, 0) : this.#failRequest(error, () => this.cancel(), booking)),
      );
  }

  /**
   * "Start again", after the shop's server lost the kept booking: a new attempt with a new key, with
   * the settings of this press.
   */
  startAgain(): boolean {
    if (this.#state.busy) return false;
    // With the wallet the lost booking was for: "Start again" is the same choice, booked anew.
    const wallet = this.#state.booking?.settings.wallet ?? this.#attempt?.settings.wallet;
    this.#attempt = null;
    return this.start(wallet);
  }

  /**
   * "Pay on the web instead": the app booking may already have been paid, so its status is asked
   * first; an open app booking is cancelled before a new web attempt, so the shopper cannot pay twice.
   */
  payOnWeb(): void {
    const booking = this.#idle();
    if (!booking) return;
    const run = this.#begin('verifying', booking);
    const settings: PaymentSettings = { ...booking.settings, environment: 'desktop' };
    const client = this.#client(booking.settings);
    client
      .status(ids(booking), run.signal)
      .then(async (result) => {
        if (!this.#live(run)) return;
        if (result.status === 'SUCCESS') return this.#finish(booking, 'SUCCESS');
        if (!isFinalStatus(result.status)) {
          try {
            await client.cancel(ids(booking), run.signal);
          } catch (error) {
            if (this.#live(run) && isProcessed(error)) return this.#verify(booking, 0);
            throw error;
          }
        }
        if (!this.#live(run)) return;
        this.#deps.store.clear(settings.storageKey);
        this.#attempt = { key: this.#deps.newKey(), environment: 'desktop', settings };
        void STRATEGIES.desktop.start(this.#context(run, this.#attempt));
      })
      .catch((error: unknown) => this.#live(run) && this.#failRequest(error, () => this.payOnWeb(), booking));
  }

  /**
   * The page came back (bfcache `pageshow`, visible again) or was freshly loaded: a kept booking is
   * checked and routed. The booking the flow already follows keeps its own settings; otherwise the
   * configured settings say which booking to look for. Nothing happens without one, or while a
   * request is already running. `visibleAgain`: the page only became visible again (the shopper may
   * be paying in another tab), so a web booking still open is not taken for one left unpaid.
   */
  resume(visibleAgain = false): void {
    const read = this.#read;
    const name = this.#state.name;
    const left = name === 'opening-app' || name === 'redirecting';
    if (this.#state.busy && !left) return;
    const known = this.#state.booking?.settings ?? this.#attempt?.settings ?? (read?.ok ? read.settings : null);
    const key = known?.storageKey ?? (read && keyOf(read));
    const kept = key ? this.#deps.store.load(key, known) : null;
    if (kept) {
      this.#step('returned', { booking_id: kept.booking_id }, kept);
      return this.#verify(kept, 0, !visibleAgain);
    }
    const paid = key ? this.#deps.store.paid(key) : null;
    if (paid) this.#set('paid', null, { paidUrl: paid.url });
    else if (name === 'redirecting' || name === 'done' || name === 'paid') this.#set('idle', null);
  }

  /** Stops every timer and request and drops late answers (element disconnected). */
  dispose(): void {
    this.#begin();
    // Attached again, the element pushes its settings again: the flow then looks for its way back.
    this.#configured = false;
    // A dropped answer must not leave the button busy forever if the element is attached again; the
    // attempt (and its key) stays, so pressing again re-books idempotently.
    if (this.#state.busy) this.#set('idle', null);
  }

  /** Pays with `settings` on `path`: a kept booking is checked, else the attempt's strategy runs. */
  #pay(settings: PaymentSettings, pressed: boolean, path: PaymentPath = settings.environment): void {
    const kept = this.#deps.store.load(settings.storageKey, settings);
    // A booking is already in flight: asking again must not book twice.
    if (kept) return this.#verify(kept, 0);
    // This tab paid this order already: say so instead of offering to pay again.
    const paid = this.#deps.store.paid(settings.storageKey);
    if (paid) return this.#set('paid', null, { paidUrl: paid.url });
    // A retry keeps the attempt (its key); a fresh press or another order may start a new one.
    const attempt = (this.#attempt = nextAttempt(this.#attempt, settings, path, pressed, this.#deps));
    void STRATEGIES[attempt.environment].start(this.#context(this.#begin(), attempt));
  }

  /** The booking the panel acts on, when nothing is running. */
  #idle(): KeptBooking | null {
    return this.#state.busy ? null : this.#state.booking;
  }

  /** Starts a new action: the previous one's requests are aborted, its answers and timers dropped. */
  #begin(name?: FlowStateName, booking: KeptBooking | null = null): Run {
    const run = this.#runs.next();
    if (name) this.#set(name, booking);
    return run;
  }

  #live(run: Run): boolean {
    return this.#runs.live(run);
  }

  #client(settings: PaymentSettings): BookingClient {
    let client = this.#clients.get(settings);
    if (!client) this.#clients.set(settings, (client = this.#deps.client(settings)));
    return client;
  }

  #context(run: Run, attempt: Attempt): StrategyContext {
    return {
      book: (channel) => this.#book(run, attempt, channel),
      followWebPayment: (booked) => this.#followWebPayment(run, booked),
      openApp: (booked) => this.#openApp(run, booked),
      showCode: (booked) => this.#showCode(run, booked),
      handOver: () => this.#handOver(attempt),
      showInApp: (booked) => this.#showInApp(run, booked),
    };
  }

  /**
   * Offers the payment to a host app (the cancelable `webview` event). Taken: nothing more here. Not
   * taken: the in-app path goes on, when the settings allow a booking; else the set-up is named.
   */
  #handOver(attempt: Attempt): boolean {
    const { settings } = attempt;
    if (!this.#deps.emit(webviewEvent(settings))) {
      this.#attempt = null;
      this.#set('webview', null);
      return true;
    }
    if (settings.endpoint && settings.allowedHosts.length && Object.keys(settings.order).length) return false;
    this.#attempt = null;
    this.#retry = null;
    this.#fail('config', 'No host app took the payment (nobody called preventDefault() on wallet-pay-webview), and endpoint, order-id or allowed-hosts is missing for paying in this browser.');
    return true;
  }

  /**
   * In a third-party in-app browser: the booking is kept, its deeplink checked (it becomes a link the
   * shopper taps), and this page follows its status while the shopper pays in the app or on the web.
   */
  #showInApp(run: Run, { kept, result }: BookedAttempt): void {
    const checked = this.#checked(run, kept, result.deeplink);
    if (!checked) return;
    kept.deeplink = checked.href;
    this.#keep(kept);
    this.#waitFor(run, kept, 'BOOKED', 0);
  }

  async #book(run: Run, attempt: Attempt, channel: Channel): Promise<BookedAttempt | null> {
    const { key, environment, settings } = attempt;
    this.#deps.store.setAttempt(settings.storageKey, `${environment}:${key}`);
    this.#set('booking', null);
    try {
      const handoff = environment === 'handoff';
      const { order, wallet } = settings;
      const result = await this.#client(settings).book({ channel, order, ...(wallet && { wallet }), ...(handoff && { handoff }) }, key, run.signal, this.#funnel.id);
      if (!this.#live(run)) return null;
      const { event, ...booked } = bookedAttempt(attempt, channel, result, this.#deps.clock.now(), this.#funnel);
      this.#deps.emit(event);
      return booked;
    } catch (error) {
      if (!this.#live(run)) return null;
      // The key is bound to another body on the server (the order changed since it was kept): this
      // attempt cannot go on with it. A new key, once, without asking the shopper.
      if (hasCode(error, IDEMPOTENCY_CONFLICT) && !attempt.renewed) {
        this.#attempt = { key: this.#deps.newKey(), environment, settings, renewed: true };
        return this.#book(run, this.#attempt, channel);
      }
      if (hasCode(error, ORDER_ALREADY_PAID)) {
        // Paid already (in another tab, or before): nothing to book, nothing to retry.
        this.#attempt = null;
        this.#deps.store.setAttempt(settings.storageKey, null);
        const url = paidUrl(settings);
        this.#deps.store.setPaid(settings.storageKey, { booking_id: '', url });
        this.#set('paid', null, { paidUrl: url });
        return null;
      }
      this.#failRequest(error, () => this.#pay(settings, false), null);
      return null;
    }
  }

  /**
   * Checks a provider URL; a refused one ends the attempt with an error and `null`. The booking it
   * came with is cancelled (best effort): it must not stay open at the service until it expires.
   */
  #checked(run: Run, kept: KeptBooking, raw: string | undefined): URL | null {
    if (!this.#live(run)) return null;
    const { allowedHosts, storageKey } = kept.settings;
    const check = checkProviderUrl(raw, allowedHosts);
    if (check.ok) return check.url;
    cancelQuietly(this.#client(kept.settings), kept);
    // That booking is over: trying again is a new attempt, with a new key.
    this.#attempt = null;
    this.#deps.store.setAttempt(storageKey, null);
    this.#retry = () => this.#pay(kept.settings, false);
    this.#fail('url-refused', refusedUrlMessage(raw, check.reason, kept), { extra: { reason: check.reason, url: raw ?? '' }, canRetry: true });
    return null;
  }

  /**
   * "Continue to the payment page": back from the provider's page without paying, the same booking's
   * web payment is followed again (its address checked again: it comes back from storage).
   */
  continueWebPayment(): void {
    const booking = this.#idle();
    if (!booking?.web_payment) return;
    const run = this.#begin();
    this.#navigateWebPayment(run, booking, booking.web_payment);
  }

  #followWebPayment(run: Run, { kept, result }: BookedAttempt): void {
    kept.web_payment = result.web_payment!;
    this.#navigateWebPayment(run, kept, kept.web_payment);
  }

  #navigateWebPayment(run: Run, kept: KeptBooking, instruction: WebPaymentInstruction): void {
    const checked = this.#checked(run, kept, instruction.url);
    if (!checked) return;
    this.#keep(kept);
    const { url, post, fields, event } = webPaymentNavigation(checked, instruction, kept.booking_id);
    this.#set('redirecting', kept);
    this.#step('left', { booking_id: kept.booking_id, to: 'web' }, kept);
    // A host that routes itself keeps the element usable; the kept booking answers the next press.
    if (!this.#deps.emit(event)) this.#set('idle', null);
    else if (post) this.#deps.navigator().postForm(url, fields);
    else this.#deps.navigator().assign(url);
  }

  #openApp(run: Run, { kept, result }: BookedAttempt): void {
    const checked = this.#checked(run, kept, result.deeplink);
    if (!checked) return;
    const url = (kept.deeplink = checked.href);
    this.#keep(kept);
    this.#set('opening-app', kept);
    this.#step('left', { booking_id: kept.booking_id, to: 'app' }, kept);
    // Synchronously after the booking's answer: still inside the click's activation window.
    if (this.#deps.emit({ type: 'navigate', reason: 'app', url, method: 'GET', booking_id: kept.booking_id })) {
      this.#deps.navigator().openApp(url);
    }
    this.#runs.later(run, this.#deps.timings().fallbackDelayMs, () => {
      // Hidden means the app (probably) took over; the way back is resume(), not a panel.
      if (this.#state.name === 'opening-app' && this.#deps.isVisible()) this.#set('app-fallback', kept);
    });
  }

  /**
   * The hand-off's code shows (its deeplink checked like any provider URL) and this page checks the
   * booking's status with the usual backoff while the shopper pays on the phone.
   */
  #showCode(run: Run, { kept, result }: BookedAttempt): void {
    const checked = this.#checked(run, kept, result.deeplink);
    if (!checked) return;
    kept.deeplink = checked.href;
    this.#keep(kept);
    this.#step('left', { booking_id: kept.booking_id, to: 'phone' }, kept);
    this.#waitFor(run, kept, 'BOOKED', 0);
  }

  /** The state that shows while `kept` is waited for: its code, its in-app actions, or the pending panel. */
  #waiting(kept: KeptBooking): FlowStateName {
    return kept.handoff ? 'handoff' : kept.inapp ? 'inapp' : 'pending';
  }

  /**
   * Back from the provider's web page with the booking still open: the shopper left without paying.
   * It is cancelled at the service (no stale page can pay it later) and the button is ready again. When
   * the provider itself sent the shopper to the return address naming this booking (a web checkout's
   * failure redirect: eSewa's names no status, and its status check cannot tell a failed payment from
   * one never started), the payment ended there: the shopper goes on to the failure page.
   */
  #abandonBack(kept: KeptBooking): void {
    const run = this.#begin('cancelling', kept);
    const sentBack = returnedFor(this.#read, kept.booking_id);
    this.#client(kept.settings)
      .cancel(ids(kept), run.signal)
      .then(
        () => {
          if (!this.#live(run)) return;
          if (sentBack) return this.#finish(kept, 'CANCELED');
          this.#deps.store.clear(kept.settings.storageKey);
          this.#attempt = null;
          this.#step('abandoned', { booking_id: kept.booking_id, reason: 'back' }, kept);
          this.#funnelOver(kept);
          this.#set('idle', null);
        },
        // Processed meanwhile (paid, say): its status decides. A failed cancel leaves the usual choices.
        (error: unknown) => this.#live(run) && (isProcessed(error) ? this.#verify(kept, 0) : this.#failRequest(error, () => this.#abandonBack(kept), kept)),
      );
  }

  #verify(kept: KeptBooking, checkNumber: number, returning = false): void {
    // A hand-off's checks run behind its code; while reconnecting, a check keeps the panel and the
    // note up until it answers (a server that hangs takes the request's whole timeout).
    const { name, booking, reconnecting } = this.#state;
    const waiting = booking === kept && (name === 'handoff' || name === 'pending');
    const run = this.#runs.next();
    const inapp = booking === kept && name === 'inapp';
    this.#set(kept.handoff ? 'handoff' : inapp ? 'inapp' : waiting && reconnecting ? 'pending' : 'verifying', kept, waiting || inapp ? { reconnecting } : {});
    this.#client(kept.settings)
      .status(ids(kept), run.signal)
      .then(
        ({ status }) =>
          this.#live(run) &&
          // The service reports an unpaid booking past its expiry as CANCELED and a status answer does
          // not tell that from a cancel on the phone: either way the code is dead and a new one is offered.
          (kept.handoff && status === 'CANCELED'
            ? this.#handoffExpired(kept)
            : isFinalStatus(status)
              ? this.#finish(kept, status)
              : returning && status === 'BOOKED' && kept.channel === 'web'
                ? this.#abandonBack(kept)
                : this.#waitFor(run, kept, status, checkNumber)),
        (error: unknown) => this.#live(run) && !this.#outlive(run, kept, error, checkNumber, waiting) && this.#failRequest(error, () => this.#verify(kept, checkNumber), kept),
      );
  }

  /**
   * A status check failed while the element waits for a result (the hand-off, the pending panel,
   * coming back from the app): when the shop's server did not answer or the device is offline, the
   * wait goes on with the usual backoff and says it is reconnecting. Returns false when the failure
   * ends the wait instead (a refusal, past the five minutes, or a web payment's first check on return).
   */
  #outlive(run: Run, kept: KeptBooking, error: unknown, checkNumber: number, waiting: boolean): boolean {
    const who = passingFailure(error);
    if (!who || !(waiting || kept.handoff || kept.inapp || kept.channel === 'app')) return false;
    const { pollDelaysMs, finalCheckAfterMs } = this.#deps.timings();
    const elapsed = this.#deps.clock.now() - kept.started_at;
    if (elapsed >= finalCheckAfterMs) return false;
    this.#set(this.#waiting(kept), kept, { reconnecting: who });
    const backoff = pollDelaysMs[Math.min(checkNumber, pollDelaysMs.length - 1)] ?? 0;
    this.#runs.later(run, Math.min(backoff, finalCheckAfterMs - elapsed), () => this.#verify(kept, checkNumber + 1));
    return true;
  }

  /** BOOKED/PENDING: check again with backoff until five minutes after the booking, then one last check. */
  #waitFor(run: Run, kept: KeptBooking, status: PaymentStatus, checkNumber: number): void {
    const { pollDelaysMs, finalCheckAfterMs } = this.#deps.timings();
    const elapsed = this.#deps.clock.now() - kept.started_at;
    if (elapsed >= finalCheckAfterMs) return this.#set('stalled', kept);
    this.#set(this.#waiting(kept), kept);
    this.#deps.emit({ type: 'pending', booking_id: kept.booking_id, status, elapsed_ms: elapsed });
    const backoff = pollDelaysMs[Math.min(checkNumber, pollDelaysMs.length - 1)] ?? 0;
    this.#runs.later(run, Math.min(backoff, finalCheckAfterMs - elapsed), () => this.#verify(kept, checkNumber + 1));
  }

  /** The hand-off's code expired unpaid: a new one is offered; the funnel reports the attempt abandoned. */
  #handoffExpired(kept: KeptBooking): void {
    this.#step('abandoned', { booking_id: kept.booking_id, reason: 'expired' }, kept);
    this.#funnelOver(kept);
    this.#set('handoff-expired', kept);
  }

  /** Why a CANCELED payment ended: cancelled here, in the app, or (past the five-minute wait) expired. */
  #cancelReason(kept: KeptBooking): AbandonReason {
    if (this.#cancelledHere === kept.booking_id) return 'cancel';
    return this.#deps.clock.now() - kept.started_at >= this.#deps.timings().finalCheckAfterMs ? 'expired' : 'cancelled';
  }

  #finish(kept: KeptBooking, status: PaymentStatus): void {
    const { booking_id, settings } = kept;
    this.#deps.store.clear(settings.storageKey);
    this.#attempt = null;
    const success = status === 'SUCCESS';
    const outcome = success ? 'success' : 'failure';
    this.#step('confirmed', { booking_id, status }, kept);
    if (status === 'CANCELED') this.#step('abandoned', { booking_id, reason: this.#cancelReason(kept) }, kept);
    this.#funnelOver(kept);
    this.#deps.emit({ type: outcome, booking_id, status });
    this.#set('done', null, { outcome: status });
    const { url, refused } = returnRoute(settings, booking_id, status);
    if (success) this.#deps.store.setPaid(settings.storageKey, { booking_id, url });
    if (refused) return this.#fail('return-url-refused', `The ${outcome} URL was refused (${refused}).`, { extra: { reason: refused }, name: 'done', outcome: status });
    if (url && this.#deps.emit({ type: 'navigate', reason: outcome, url, method: 'GET', booking_id })) this.#deps.navigator().assign(url);
  }

  #failRequest(error: unknown, retry: () => void, booking: KeptBooking | null): void {
    const { e, extra } = requestFailure(error);
    // An abandoned request is never shown: the action that abandoned it owns the state.
    if (e.kind === 'aborted') return;
    if (e.code === MERCHANT_SETUP) {
      // Only the shop can fix its set-up: no "try again" that cannot succeed (the pay button stays).
      this.#retry = null;
      return this.#fail('merchant-setup', e.message, { booking, extra });
    }
    if (booking && e.code === UNKNOWN_BOOKING && this.#unconfirmed !== booking.booking_id) {
      // The shop's server cannot find this booking (a restart, an eviction). It may have been paid: no
      // new payment yet. It stays kept, and "Check again" (or the pay button) asks its status once
      // more, by its ids, which lets the shop confirm it with the service.
      this.#unconfirmed = booking.booking_id;
      this.#retry = () => this.#verify(booking, 0);
      return this.#fail('booking-unconfirmed', e.message, { booking, extra, canRetry: true });
    }
    if (booking && e.code === UNKNOWN_BOOKING) {
      // Checked again and still unknown: forget it too; the shopper may start again.
      this.#unconfirmed = null;
      this.#deps.store.clear(booking.settings.storageKey);
      this.#deps.store.setAttempt(booking.settings.storageKey, null);
      this.#attempt = null;
      this.#retry = null;
      return this.#fail('booking-lost', e.message, { extra, canStartAgain: true });
    }
    this.#retry = retry;
    this.#fail(e.kind, e.message, { booking, extra, canRetry: true });
  }

  /**
   * Shows a failure, then reports it: listeners of the error event see the element already showing it.
   * By default the state is `error`, with no booking, no way forward offered and no outcome.
   */
  #fail(kind: FlowErrorKind, message: string, options: FailOptions = {}): void {
    const { booking = null, extra = {}, canRetry = false, canStartAgain = false, name = 'error', outcome = null } = options;
    const { shown, event } = failureReport(kind, message, extra);
    this.#set(name, booking, { canRetry, canStartAgain, error: shown, outcome });
    this.#deps.emit(event);
  }

  #keep(kept: KeptBooking): void {
    this.#attempt = null;
    this.#deps.store.setAttempt(kept.settings.storageKey, null);
    this.#deps.store.save(kept.settings.storageKey, kept);
  }

  #set(name: FlowStateName, booking: KeptBooking | null, extra: Partial<Omit<FlowState, 'name' | 'busy' | 'booking'>> = {}): void {
    this.#state = flowState(name, booking, extra);
    this.#deps.onChange(this.#state);
  }
}

/**
 * Whether this page is the return address the provider sent the shopper to for `bookingId` (its
 * `booking_id` parameter; a value eSewa glued `?data=` onto is read up to its `?`).
 */
function returnedFor(read: SettingsResult | undefined, bookingId: string): boolean {
  if (!read?.ok) return false;
  try {
    return new URL(read.settings.pageUrl).searchParams.get('booking_id')?.split('?')[0] === bookingId;
  } catch {
    return false;
  }
}
