/** What the payment flow reports: its events (the one list of them) and its state, free of any text. */
import type { Channel, OrderReference, PaymentStatus } from '../../protocol/contract.js';
import type { BookingErrorKind } from '../booking-client.js';
import type { KeptBooking } from '../session-store.js';
import type { UrlRefusal } from '../urls.js';
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
 * Every event the flow reports to its host, by type, with its detail: the one list the element's DOM
 * events, their typings and the React wrapper's props are derived from.
 */
export interface FlowEventMap {
  /** The proxy booked the payment. */
  booked: { booking_id: string; correlation_id: string; channel: Channel; handoff?: true };
  /** Just before leaving the page; the host may cancel it and route itself. */
  navigate: {
    reason: 'app' | 'web-payment' | 'success' | 'failure';
    url: string;
    method: 'GET' | 'POST';
    fields?: Record<string, string>;
    booking_id: string;
  };
  /** In a WebView, instead of booking: the host app takes over. */
  webview: { order: OrderReference; endpoint: string; success_url: string | null; failure_url: string | null };
  /** A status check answered BOOKED or PENDING; checking continues. */
  pending: { booking_id: string; status: PaymentStatus; elapsed_ms: number };
  /** The payment succeeded. */
  success: { booking_id: string; status: PaymentStatus };
  /** The payment failed, was cancelled or reverted. */
  failure: { booking_id: string; status: PaymentStatus };
  /** The shopper cancelled the payment and the proxy confirmed it. */
  cancel: { booking_id: string; status: PaymentStatus };
  /** A failure the shopper is told about. */
  error: { kind: FlowErrorKind; message: string; code?: string; http_status?: number; reason?: UrlRefusal };
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
