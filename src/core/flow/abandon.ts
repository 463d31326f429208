/**
 * The paths that end a kept booking unpaid: the shopper's "Cancel payment", and the way back from the
 * provider's web page without paying (the booking is cancelled at the service, so no stale page can
 * pay it later). A booking processed meanwhile is checked instead: its status decides.
 */
import { isFinalStatus } from '../../protocol/contract.js';
import type { KeptBooking } from '../session-store.js';
import type { SettingsResult } from '../settings.js';
import { ids, isProcessed, walletOf } from './booking.js';
import { begin, clientFor, funnelOver, idleBooking, live, setState, step, type FlowContext } from './context.js';
import { failRequest, finish } from './outcome.js';

/** "Cancel payment": the panel's booking is cancelled at the service and the payment ends CANCELED. */
export function cancel(ctx: FlowContext): void {
  const booking = idleBooking(ctx);
  if (!booking) return;
  // An expired hand-off is already final at the service: nothing is left to cancel.
  if (ctx.state.name === 'handoff-expired') return finish(ctx, booking, 'CANCELED');
  const run = begin(ctx, 'cancelling', booking);
  ctx.cancelledHere = booking.booking_id;
  clientFor(ctx, booking.settings)
    .cancel(ids(booking), run.signal)
    .then(
      (result) => {
        if (!live(ctx, run)) return;
        ctx.deps.emit({ type: 'cancel', booking_id: result.booking_id, status: result.status, ...walletOf(booking) });
        finish(ctx, booking, isFinalStatus(result.status) ? result.status : 'CANCELED');
      },
      // Already processed: the status decides where the shopper goes (it may have succeeded).
      (error: unknown) => live(ctx, run) && (isProcessed(error) ? ctx.again.verify(booking, 0) : failRequest(ctx, error, () => cancel(ctx), booking)),
    );
}

/**
 * Back from the provider's web page with the booking still open: the shopper left without paying.
 * It is cancelled at the service (no stale page can pay it later) and the button is ready again. When
 * the provider itself sent the shopper to the return address naming this booking (a web checkout's
 * failure redirect: eSewa's names no status, and its status check cannot tell a failed payment from
 * one never started), the payment ended there: the shopper goes on to the failure page.
 */
export function abandonBack(ctx: FlowContext, kept: KeptBooking): void {
  const run = begin(ctx, 'cancelling', kept);
  const sentBack = returnedFor(ctx.read, kept.booking_id);
  clientFor(ctx, kept.settings)
    .cancel(ids(kept), run.signal)
    .then(
      () => {
        if (!live(ctx, run)) return;
        if (sentBack) return finish(ctx, kept, 'CANCELED');
        ctx.deps.store.clear(kept.settings.storageKey);
        ctx.attempt = null;
        step(ctx, 'abandoned', { booking_id: kept.booking_id, reason: 'back' }, kept);
        funnelOver(ctx, kept);
        setState(ctx, 'idle', null);
      },
      // Processed meanwhile (paid, say): its status decides. A failed cancel leaves the usual choices.
      (error: unknown) => live(ctx, run) && (isProcessed(error) ? ctx.again.verify(kept, 0) : failRequest(ctx, error, () => abandonBack(ctx, kept), kept)),
    );
}

/**
 * Whether this page is the return address the provider sent the shopper to for `bookingId` (its
 * `booking_id` parameter; a value eSewa glued `?data=` onto is read up to its `?`).
 */
export function returnedFor(read: SettingsResult | undefined, bookingId: string): boolean {
  if (!read?.ok) return false;
  try {
    return new URL(read.settings.pageUrl).searchParams.get('booking_id')?.split('?')[0] === bookingId;
  } catch {
    return false;
  }
}
