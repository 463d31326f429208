/** What the payment flow needs from its host: everything it touches, injected. */
import { STATUS_CHECK_AFTER_MS } from '../../protocol/contract.js';
import type { BookingClient } from '../booking-client.js';
import type { Clock } from '../clock.js';
import type { FlowEvent, FlowState } from './state.js';
import type { PageNavigator } from '../navigator.js';
import type { BookingStore } from '../session-store.js';
import type { PaymentSettings } from '../settings.js';

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

/** What the flow needs from its host. */
export interface FlowDeps {
  navigator(): PageNavigator;
  store: BookingStore;
  clock: Clock;
  /** The booking client of a payment's settings (its endpoint and its timeout). */
  client(settings: PaymentSettings): BookingClient;
  isVisible(): boolean;
  newKey(): string;
  timings(): FlowTimings;
  /** Reports an event; returns `false` when the host cancelled it (navigate only). */
  emit(event: FlowEvent): boolean;
  /** Called after every state change. */
  onChange(state: FlowState): void;
  /** The funnel the element began when it showed the button (its `shown` event); a new one when absent. */
  funnel?: { id: string; at: number } | undefined;
}
