/**
 * The checker's steps on the intent service's side, which the sandbox runs its clauses through: the
 * service's record of a booking the proxy made, a fresh app booking with that record, paying it on the
 * wallet page through a scenario, and waiting for its callback.
 */
import type { SandboxBooking } from '../../sandbox/index.js';
import { describe, printable, type Exchange } from '../exchange.js';
import { ClauseSkipped, fail, type Steps } from '../steps.js';

/**
 * The scenarios of the sandbox's catalogue (src/sandbox/esewa-intent/scenarios.ts) a clause pays through: paid
 * (`WPS-001`), paid with the callback lost (`WPS-007`), and paid after the merchant's cancel (`WPS-006`,
 * PENDING at the confirm).
 */
export type PaidScenario = 'WPS-001' | 'WPS-006' | 'WPS-007';

/** The MPIN the sandbox accepts (any 4 to 6 digits but 0000). */
const GOOD_MPIN = '1234';

/** What a run keeps of the intent service's side, beside its shared steps. */
export interface IntentRecord {
  /** Bookings whose callbacks the sandbox holds back (the reconciliation clause's). */
  readonly dropped: Set<string>;
  /** The sandbox's request lines, most recent last (the reconciliation clause reads them). */
  readonly serviceLog: string[];
}

const records = new WeakMap<Steps, IntentRecord>();

/** The run's record of the intent service's side, made on first use. */
export function intentRecord(s: Steps): IntentRecord {
  let record = records.get(s);
  if (!record) records.set(s, (record = { dropped: new Set(), serviceLog: [] }));
  return record;
}

/** The sandbox's `sendCallback`: only to an allowed origin, and never for a dropped booking. */
export function willSend(s: Steps, booking: SandboxBooking): boolean {
  return s.callbackAllowed(booking.callback_url) && !intentRecord(s).dropped.has(booking.booking_id);
}

/** Keeps the sandbox's last request lines. */
export function noteServiceLine(s: Steps, line: string): void {
  const log = intentRecord(s).serviceLog;
  log.push(line);
  if (log.length > 2000) log.splice(0, 1000);
}

/** The service's record of a booking the proxy made; fails the clause when the service has none. */
export function atService(s: Steps, exchange: Exchange, bookingId: string, correlationId: string): SandboxBooking {
  const booking = s.sandbox.getBooking(bookingId);
  if (!booking) fail(`the answer names booking ${bookingId}, which the service never made; ${describe(exchange)}`);
  if (booking!.correlation_id !== correlationId) {
    fail(`the answer's correlation_id is not the service's for ${bookingId} (${booking!.correlation_id}); ${describe(exchange)}`);
  }
  return booking!;
}

/** Skips the clause when the booking's callback URL is not one the checker may send to. */
export function callbackTarget(s: Steps, booking: SandboxBooking): string {
  if (!s.callbackAllowed(booking.callback_url)) {
    throw new ClauseSkipped(
      `the callback URL ${printable(booking.callback_url)} is not on --endpoint's origin${s.callbackOrigins.size > 1 ? ' nor one named by --callback-origin' : ''}, so the checker sends no callback there`,
    );
  }
  return booking.callback_url;
}

/** Books a fresh order for the app channel and returns the ids and the service's record. */
export async function freshBooking(s: Steps, order = s.order(), key = s.key()) {
  const exchange = await s.book('app', order, key);
  const ids = s.booked(exchange);
  const receipt = typeof ids.data.receipt === 'string' && ids.data.receipt !== '' ? ids.data.receipt : undefined;
  return { ...ids, order, key, receipt, exchange, service: atService(s, exchange, ids.booking_id, ids.correlation_id) };
}

/** The deeplink the service answered for a booking. */
export function deeplinkOf(s: Steps, booking: SandboxBooking): string {
  return `${s.sandbox.linksUrl}/pay/${booking.booking_id}`;
}

/**
 * Pays a booking on the sandbox's wallet page, as the shopper would, picking the scenario that plays
 * it (`WPS-001`, paid, unless a clause needs another); the clause's verdict names it.
 */
export async function pay(s: Steps, bookingId: string, scenario: PaidScenario = 'WPS-001', leaves: 'SUCCESS' | 'PENDING' = 'SUCCESS'): Promise<void> {
  if (!s.driven.includes(scenario)) s.driven.push(scenario);
  const response = await fetch(`${s.sandbox.linksUrl}/pay/${encodeURIComponent(bookingId)}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ mpin: GOOD_MPIN, method: 'wallet_balance', scenario }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  const status = s.sandbox.getBooking(bookingId)?.status;
  if (status !== leaves) throw new Error(`paying ${bookingId} at the sandbox left it ${status} (HTTP ${response.status}).`);
}

/** Waits until the sandbox has delivered (or given up on) the callback of a booking. */
export async function callbackOutcome(s: Steps, bookingId: string, timeoutMs = 15_000) {
  const booking = s.sandbox.getBooking(bookingId);
  if (!booking || !willSend(s, booking)) return [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const attempts = s.sandbox.callbackAttempts().filter((a) => a.booking_id === bookingId);
    const last = attempts[attempts.length - 1];
    if (last && (last.delivered || last.attempt >= 3)) return attempts;
    if (Date.now() > deadline) return attempts;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A paid booking whose callback the sandbox has delivered (or tried to, or was not let to). */
export async function paidBooking(s: Steps, needsCallback = true) {
  const booking = await freshBooking(s, );
  // A clause that judges callbacks is skipped before anything is paid when none may be sent.
  if (needsCallback) callbackTarget(s, booking.service);
  await pay(s, booking.booking_id);
  const attempts = await callbackOutcome(s, booking.booking_id);
  return { ...booking, attempts, service: s.sandbox.getBooking(booking.booking_id)! };
}
