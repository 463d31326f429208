/**
 * Reconciliation: the merchant's own status checks of open bookings (`reconcile()`), one pass at a
 * time per process, each booking claimed in the store so that instances share the work. A booking
 * the shopper left open past `cancelAfterMs` (by the store's clock) is cancelled at the service, so a
 * stale app screen cannot pay it later, and its outcome delivered. A booking settled `CANCELED` (by
 * reconcile, a new book of its order, or the element's own `/cancel`, the route in result-routes.ts) is
 * asked about again for a while, since a payment can still land after a cancel (a stale app screen that
 * paid anyway) and its callback be lost: a `SUCCESS` then is delivered, judged against its order.
 */
import { ALREADY_PROCESSED, isFinalStatus, STATUS_CHECK_AFTER_MS, type PaymentStatus } from '../protocol/contract.js';
import type { Kit } from './context.js';
import { bookingFacts, ImpossibleTransition, ResultBusy, type Delivery } from './delivery-terms.js';
import type { PaymentProvider, ProviderStatus } from './provider.js';
import { ServiceError } from './service-error.js';
import type { StoredBooking } from './store.js';
import type { PaymentResult, ReconcileOptions, ReconcileReport } from './types.js';

/**
 * The default of `ReconcileOptions.cancelAfterMs`: the sandbox's expiry of an unpaid booking (its
 * `bookingTtlMs`, 15 minutes). The spec shows no expiry; a service that keeps bookings longer gets
 * them cancelled here.
 */
export const DEFAULT_CANCEL_AFTER_MS = 15 * 60 * 1000;

/** Which bookings a worker claims: open ones past `cancelAfterMs`, the younger open ones, or recently cancelled ones. */
type Phase = 'cancel' | 'check' | 'recheck';

/** One reconcile pass's progress, shared by its workers. */
interface Pass {
  started: number;
  deadline: number;
  recheckAfterMs: number;
  recheckCanceledForMs: number;
  done: ReconcileReport;
  checkedInPass: Set<string>;
  heldBack: Set<string>;
}

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
    recheckCanceledForMs = Math.max(0, ...kit.providers.list.map((provider) => provider.capabilities.bookingLifetimeMs)),
  }: ReconcileOptions): Promise<ReconcileReport> {
    const started = kit.now();
    const run: Pass = {
      started,
      deadline: started + timeBudgetMs,
      recheckAfterMs: Math.max(0, recheckAfterMs),
      recheckCanceledForMs: Math.max(0, recheckCanceledForMs),
      done: { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false },
      checkedInPass: new Set(),
      heldBack: new Set(),
    };
    const workers = (minAgeMs: number, phase: Phase) =>
      Promise.all(Array.from({ length: Math.max(1, Math.floor(concurrency)) }, () => work(run, minAgeMs, phase)));
    try {
      // Ages are the store's (as its created_at), never this instance's clock against the store's stamp:
      // the bookings past `cancelAfterMs` are claimed first, as such, then the younger ones, then the
      // recently cancelled ones (those this pass cancelled were checked in it, so not claimed again).
      const oldest = Math.max(0, olderThanMs, cancelAfterMs);
      if (Number.isFinite(oldest)) await workers(oldest, 'cancel');
      if (!run.done.unfinished) await workers(Math.max(0, olderThanMs), 'check');
      if (!run.done.unfinished && run.recheckCanceledForMs > 0) await workers(Math.max(0, olderThanMs), 'recheck');
    } finally {
      for (const bookingId of run.heldBack) {
        await kit.store.releaseCheck({ bookingId, owner: kit.owner }).catch((error: unknown) => kit.report(error, { route: 'reconcile' }));
      }
    }
    return run.done;
  }

  /**
   * One worker: claims one open booking at least `minAgeMs` old at a time (so at most `concurrency`
   * status checks run at once, and an instance that dies mid-pass only delays the bookings it held by
   * one lease) until none is left or the budget is spent. `phase`: which bookings it claims.
   */
  async function work(run: Pass, minAgeMs: number, phase: Phase): Promise<void> {
    for (;;) {
      if (kit.now() >= run.deadline) {
        run.done.unfinished = true;
        return;
      }
      const claimed = await kit.store.claimOpenBookings({
        // By the store's clock, as the booking's created_at: instances whose clocks disagree find the same bookings.
        olderThanMs: minAgeMs,
        // Checked by any instance since this pass began, or within `recheckAfterMs` before it: not
        // again. A pass that began a moment after another instance's pass checked a booking would
        // otherwise ask about it again. A span, since the store's clock decides.
        notCheckedForMs: kit.now() - run.started + run.recheckAfterMs,
        limit: 1,
        owner: kit.owner,
        leaseMs: kit.leaseMs,
        ...(phase === 'recheck' && { canceledWithinMs: run.recheckCanceledForMs }),
      });
      if (claimed.length === 0) return;
      // A store may hand out more than the one asked for: each booking claimed is checked (or, past the
      // budget, given back), never left claimed and unchecked until its lease ends.
      for (const booking of claimed) await checkClaimed(run, booking, phase);
    }
  }

  /**
   * One booking a worker claimed: checked once per pass, its claim given back after. A recheck of a
   * cancelled booking counts in the report only when it delivers (or fails): most find it still cancelled.
   */
  async function checkClaimed(run: Pass, booking: StoredBooking, phase: Phase): Promise<void> {
    // The claim's `notCheckedForMs` is measured on this instance's clock and applied on the store's: read
    // a moment apart (or with a clock that stands still), it can reach back short of this pass's own
    // checks. A booking handed out again, or past the budget, stays claimed until the pass ends (then
    // given back), so the next claim moves on.
    if (run.checkedInPass.has(booking.booking_id) || kit.now() >= run.deadline) {
      run.heldBack.add(booking.booking_id);
      return;
    }
    run.checkedInPass.add(booking.booking_id);
    const recheck = phase === 'recheck';
    if (!recheck) run.done.checked++;
    try {
      const outcome = recheck ? await recheckCanceled(kit, delivery, booking) : await check(kit, delivery, booking, phase === 'cancel');
      if (outcome) run.done[outcome]++;
      if (outcome && recheck) run.done.checked++;
    } catch (error) {
      if (recheck) run.done.checked++;
      if (error instanceof ResultBusy) {
        run.done.open++;
      } else if (error instanceof ImpossibleTransition) {
        run.done.settled++;
      } else {
        run.done.failed++;
        kit.report(error, { route: 'reconcile', correlation_id: booking.correlation_id, booking_id: booking.booking_id });
      }
    } finally {
      await kit.store.releaseCheck({ bookingId: booking.booking_id, owner: kit.owner }).catch((error: unknown) => kit.report(error, { route: 'reconcile' }));
    }
  }

  return reconcile;
}

/** Asks the service about one booking and delivers its final status; one still open past `cancelAfterMs` is cancelled. */
async function check(kit: Kit, delivery: Delivery, booking: StoredBooking, pastCancel: boolean): Promise<'settled' | 'open' | 'cancelled'> {
  const provider = kit.providers.of(booking);
  const answer = await provider.status(booking);
  if (isFinalStatus(answer.status)) {
    await delivery.deliver(statusResult(booking, answer, 'reconcile'));
    return 'settled';
  }
  // A provider without cancel ends an unpaid booking itself (it answers it expired): asked until then.
  if (!pastCancel || !provider.cancel || !provider.capabilities.cancel) return 'open';
  // Left without paying past the service's expiry: cancelled, so no stale screen pays it later.
  const status = await cancelAtService(provider, booking, delivery);
  return status === 'CANCELED' ? 'cancelled' : isFinalStatus(status) ? 'settled' : 'open';
}

/** Asks the service again about a booking settled `CANCELED`: a payment that landed since is delivered. */
async function recheckCanceled(kit: Kit, delivery: Delivery, booking: StoredBooking): Promise<'settled' | undefined> {
  const answer = await kit.providers.of(booking).status(booking);
  if (answer.status !== 'SUCCESS') return undefined;
  await delivery.deliver(statusResult(booking, answer, 'reconcile'));
  return 'settled';
}

function statusResult(booking: StoredBooking, answer: ProviderStatus, source: 'reconcile'): PaymentResult {
  return {
    source,
    status: answer.status,
    correlation_id: booking.correlation_id,
    reference_code: answer.reference_code,
    ...bookingFacts(booking),
    ...(answer.partialRefund ? { partial_refund: { ...answer.partialRefund } } : {}),
  };
}

/**
 * Cancels an open booking at the service and delivers its final status (source `cancel`). One the
 * service says is already processed (paid, failed or expired meanwhile) is asked about instead, and
 * what it says is delivered (source `reconcile`). Answers the booking's status at the service now.
 */
async function cancelAtService(provider: PaymentProvider, booking: StoredBooking, delivery: Delivery): Promise<PaymentStatus> {
  const { correlation_id } = booking;
  try {
    const { status } = await provider.cancel!(booking);
    if (isFinalStatus(status)) await delivery.deliver({ source: 'cancel', status, correlation_id, ...bookingFacts(booking) });
    return status;
  } catch (error) {
    if (!(error instanceof ServiceError && error.kind === 'rejected' && error.code === ALREADY_PROCESSED)) throw error;
  }
  const { status, reference_code } = await provider.status(booking);
  if (isFinalStatus(status)) await delivery.deliver({ source: 'reconcile', status, correlation_id, reference_code, ...bookingFacts(booking) });
  return status;
}
