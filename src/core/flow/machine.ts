/**
 * The payment state machine, free of the DOM: the booking client, the navigator, the storage, the
 * clock and the page's visibility are all injected, so every path runs as plain functions in tests.
 *
 * The machine is the flow's face and its entry points; the jobs behind them are plain functions over
 * the flow's context (`context.ts`): the attempts and their bookings (`attempts.ts`), the legs that
 * leave the page (`legs.ts`), the wait for a kept booking (`waiting.ts`), the cancel and abandon paths
 * (`abandon.ts`) and the ends of a payment (`outcome.ts`). Its rules (`booking.ts`) hold no state.
 */
import type { SettingsResult } from '../settings.js';
import type { PaymentPath } from '../strategies.js';
// Aliased: the methods of the same names delegate to them.
import { cancel as cancelPayment } from './abandon.js';
import { newCode as bookNewCode, pay, payOnWeb as switchToWeb } from './attempts.js';
import { begin, fail, flowContext, idleBooking, setState, step, type FlowContext } from './context.js';
import type { FlowDeps } from './deps.js';
import { navigateWebPayment } from './legs.js';
import type { FlowState, LeftFor } from './state.js';
import { verify } from './waiting.js';

/** Where a booking of these settings is kept (also when they have problems, if endpoint and order are readable). */
const keyOf = (read: SettingsResult): string | undefined => (read.ok ? read.settings.storageKey : read.storageKey);

/** The payment state machine of one element. */
export class PaymentFlow {
  /** What the flow holds; its parts read and change it. */
  readonly #ctx: FlowContext;
  /** Settings came since the flow was built or disposed. */
  #configured = false;

  constructor(deps: FlowDeps) {
    this.#ctx = flowContext(deps, {
      verify: (kept, checkNumber, returning) => verify(this.#ctx, kept, checkNumber, returning),
      pay: (settings, pressed, path) => pay(this.#ctx, settings, pressed, path),
    });
  }

  /** A press (on `wallet`'s button, if any): a new funnel when the last one ended (or belongs to a booking followed since), then `pressed`. */
  #pressed(path: PaymentPath, wallet?: string): void {
    const ctx = this.#ctx;
    // Its own ids, not the Idempotency-Keys': a funnel id is shared with analytics, a key is not.
    if (ctx.funnel.over) ctx.funnel = { id: crypto.randomUUID(), at: ctx.deps.clock.now() };
    step(ctx, 'pressed', { path, ...(wallet && { wallet }) });
  }

  /**
   * The shopper followed one of the in-app actions (the app link, their own browser): reported as the
   * funnel's `left` step. "Pay on the web" reports itself when it leaves.
   */
  left(to: LeftFor): void {
    const booking = this.#ctx.state.booking;
    if (booking) step(this.#ctx, 'left', { booking_id: booking.booking_id, to }, booking);
  }

  /** The current state. */
  get state(): FlowState {
    return this.#ctx.state;
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
    const ctx = this.#ctx;
    const before = ctx.read;
    ctx.read = read;
    const fresh = !this.#configured;
    this.#configured = true;
    // Another order while a payment is under way: that payment keeps its own settings (its kept
    // booking carries them) and goes on as it is.
    if (fresh || (keyOf(before!) !== keyOf(read) && !ctx.state.booking && !ctx.state.busy)) this.resume();
  }

  /**
   * The shopper pressed the pay button (`wallet`'s, where the shop offers several): pays with the
   * settings last {@link configure}d. Ignored while busy. Returns whether it started something.
   */
  start(wallet?: string): boolean {
    const ctx = this.#ctx;
    const read = ctx.read;
    if (ctx.state.busy || !read) return false;
    if (!read.ok) {
      ctx.retry = null;
      const framed = read.problems.find((problem) => problem.kind === 'framed');
      fail(ctx, framed ? 'framed' : 'config', (framed ? [framed] : read.problems).map((problem) => problem.message).join(' '));
      return false;
    }
    this.#pressed(read.settings.environment, wallet);
    // The wallet rides in the press's settings snapshot: the book request and the kept booking carry it.
    pay(ctx, wallet ? { ...read.settings, wallet } : read.settings, true);
    return true;
  }

  /**
   * "Pay with the app on your phone" (desktop only): an `app` booking on an attempt of its own, shown
   * as a code for the phone while this page follows its status. A booking already kept for this order
   * is checked instead, so the shopper never holds two open bookings. Returns whether it started.
   */
  handOff(): boolean {
    const read = this.#ctx.read;
    if (this.#ctx.state.busy || !read) return false;
    if (!read.ok) return this.start();
    if (read.settings.environment !== 'desktop') return false;
    this.#pressed('handoff');
    pay(this.#ctx, read.settings, true, 'handoff');
    return true;
  }

  /** "Get a new code": the hand-off's booking expired unpaid; a new attempt (a new key) books again. */
  newCode(): void {
    bookNewCode(this.#ctx);
  }

  /** Retries the last failed action (same Idempotency-Key for a booking). */
  retry(): void {
    if (!this.#ctx.state.busy) this.#ctx.retry?.();
  }

  /** "Check again": one status check now. */
  checkAgain(): void {
    const booking = idleBooking(this.#ctx);
    if (booking) verify(this.#ctx, booking, 0);
  }

  /** "Cancel payment". */
  cancel(): void {
    cancelPayment(this.#ctx);
  }

  /**
   * "Start again", after the shop's server lost the kept booking: a new attempt with a new key, with
   * the settings of this press.
   */
  startAgain(): boolean {
    const ctx = this.#ctx;
    if (ctx.state.busy) return false;
    // With the wallet the lost booking was for: "Start again" is the same choice, booked anew.
    const wallet = ctx.state.booking?.settings.wallet ?? ctx.attempt?.settings.wallet;
    ctx.attempt = null;
    return this.start(wallet);
  }

  /**
   * "Pay on the web instead": the app booking may already have been paid, so its status is asked
   * first; an open app booking is cancelled before a new web attempt, so the shopper cannot pay twice.
   */
  payOnWeb(): void {
    switchToWeb(this.#ctx);
  }

  /**
   * "Continue to the payment page": back from the provider's page without paying, the same booking's
   * web payment is followed again (its address checked again: it comes back from storage).
   */
  continueWebPayment(): void {
    const booking = idleBooking(this.#ctx);
    if (booking?.web_payment) navigateWebPayment(this.#ctx, begin(this.#ctx), booking, booking.web_payment);
  }

  /**
   * The page came back (bfcache `pageshow`, visible again) or was freshly loaded: a kept booking is
   * checked and routed. The booking the flow already follows keeps its own settings; otherwise the
   * configured settings say which booking to look for. Nothing happens without one, or while a
   * request is already running. `visibleAgain`: the page only became visible again (the shopper may
   * be paying in another tab), so a web booking still open is not taken for one left unpaid.
   */
  resume(visibleAgain = false): void {
    const ctx = this.#ctx;
    const { read, state, deps } = ctx;
    const left = state.name === 'opening-app' || state.name === 'redirecting';
    if (state.busy && !left) return;
    const known = state.booking?.settings ?? ctx.attempt?.settings ?? (read?.ok ? read.settings : null);
    const key = known?.storageKey ?? (read && keyOf(read));
    const kept = key ? deps.store.load(key, known) : null;
    if (kept) {
      step(ctx, 'returned', { booking_id: kept.booking_id }, kept);
      return verify(ctx, kept, 0, !visibleAgain);
    }
    const paid = key ? deps.store.paid(key) : null;
    if (paid) setState(ctx, 'paid', null, { paidUrl: paid.url });
    else if (state.name === 'redirecting' || state.name === 'done' || state.name === 'paid') setState(ctx, 'idle', null);
  }

  /** Stops every timer and request and drops late answers (element disconnected). */
  dispose(): void {
    begin(this.#ctx);
    // Attached again, the element pushes its settings again: the flow then looks for its way back.
    this.#configured = false;
    // A dropped answer must not leave the button busy forever if the element is attached again; the
    // attempt (and its key) stays, so pressing again re-books idempotently.
    if (this.#ctx.state.busy) setState(this.#ctx, 'idle', null);
  }
}
