/**
 * One strategy per environment: which channel it books and what it does with the booking. The flow
 * picks one by the environment of the attempt instead of branching on it everywhere.
 */
import type { BookResult, Channel } from '../protocol/contract.js';
import type { Environment } from './environment.js';
import type { KeptBooking } from './session-store.js';

/** A booking made in this attempt, with what the strategy needs next. */
export interface BookedAttempt {
  kept: KeptBooking;
  result: BookResult;
}

/** What a strategy may ask of the flow. */
export interface StrategyContext {
  /** Books on `channel`; resolves `null` when the booking failed (the flow already shows why). */
  book(channel: Channel): Promise<BookedAttempt | null>;
  /** Follows the web-payment instruction as a top-level navigation. */
  followWebPayment(attempt: BookedAttempt): void;
  /** Opens the wallet app now (inside the click's activation) and arms the fallback panel. */
  openApp(attempt: BookedAttempt): void;
  /**
   * Offers the payment to the app around a WebView (the cancelable `webview` event): true when a host
   * app took it (no booking, no navigation), false when none did.
   */
  handOver(): boolean;
  /** Shows the booking's deeplink as a code for the shopper's phone and waits for the result here. */
  showCode(attempt: BookedAttempt): void;
}

/**
 * The path of an attempt: its environment's, or `handoff` (on a desktop, the shopper pays with the
 * app on their phone by scanning a code: an `app` booking that this page follows).
 */
export type PaymentPath = Environment | 'handoff';

/**
 * The payment path of one environment: the mobile path books on the `app` channel, the desktop one on
 * `web`; the WebView one books nothing when a host app takes the payment, and goes on as in an in-app
 * browser otherwise; the in-app one books on `web`: the button reads "Pay on the web" there.
 */
interface PaymentStrategy {
  /** Runs the path. */
  start(context: StrategyContext): Promise<void>;
}

/** The desktop's path: the web payment. */
const web: PaymentStrategy = {
  async start(context) {
    const attempt = await context.book('web');
    if (attempt) context.followWebPayment(attempt);
  },
};

/** The strategies, by path: one per environment, and the desktop's phone hand-off. */
export const STRATEGIES: Readonly<Record<PaymentPath, PaymentStrategy>> = {
  desktop: web,
  mobile: {
    async start(context) {
      const attempt = await context.book('app');
      // A wallet without an app channel at this shop answers a web payment: the phone follows it.
      if (attempt?.result.web_payment) context.followWebPayment(attempt);
      else if (attempt) context.openApp(attempt);
    },
  },
  webview: {
    async start(context) {
      if (!context.handOver()) await STRATEGIES.inapp.start(context);
    },
  },
  // Someone else's in-app browser: a script cannot open the wallet app there, and the web page
  // completes inside it, so the press goes to the web payment at once. The in-app panel offers the
  // other ways (the app, the phone's own browser) while the booking is followed on the way back.
  inapp: web,
  handoff: {
    async start(context) {
      const attempt = await context.book('app');
      if (attempt) context.showCode(attempt);
    },
  },
};
