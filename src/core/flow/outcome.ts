/**
 * How a payment ends: finished with a final status (reported, forgotten, and the shopper sent to the
 * shop's return page), or stopped by a failed request (shown with the ways forward that can help).
 */
import { MERCHANT_SETUP, UNKNOWN_BOOKING, type PaymentStatus } from '../../protocol/contract.js';
import type { KeptBooking } from '../session-store.js';
import { requestFailure, returnRoute, walletOf } from './booking.js';
import { fail, funnelOver, setState, step, type FlowContext } from './context.js';
import type { AbandonReason } from './state.js';

/** Why a CANCELED payment ended: cancelled here, in the app, or (past the five-minute wait) expired. */
export function cancelReason(ctx: FlowContext, kept: KeptBooking): AbandonReason {
  if (ctx.cancelledHere === kept.booking_id) return 'cancel';
  return ctx.deps.clock.now() - kept.started_at >= ctx.deps.timings().finalCheckAfterMs ? 'expired' : 'cancelled';
}

/**
 * `kept` reached a final status: it is forgotten, the funnel and the outcome are reported, a paid
 * order is remembered, and the shopper goes to the success or failure page (a refused one is shown).
 */
export function finish(ctx: FlowContext, kept: KeptBooking, status: PaymentStatus): void {
  const { booking_id, settings } = kept;
  const { deps } = ctx;
  deps.store.clear(settings.storageKey);
  ctx.attempt = null;
  const success = status === 'SUCCESS';
  const outcome = success ? 'success' : 'failure';
  step(ctx, 'confirmed', { booking_id, status }, kept);
  if (status === 'CANCELED') step(ctx, 'abandoned', { booking_id, reason: cancelReason(ctx, kept) }, kept);
  funnelOver(ctx, kept);
  deps.emit({ type: outcome, booking_id, status, ...walletOf(kept) });
  setState(ctx, 'done', null, { outcome: status });
  const { url, refused } = returnRoute(settings, booking_id, status);
  if (success) deps.store.setPaid(settings.storageKey, { booking_id, url });
  if (refused) return fail(ctx, 'return-url-refused', `The ${outcome} URL was refused (${refused}).`, { extra: { reason: refused }, name: 'done', outcome: status });
  if (url && deps.emit({ type: 'navigate', reason: outcome, url, method: 'GET', booking_id })) deps.navigator().assign(url);
}

/**
 * A request failed: shown with "try again" (`retry`), unless no retry can help (the shop's set-up) or
 * the shop's server does not know `booking` (checked once more by its ids, then forgotten). An
 * abandoned request is never shown: the action that abandoned it owns the state.
 */
export function failRequest(ctx: FlowContext, error: unknown, retry: () => void, booking: KeptBooking | null): void {
  const { e, extra } = requestFailure(error);
  if (e.kind === 'aborted') return;
  if (e.code === MERCHANT_SETUP) {
    // Only the shop can fix its set-up: no "try again" that cannot succeed (the pay button stays).
    ctx.retry = null;
    return fail(ctx, 'merchant-setup', e.message, { booking, extra });
  }
  if (booking && e.code === UNKNOWN_BOOKING && ctx.unconfirmed !== booking.booking_id) {
    // The shop's server cannot find this booking (a restart, an eviction). It may have been paid: no
    // new payment yet. It stays kept, and "Check again" (or the pay button) asks its status once
    // more, by its ids, which lets the shop confirm it with the service.
    ctx.unconfirmed = booking.booking_id;
    ctx.retry = () => ctx.again.verify(booking, 0);
    return fail(ctx, 'booking-unconfirmed', e.message, { booking, extra, canRetry: true });
  }
  if (booking && e.code === UNKNOWN_BOOKING) {
    // Checked again and still unknown: forget it too; the shopper may start again.
    ctx.unconfirmed = null;
    ctx.deps.store.clear(booking.settings.storageKey);
    ctx.deps.store.setAttempt(booking.settings.storageKey, null);
    ctx.attempt = null;
    ctx.retry = null;
    return fail(ctx, 'booking-lost', e.message, { extra, canStartAgain: true });
  }
  ctx.retry = retry;
  fail(ctx, e.kind, e.message, { booking, extra, canRetry: true });
}
