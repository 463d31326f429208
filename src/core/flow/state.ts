/** What the payment flow reports: its events (the one list of them) and its state, free of any text. */
import type { Channel, OrderReference, PaymentStatus } from '../../protocol/contract.js';
import type { BookingErrorKind } from '../booking-client.js';
import type { KeptBooking } from '../session-store.js';
import type { UrlRefusal } from '../urls.js';
import type { PaymentPath } from '../strategies.js';
import { IDLE_STATE as IDLE } from './idle.js';

/** The state before anything happened (its own module, so the first module can render it alone). */
export const IDLE_STATE: FlowState = IDLE;

/** Every kind of failure the shopper can meet. */
export type FlowErrorKind =
  | Exclude<BookingErrorKind, 'aborted'>
  | 'url-refused'
  | 'return-url-refused'
  | 'framed'
  | 'config'
  /**
   * The shop's server answered `IP-404` for the kept booking: it is kept and checked again (the status
   * request names it by its ids, so the shop can confirm it with the service) before a new payment is offered.
   */
  | 'booking-unconfirmed'
  /** The shop's server still does not know the kept booking after that check: only a new attempt helps. */
  | 'booking-lost'
  /** The shop's server is set up wrongly for the payment service (`IP-501`): retrying cannot help. */
  | 'merchant-setup';

/**
 * What every step of the payment funnel carries: the attempt's id (the same from `shown` to
 * `confirmed` or `abandoned`, sent to the shop's server with the booking) and the time since the
 * attempt began (the button shown, or pressed again after an attempt ended).
 */
export interface FunnelStep {
  attempt_id: string;
  elapsed_ms: number;
}

/** Where the shopper went to pay: the wallet app, the provider's web page, a phone (the code), or their own browser. */
export type LeftFor = 'app' | 'web' | 'phone' | 'browser';

/**
 * Why a payment ended unpaid: `cancelled` in the wallet app (the service reports CANCELED), `expired`
 * (reported CANCELED past the five-minute wait, or the hand-off's code expired), `back` (back from the
 * provider's page with the booking still open: it is cancelled at the service), `cancel` (the shopper
 * pressed "Cancel payment" here).
 */
export type AbandonReason = 'cancelled' | 'expired' | 'back' | 'cancel';

/**
 * Every event the flow reports to its host, by type, with its detail: the one list the element's DOM
 * events, their typings and the React wrapper's props are derived from. The funnel's steps (`shown`,
 * `pressed`, `booked`, `left`, `returned`, `confirmed`, `abandoned`) carry a {@link FunnelStep}'s fields.
 */
export interface FlowEventMap {
  /** Funnel: the button was shown (fired by the element when it is first attached). */
  shown: { attempt_id: string; elapsed_ms: number };
  /** Funnel: the shopper pressed the button (or the offer to pay on the phone), on this path; `wallet`: the wallet's button pressed. */
  pressed: { attempt_id: string; elapsed_ms: number; path: PaymentPath; wallet?: string };
  /** The proxy booked the payment (`wallet`: the one pressed, else the one the server answered). */
  booked: { attempt_id: string; elapsed_ms: number; booking_id: string; correlation_id: string; channel: Channel; handoff?: true; wallet?: string };
  /** Funnel: the shopper went to pay in the wallet app, on the web page, on a phone, or in their own browser. */
  left: { attempt_id: string; elapsed_ms: number; booking_id: string; to: LeftFor };
  /** Funnel: the page came back (or was loaded again) with a payment under way. */
  returned: { attempt_id: string; elapsed_ms: number; booking_id: string };
  /** Funnel: the payment reached a final status. */
  confirmed: { attempt_id: string; elapsed_ms: number; booking_id: string; status: PaymentStatus };
  /** Funnel: the shopper left without paying; the booking is cancelled and the button is ready again. */
  abandoned: { attempt_id: string; elapsed_ms: number; booking_id: string; reason: AbandonReason };
  /** Just before leaving the page; the host may cancel it and route itself. */
  navigate: {
    reason: 'app' | 'web-payment' | 'success' | 'failure';
    url: string;
    method: 'GET' | 'POST';
    fields?: Record<string, string>;
    booking_id: string;
  };
  /**
   * In a WebView, instead of booking: cancelable. A host app that takes the payment calls
   * `preventDefault()`; when none does, the element goes on as in an in-app browser.
   */
  webview: { order: OrderReference; endpoint: string; success_url: string | null; failure_url: string | null };
  /** A status check answered BOOKED or PENDING; checking continues. */
  pending: { booking_id: string; status: PaymentStatus; elapsed_ms: number };
  /** The payment succeeded (`wallet` here and below: the booking's, when it is known). */
  success: { booking_id: string; status: PaymentStatus; wallet?: string };
  /** The payment failed, was cancelled or reverted. */
  failure: { booking_id: string; status: PaymentStatus; wallet?: string };
  /** The shopper cancelled the payment and the proxy confirmed it. */
  cancel: { booking_id: string; status: PaymentStatus; wallet?: string };
  /**
   * A failure the shopper is told about; a refused address (`url-refused`) carries the `reason` and
   * the address as it came (`url`), so a listener need not read the English `message`.
   */
  error: { kind: FlowErrorKind; message: string; code?: string; http_status?: number; reason?: UrlRefusal; url?: string };
}

/** The type of a flow event. */
export type FlowEventType = keyof FlowEventMap;

/** What the flow reports to its host; the element turns each into a DOM event. */
export type FlowEvent = { [K in FlowEventType]: { type: K } & FlowEventMap[K] }[FlowEventType];

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
  | 'inapp'
  | 'handoff'
  | 'handoff-expired'
  | 'done'
  | 'paid'
  | 'error';

/** A failure as the state shows it; the element picks the words. */
export interface FlowError {
  kind: FlowErrorKind;
  /** HTTP status, when an answer arrived. */
  httpStatus?: number;
  /** The failure envelope's code, when there was one. */
  code?: string;
}

/** A snapshot for rendering. */
export interface FlowState {
  name: FlowStateName;
  /** True while a request or a navigation is under way: clicks are ignored. */
  busy: boolean;
  /** The booking in flight, when there is one. */
  booking: KeptBooking | null;
  /** True when the "try again" action is offered. */
  canRetry: boolean;
  /** True when "start again" (a new attempt, with a new key) is offered instead. */
  canStartAgain: boolean;
  /** The failure shown, if any (also in `done` when the way back was refused). */
  error: FlowError | null;
  /** The final status, in `done`. */
  outcome: PaymentStatus | null;
  /** In `paid` (this order was paid already): its success page, when there is one. */
  paidUrl: string | null;
  /**
   * While waiting for a result (`handoff`, `pending`): the last status check failed and the element
   * keeps checking with its backoff. `server`: the shop's server did not answer (a network error, a
   * timeout or a 5xx from the endpoint); `offline`: the device is offline. `null` once a check answers.
   */
  reconnecting: 'server' | 'offline' | null;
}

/** The states in which a request or a navigation is under way: clicks are ignored. */
const BUSY: readonly FlowStateName[] = ['booking', 'redirecting', 'opening-app', 'verifying', 'cancelling'];

/** The state named `name`, its `busy` flag derived from the name, the rest as `extra` says or idle. */
export function flowState(name: FlowStateName, booking: KeptBooking | null, extra: Partial<Omit<FlowState, 'name' | 'busy' | 'booking'>> = {}): FlowState {
  return { ...IDLE_STATE, name, busy: BUSY.includes(name), booking, ...extra };
}
