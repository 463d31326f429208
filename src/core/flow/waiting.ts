/**
 * The wait for a kept booking: its status is checked, then checked again with backoff while it is
 * BOOKED or PENDING, until five minutes after the booking and one last check. A server that does not
 * answer (or a device offline) is outlived while the element waits; a final status ends the payment.
 */
import { isFinalStatus, type PaymentStatus } from '../../protocol/contract.js';
import type { KeptBooking } from '../session-store.js';
import { ids, passingFailure } from './booking.js';
import { abandonBack } from './abandon.js';
import { clientFor, funnelOver, live, setState, step, type FlowContext } from './context.js';
import { failRequest, finish } from './outcome.js';
import type { Run } from './runs.js';
import type { FlowStateName } from './state.js';

/** The state that shows while `kept` is waited for: its code, the in-app panel, or the pending panel. */
export function waitingState(kept: KeptBooking): FlowStateName {
  return kept.handoff ? 'handoff' : kept.inapp ? 'inapp' : 'pending';
}

/**
 * Checks `kept`'s status (check number `checkNumber` of the wait) and routes its answer: a final
 * status finishes, a hand-off's CANCELED is an expired code, a web booking still open on the
 * shopper's return (`returning`) was left unpaid, and an open one is waited for.
 */
export function verify(ctx: FlowContext, kept: KeptBooking, checkNumber: number, returning = false): void {
  // A hand-off's checks run behind its code; while reconnecting, a check keeps the panel and the
  // note up until it answers (a server that hangs takes the request's whole timeout).
  const { name, booking, reconnecting } = ctx.state;
  const waiting = booking === kept && (name === 'handoff' || name === 'pending');
  const run = ctx.runs.next();
  const inapp = booking === kept && name === 'inapp';
  setState(ctx, kept.handoff ? 'handoff' : inapp ? 'inapp' : waiting && reconnecting ? 'pending' : 'verifying', kept, waiting || inapp ? { reconnecting } : {});
  clientFor(ctx, kept.settings)
    .status(ids(kept), run.signal)
    .then(
      ({ status }) =>
        live(ctx, run) &&
        // The service reports an unpaid booking past its expiry as CANCELED and a status answer does
        // not tell that from a cancel on the phone: either way the code is dead and a new one is offered.
        (kept.handoff && status === 'CANCELED'
          ? handoffExpired(ctx, kept)
          : isFinalStatus(status)
            ? finish(ctx, kept, status)
            : // Back from a web payment left unpaid: abandoned, but in someone else's in-app browser,
              // where the web payment is the primary way, the booking stays for its other ways out.
              returning && status === 'BOOKED' && kept.channel === 'web' && !kept.inapp
              ? abandonBack(ctx, kept)
              : waitFor(ctx, run, kept, status, checkNumber)),
      (error: unknown) =>
        live(ctx, run) && !outlive(ctx, run, kept, error, checkNumber, waiting) && failRequest(ctx, error, () => verify(ctx, kept, checkNumber), kept),
    );
}

/**
 * A status check failed while the element waits for a result (the hand-off, the pending panel,
 * coming back from the app): when the shop's server did not answer or the device is offline, the
 * wait goes on with the usual backoff and says it is reconnecting. Returns false when the failure
 * ends the wait instead (a refusal, past the five minutes, or a web payment's first check on return).
 */
export function outlive(ctx: FlowContext, run: Run, kept: KeptBooking, error: unknown, checkNumber: number, waiting: boolean): boolean {
  const who = passingFailure(error);
  if (!who || !(waiting || kept.handoff || kept.inapp || kept.channel === 'app')) return false;
  const elapsed = ctx.deps.clock.now() - kept.started_at;
  if (elapsed >= ctx.deps.timings().finalCheckAfterMs) return false;
  setState(ctx, waitingState(kept), kept, { reconnecting: who });
  checkLater(ctx, run, kept, checkNumber, elapsed);
  return true;
}

/** BOOKED/PENDING: check again with backoff until five minutes after the booking, then one last check. */
export function waitFor(ctx: FlowContext, run: Run, kept: KeptBooking, status: PaymentStatus, checkNumber: number): void {
  const elapsed = ctx.deps.clock.now() - kept.started_at;
  if (elapsed >= ctx.deps.timings().finalCheckAfterMs) return setState(ctx, 'stalled', kept);
  setState(ctx, waitingState(kept), kept);
  ctx.deps.emit({ type: 'pending', booking_id: kept.booking_id, status, elapsed_ms: elapsed });
  checkLater(ctx, run, kept, checkNumber, elapsed);
}

/** The next check, after check `checkNumber`'s backoff, and never past the last check's moment. */
function checkLater(ctx: FlowContext, run: Run, kept: KeptBooking, checkNumber: number, elapsed: number): void {
  const { pollDelaysMs, finalCheckAfterMs } = ctx.deps.timings();
  const backoff = pollDelaysMs[Math.min(checkNumber, pollDelaysMs.length - 1)] ?? 0;
  ctx.runs.later(run, Math.min(backoff, finalCheckAfterMs - elapsed), () => verify(ctx, kept, checkNumber + 1));
}

/** The hand-off's code expired unpaid: a new one is offered; the funnel reports the attempt abandoned. */
export function handoffExpired(ctx: FlowContext, kept: KeptBooking): void {
  step(ctx, 'abandoned', { booking_id: kept.booking_id, reason: 'expired' }, kept);
  funnelOver(ctx, kept);
  setState(ctx, 'handoff-expired', kept);
}
