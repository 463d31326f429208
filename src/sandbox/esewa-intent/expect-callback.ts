/**
 * The intent service's callback desk as a test waits on it: `expectCallback` of
 * `wallet-pay-button/testing` (re-exported there, and the `expectCallback` fixture on the test's
 * sandbox) polls the sandbox's deliveries of one booking until enough come, or none in the time.
 */
import { parseDuration } from '../clock.js';
import type { CallbackDelivery } from './callbacks.js';

/** What {@link expectCallback} waits for. */
export interface CallbackExpectation {
  /** Only callbacks reporting this payment status (`SUCCESS`, `REVERTED`, ...). */
  status?: string;
  /** Only deliveries in this state; default `delivered`, and with `count: 0` any state (a callback sent is one, answered or not). */
  state?: CallbackDelivery['state'];
  /** At least this many within the time; `0`: none within it, the whole time waited. Default 1. */
  count?: number;
  /** How long: milliseconds or a duration (`'500ms'`, `'15s'`, `'2m'`). Default 15 s. */
  within?: number | string;
}

/** The sandbox's callback desk, as {@link expectCallback} reads it. */
interface CallbackDesk {
  callbackDeliveries(filter?: { booking_id?: string }): CallbackDelivery[];
}

const POLL_MS = 25;

/**
 * Waits for a booking's callbacks at the sandbox's desk. With `count` n (default 1), resolves with the
 * matching deliveries once there are n, and rejects when the time runs out first. With `count: 0`,
 * "no callback within T": waits the whole time and rejects as soon as one matching callback is at
 * the desk, delivered or not. The rejection says what the desk holds.
 */
export async function expectCallback(desk: CallbackDesk, bookingId: string, expectation: CallbackExpectation = {}): Promise<CallbackDelivery[]> {
  const count = expectation.count ?? 1;
  if (!Number.isInteger(count) || count < 0) throw new TypeError(`expectCallback: count must be a whole number of at least 0; got ${String(count)}.`);
  const { within = 15_000, status } = expectation;
  const ms = typeof within === 'string' ? parseDuration(within) : within;
  if (!Number.isFinite(ms) || ms < 0) throw new TypeError(`expectCallback: within must be a duration such as 500ms or 15s; got ${String(within)}.`);
  const state = expectation.state ?? (count === 0 ? undefined : 'delivered');
  const what = `${status ? `${status} ` : ''}callback${state ? ` (${state})` : ''} of ${bookingId}`;
  const started = Date.now();
  for (;;) {
    const all = desk.callbackDeliveries({ booking_id: bookingId });
    const matching = all.filter((d) => (state === undefined || d.state === state) && (status === undefined || d.status === status));
    const elapsed = Date.now() - started;
    if (count === 0 && matching.length > 0) {
      const first = matching.at(-1)!;
      throw new Error(`expected no ${what} within ${ms} ms, but ${first.id} (${first.status}, ${first.state}) was at the desk after ${elapsed} ms.`);
    }
    if (count > 0 && matching.length >= count) return matching;
    if (elapsed >= ms) {
      if (count === 0) return [];
      const seen = all.map((d) => `${d.id} ${d.status} ${d.state}`).join(', ') || 'nothing';
      throw new Error(`expected ${count} ${what} within ${ms} ms; the desk has ${seen}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, ms - elapsed)));
  }
}
