/**
 * The intent service's part of the sandbox's public face: its options of `startSandbox`, its members
 * of the running sandbox's handle, its defaults and what the state file keeps of it. `SandboxOptions`,
 * `Sandbox` and `SANDBOX_DEFAULTS` (src/sandbox/index.ts) take these in, so a merchant reads one
 * options type and one handle, as before.
 */
import type { CallbackAttempt, CallbackDelivery, RetryPolicy } from './callbacks.js';
import type { ProfileName } from './profiles.js';
import type { SandboxBooking } from './service.js';

/** The intent service's options of `startSandbox`. */
export interface IntentSandboxOptions {
  /** Port of the links origin the deeplinks point to; default 0 (a free port). */
  linksPort?: number;
  /** How long an unpaid booking lives before it reads as CANCELED; default 15 minutes. */
  bookingTtlMs?: number;
  /** Callback retries; default `{ attempts: 5, baseDelayMs: 1000 }` (exponential backoff). */
  callbackRetry?: RetryPolicy;
  /**
   * Refuse top-level request fields the spec does not list with IP-422. Default false: they are
   * ignored and named in a warning line of the log, as real merchant code sends some.
   */
  strict?: boolean;
  /**
   * Whether the callback of a booking's new status is sent; default: every one. A harness that must
   * not reach a foreign `callback_url`, or that drops one callback on purpose (the checker proving
   * reconciliation), says no here; the log names each one not sent.
   */
  sendCallback?: (booking: SandboxBooking) => boolean;
  /** `spec` (default) or `esewa-uat`: the provider's test service as public facts show it (docs/sandbox.md). */
  profile?: ProfileName;
}

/** The intent service's members of a running sandbox's handle. */
export interface IntentSandbox {
  /** `{links_url}`: deeplinks are `${linksUrl}/pay/${booking_id}`. */
  linksUrl: string;
  /** `${baseUrl}/web/pay`: the provider's web payment page (desktop path). */
  webPaymentUrl: string;
  /** A copy of one booking, with expiry applied. */
  getBooking(bookingId: string): SandboxBooking | undefined;
  /** Copies of every booking, oldest first. */
  listBookings(): SandboxBooking[];
  /** Every callback delivery attempt so far. */
  callbackAttempts(): CallbackAttempt[];
  /** Resolves when no callback delivery is in flight or scheduled. */
  whenCallbacksSettled(): Promise<void>;
  /** Refunds a SUCCESS booking (REVERTED) and sends its callback; same as `POST /sandbox/bookings/{id}/revert`. */
  revert(bookingId: string): SandboxBooking;
  /** The callback desk: deliveries kept (the last 1000), newest first; same as `GET /sandbox/callbacks`. */
  callbackDeliveries(filter?: { state?: CallbackDelivery['state']; booking_id?: string }): CallbackDelivery[];
  /** Sets (or with null clears) the scenario every new booking of a product code gets; same as `POST /sandbox/scenario`. */
  setScenario(productCode: string, scenario: string | null): void;
}

/** The intent service's defaults, part of `SANDBOX_DEFAULTS` (the command line shows them). */
export const INTENT_SANDBOX_DEFAULTS = {
  bookingTtlMs: 15 * 60 * 1000,
  callbackRetry: { attempts: 5, baseDelayMs: 1000 },
  cliLinksPort: 4011,
} as const;

/** What the state file keeps of the intent service. */
export interface IntentState {
  bookings: SandboxBooking[];
  /** Sticky scenarios by product code. */
  sticky?: Record<string, string>;
}
