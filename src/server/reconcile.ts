/**
 * Reconciliation: the merchant's own status checks of open bookings (`reconcile()`), one pass at a
 * time per process, each booking claimed in the store so that instances share the work. A booking
 * left open past `cancelAfterMs` (by the store's clock) is cancelled at the service.
 */
import { isFinalStatus, STATUS_CHECK_AFTER_MS } from '../protocol/contract.js';
import { cancelAtService, DEFAULT_CANCEL_AFTER_MS } from './abandon.js';
import type { Kit } from './context.js';
import { bookingFacts, ImpossibleTransition, ResultBusy, type Delivery } from './delivery-terms.js';
import type { ServiceStatus } from './service-client.js';
import type { StoredBooking } from './store.js';
import type { PaymentResult, ReconcileOptions, ReconcileReport } from './types.js';

/** `reconcile()` of one handler. */
export function createReconciler(kit: Kit, delivery: Delivery): (options?: ReconcileOptions) => Promise<ReconcileReport> {
  let runningPass: Promise<ReconcileReport> | undefined;

  /** One pass at a time per process: a call while a pass runs joins it. */
  function reconcile(options: ReconcileOptions = {}): Promise<ReconcileReport> {
    if (!runningPass) {
      runningPass = pass(options).finally(() => {
        runningPass = undefined;
      });
    }
    return runningPass;
  }

  async function pass({
    olderThanMs = STATUS_CHECK_AFTER_MS,
    concurrency = 8,
    timeBudgetMs = 50_000,
    recheckAfterMs = 20_000,
    cancelAfterMs = DEFAULT_CANCEL_AFTER_MS,
  }: ReconcileOptions): Promise<ReconcileReport> {
    const started = kit.now();
    const deadline = started + timeBudgetMs;
    const done: ReconcileReport = { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false };
    const checkedInPass = new Set<string>();
    const heldBack = new Set<string>();
    // Each worker claims one open booking at a time, so at most `concurrency` status checks run at
    // once, and an instance that dies mid-pass only delays the bookings it held by one lease.
    const worker = async () => {
      for (;;) {
        if (kit.now() >= deadline) {
          done.unfinished = true;
          return;
        }
        const now = kit.now();
        const [booking] = await kit.store.claimOpenBookings({
          // By the store's clock, as the booking's created_at: instances whose clocks disagree find the same bookings.
          olderThanMs: Math.max(0, olderThanMs),
          // Checked by any instance since this pass began, or within `recheckAfterMs` before it: not
          // again. A pass that began a moment after another instance's pass checked a booking would
          // otherwise ask about it again. A span, since the store's clock decides.
          notCheckedForMs: now - started + Math.max(0, recheckAfterMs),
          limit: 1,
          owner: kit.owner,
          leaseMs: kit.leaseMs,
        });
        if (!booking) return;
        // The span above is measured on this instance's clock and applied on the store's: read a moment
        // apart (or with a clock that stands still), it can reach back short of this pass's own checks.
        // A booking handed out again stays claimed until the pass ends, so the next claim moves on.
        if (checkedInPass.has(booking.booking_id)) {
          heldBack.add(booking.booking_id);
          continue;
        }
        checkedInPass.add(booking.booking_id);
        done.checked++;
        try {
          const answer = await kit.client.status({ booking_id: booking.booking_id, correlation_id: booking.correlation_id });
          if (!isFinalStatus(answer.status) && booking.created_at <= now - cancelAfterMs) {
            // Left without paying past the service's expiry: cancelled, so no stale screen pays it later.
            const status = await cancelAtService(kit, booking, delivery);
            done[status === 'CANCELED' ? 'cancelled' : isFinalStatus(status) ? 'settled' : 'open']++;
          } else if (!isFinalStatus(answer.status)) {
            done.open++;
          } else {
            await delivery.deliver(statusResult(booking, answer, 'reconcile'));
            done.settled++;
          }
        } catch (error) {
          if (error instanceof ResultBusy) {
            done.open++;
          } else if (error instanceof ImpossibleTransition) {
            done.settled++;
          } else {
            done.failed++;
            kit.report(error, { route: 'reconcile', correlation_id: booking.correlation_id, booking_id: booking.booking_id });
          }
        } finally {
          await kit.store.releaseCheck({ bookingId: booking.booking_id, owner: kit.owner }).catch((error: unknown) => kit.report(error, { route: 'reconcile' }));
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, Math.floor(concurrency)) }, worker));
    } finally {
      for (const bookingId of heldBack) {
        await kit.store.releaseCheck({ bookingId, owner: kit.owner }).catch((error: unknown) => kit.report(error, { route: 'reconcile' }));
      }
    }
    return done;
  }

  function statusResult(booking: StoredBooking, answer: ServiceStatus, source: 'reconcile'): PaymentResult {
    return {
      source,
      status: answer.status,
      correlation_id: booking.correlation_id,
      reference_code: answer.reference_code,
      ...bookingFacts(booking),
    };
  }

  return reconcile;
}
