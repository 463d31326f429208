/**
 * The payment flow's booking and return-routing rules, as plain functions: which attempt (which
 * Idempotency-Key, which path) a payment runs with, the kept booking a booking's answer becomes,
 * where a finished payment sends the shopper, and the events the flow reports on the way.
 *
 * Cut out of the machine (`machine.ts`) so it keeps its transitions and these rules can be read on
 * their own. Nothing here holds state or imports the flow: the flow passes in what a rule needs
 * (the store, the key maker, the clock's time) and applies the answer itself.
 */
import { ALREADY_PROCESSED, MERCHANT_SETUP, type BookResult, type Channel, type PaymentStatus, type StatusRequest, type WebPaymentInstruction } from '../../protocol/contract.js';
import { BookingError, type BookingClient } from '../booking-client.js';
import type { FlowDeps } from './deps.js';
import type { FlowError, FlowErrorKind, FlowEvent, FunnelStep } from './state.js';
import type { KeptBooking } from '../session-store.js';
import type { PaymentSettings } from '../settings.js';
import { STRATEGIES, type BookedAttempt, type PaymentPath } from '../strategies.js';
import { checkReturnUrl, withQuery, type UrlRefusal } from '../urls.js';

/** One payment attempt: its Idempotency-Key, its path and the settings it started with. */
export interface Attempt {
  key: string;
  environment: PaymentPath;
  settings: PaymentSettings;
  /** True once its key was dropped after an `IP-409`: a second refusal is shown, not retried again. */
  renewed?: boolean;
}

/** The failure details an error event carries beside its kind and message. */
export type FailureExtra = { code?: string | undefined; http_status?: number | undefined; reason?: UrlRefusal; url?: string };

export const hasCode = (error: unknown, code: string) => error instanceof BookingError && error.code === code;
export const isProcessed = (error: unknown) => hasCode(error, ALREADY_PROCESSED);

/**
 * What the status and cancel requests name a booking by: its two ids, the order it was booked for and
 * the server's receipt, so a server that lost the booking may ask the service and deliver its result
 * with the order (the booking's tag proves it).
 */
export function ids({ booking_id, correlation_id, settings, receipt }: KeptBooking): StatusRequest {
  // An absent receipt is left out by JSON; one that is not the kit's own is refused by the server.
  return { booking_id, correlation_id, order: settings.order, receipt };
}

/**
 * Cancels a booking the flow gives up on, best effort and without waiting: it must not stay open at
 * the service until it expires, but nothing the shopper sees depends on the answer.
 */
export function cancelQuietly(client: BookingClient, kept: KeptBooking): void {
  Promise.resolve()
    .then(() => client.cancel(ids(kept)))
    .catch(() => undefined);
}

/**
 * Whether a failed status check is one a wait outlives: the shop's server did not answer (a dropped
 * connection, a timeout, a 5xx other than `IP-501`, whose set-up no retry fixes) or the device is
 * offline. Returns who failed, or `null` for an answer that ends the wait (a 4xx, an unreadable answer).
 */
export function passingFailure(error: unknown): 'server' | 'offline' | null {
  const { e } = requestFailure(error);
  if (e.kind === 'offline') return 'offline';
  if (e.kind === 'network' || e.kind === 'timeout') return 'server';
  return e.kind === 'http' && (e.status ?? 0) >= 500 && e.code !== MERCHANT_SETUP ? 'server' : null;
}

/** A failed request as a booking error (anything thrown that is not one counts as a network failure) and its details. */
export function requestFailure(error: unknown): { e: BookingError; extra: FailureExtra } {
  const e = error instanceof BookingError ? error : new BookingError('network', String(error));
  return { e, extra: { code: e.code, http_status: e.status } };
}

/**
 * The attempt a payment of `settings` on `path` runs with, given the attempt the flow holds. A retry
 * keeps the attempt (its key and its path); a fresh press after a booking, or a press for another
 * order, starts a new one (the same key with another body is refused, IP-409).
 */
export function nextAttempt(
  current: Attempt | null,
  settings: PaymentSettings,
  path: PaymentPath,
  pressed: boolean,
  { store, newKey }: Pick<FlowDeps, 'store' | 'newKey'>,
): Attempt {
  if (current?.settings.storageKey !== settings.storageKey) {
    // An attempt cut short by a reload is taken up again with its key: one booking per attempt.
    const [environment, key] = store.attempt(settings.storageKey)?.split(/:(.*)/) ?? [];
    return key && Object.hasOwn(STRATEGIES, environment!) && (environment === 'handoff') === (path === 'handoff')
      ? { key, environment: environment as PaymentPath, settings }
      : { key: newKey(), environment: path, settings };
  }
  if (!pressed) return current;
  // The shopper acted again: the settings of this press, the attempt's key and path; another path
  // (the hand-off after a failed web booking, or back) is another attempt with its own key.
  // Another wallet is another body too: a key of its own rather than the server's IP-409.
  return (current.environment === 'handoff') === (path === 'handoff') && current.settings.wallet === settings.wallet
    ? { ...current, settings }
    : { key: newKey(), environment: path, settings };
}

/** The funnel of an attempt: its id and when it began, in ms since the epoch. */
export interface Funnel {
  id: string;
  at: number;
}

/** A funnel step's shared fields at `now` (never negative: the element's clock and the flow's may differ by a tick). */
export function funnelStep({ id, at }: Funnel, now: number): FunnelStep {
  return { attempt_id: id, elapsed_ms: Math.max(0, now - at) };
}

/** The booking to keep from a booking's answer (with its funnel), and the `booked` event that reports it. */
export function bookedAttempt({ key, settings, environment }: Attempt, asked: Channel, result: BookResult, now: number, funnel: Funnel): BookedAttempt & { event: FlowEvent } {
  const { booking_id, correlation_id, deeplink, receipt } = result;
  // What the server booked: a wallet paid on the web only answers `web` to a phone's `app`.
  const channel = result.channel ?? asked;
  // The wallet pressed, else the server's answer: kept in the booking's settings, which the events
  // name it from and a booking made again for it ("Start again", "Pay on the web instead") sends.
  const wallet = settings.wallet ?? result.wallet;
  const kept: KeptBooking = {
    booking_id,
    correlation_id,
    channel,
    idempotency_key: key,
    started_at: now,
    settings: wallet ? { ...settings, wallet } : settings,
    attempt_id: funnel.id,
    attempt_at: funnel.at,
  };
  if (deeplink) kept.deeplink = deeplink;
  if (receipt) kept.receipt = receipt;
  const handoff = environment === 'handoff';
  if (handoff) kept.handoff = handoff;
  // A WebView's payment that no host took goes on as in an in-app browser.
  if (environment === 'inapp' || environment === 'webview') kept.inapp = true;
  return { kept, result, event: { type: 'booked', ...funnelStep(funnel, now), booking_id, correlation_id, channel, ...(handoff && { handoff }), ...walletOf(kept) } };
}

/** The `wallet` field of `kept`'s events: its wallet, when the press or the server named one. */
export const walletOf = ({ settings: { wallet } }: KeptBooking): { wallet?: string } => (wallet ? { wallet } : {});

/** Where an order the service reports as paid already sends the shopper: its success page, if it passes the return checks. */
export function paidUrl(settings: PaymentSettings): string | null {
  const success = settings.successUrl && checkReturnUrl(settings.successUrl, settings.pageUrl, settings.returnOrigins, settings.baseUrl);
  return success && success.ok ? success.url.href : null;
}

/**
 * Where a finished payment returns: no address (`url` and `refused` both null: the shopper stays),
 * a refused one (shown as an error), or the success or failure page with the booking and status in
 * its query.
 */
export function returnRoute(settings: PaymentSettings, booking_id: string, status: PaymentStatus): { url: string | null; refused: UrlRefusal | null } {
  const raw = status === 'SUCCESS' ? settings.successUrl : settings.failureUrl;
  const check = raw ? checkReturnUrl(raw, settings.pageUrl, settings.returnOrigins, settings.baseUrl) : null;
  if (!check) return { url: null, refused: null };
  return check.ok ? { url: withQuery(check.url, { booking_id, status }), refused: null } : { url: null, refused: check.reason };
}

/**
 * The `webview` event of a WebView's hand-over: the addresses absolute, like the endpoint, since the
 * host app has no page to resolve a relative address against.
 */
export function webviewEvent(settings: PaymentSettings): FlowEvent {
  const absolute = (raw: string | null) => (raw ? new URL(raw, settings.baseUrl).href : null);
  return {
    type: 'webview',
    order: settings.order,
    endpoint: settings.endpoint,
    success_url: absolute(settings.successUrl),
    failure_url: absolute(settings.failureUrl),
  };
}

/**
 * A failure as the state shows it (the element picks the words) and as the `error` event reports it,
 * each without the details it does not have (no `undefined` fields).
 */
export function failureReport(kind: FlowErrorKind, message: string, extra: FailureExtra): { shown: FlowError; event: FlowEvent } {
  const shown: FlowError = { kind };
  if (extra.http_status !== undefined) shown.httpStatus = extra.http_status;
  if (extra.code !== undefined) shown.code = extra.code;
  const event = { type: 'error', kind, message, ...extra } as FlowEvent & Record<string, unknown>;
  for (const field in event) if (event[field] === undefined) delete event[field];
  return { shown, event };
}

/**
 * The address a web payment leaves for, and its `navigate` event: a GET carries the fields in its
 * query, a POST sends them as a form (and the event lists them).
 */
export function webPaymentNavigation(checked: URL, { method, fields = {} }: WebPaymentInstruction, booking_id: string) {
  const post = method === 'POST';
  const url = post ? checked.href : withQuery(checked, fields);
  const event: FlowEvent = { type: 'navigate', reason: 'web-payment', url, method, booking_id };
  if (post) event.fields = fields;
  return { url, post, fields, event };
}

/** The error event's message for a provider address the flow refused to follow. */
export function refusedUrlMessage(raw: string | undefined, reason: UrlRefusal, kept: KeptBooking): string {
  const hosts = kept.settings.allowedHosts.join(' ');
  return `Refused to follow ${JSON.stringify((raw ?? '').slice(0, 200))}: ${reason} (allowed-hosts: ${hosts}). Booking ${kept.booking_id} is being cancelled.`;
}
