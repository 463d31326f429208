/**
 * Result delivery and reconciliation: the status and cancel answers, the service's callback, and the
 * merchant's own status checks. Each final result reaches `onPaymentResult` once, through a claim in
 * the store that every instance respects (see `PaymentStore`).
 */
import {
  CODES,
  isFinalStatus,
  STATUS_CHECK_AFTER_MS,
  type CancelResult,
  type PaymentStatus,
  type StatusResult,
} from '../protocol/contract.js';
import { describeValue } from '../protocol/values.js';
import { CallbackVerificationError, verifyCallback } from './callback.js';
import { parseObject, Refusal } from './http.js';
import { serviceCall, type Kit } from './kit.js';
import type { ServiceStatus } from './service-client.js';
import type { BookingState, StoredBooking } from './store.js';
import type { PaymentResult, ReconcileOptions, ReconcileReport } from './types.js';

/** Another instance holds the claim on this result and is delivering it. */
export class ResultBusy extends Error {
  override name = 'ResultBusy';
}

/** The result half of the handler. */
export interface Results {
  status(text: string): Promise<StatusResult>;
  cancel(text: string): Promise<CancelResult>;
  callback(text: string): Promise<{ correlation_id: string; status: PaymentStatus }>;
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
  /**
   * Hands a final result to the hook once per booking and status. Concurrent deliveries in this process
   * share one call; across processes the store's claim decides, and the losers get {@link ResultBusy}.
   */
  deliver(result: PaymentResult): Promise<void>;
}

/** The facts of a stored booking that a result carries. */
export function bookingFacts(booking: StoredBooking): Pick<PaymentResult, 'booking_id' | 'order' | 'transaction_uuid' | 'amount'> {
  return {
    booking_id: booking.booking_id,
    order: booking.order,
    transaction_uuid: booking.transaction_uuid,
    amount: booking.amount,
  };
}

export function createResults(kit: Kit): Results {
  const inFlightResults = new Map<string, Promise<void>>();
  const resultTimeoutMs = kit.options.resultTimeoutMs ?? 10_000;
  let runningPass: Promise<ReconcileReport> | undefined;

  /**
   * Reads a status or cancel body and finds the booking it names, which this handler must have made,
   * with the statuses of it already delivered.
   */
  async function ownBooking(text: string): Promise<BookingState> {
    const body = parseObject(text, ['booking_id', 'correlation_id']);
    for (const name of ['booking_id', 'correlation_id'] as const) {
      const value = body[name];
      if (typeof value !== 'string' || value.length === 0 || value.length > 128) {
        throw new Refusal(CODES.INVALID_REQUEST, `"${name}" must be a non-empty string of at most 128 characters; got ${describeValue(value)}.`);
      }
    }
    const state = await kit.store.getBookingState(body.booking_id as string);
    if (!state || state.booking.correlation_id !== body.correlation_id) {
      throw new Refusal(CODES.UNKNOWN_BOOKING, 'No booking with this booking_id and correlation_id was made here.');
    }
    return state;
  }

  async function status(text: string): Promise<StatusResult> {
    const { booking, delivered } = await ownBooking(text);
    const answer = await serviceCall(kit, 'status', () =>
      kit.client.status({ booking_id: booking.booking_id, correlation_id: booking.correlation_id }),
    );
    // A result already delivered needs no claim: a paid booking's later status checks read the store once.
    if (isFinalStatus(answer.status) && !delivered.includes(answer.status)) {
      // The shopper learns the status either way, within the time limit; a hook that failed or is still
      // running is finished or retried by the next status check, callback or reconcile pass.
      await withinTime(deliver(statusResult(booking, answer, 'status')), resultTimeoutMs, 'status');
    }
    return {
      booking_id: booking.booking_id,
      correlation_id: booking.correlation_id,
      status: answer.status,
      updated_at: answer.updated_at,
    };
  }

  async function withinTime(delivery: Promise<void>, limitMs: number, route: string): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limitMs);
    });
    const settled = delivery.then(
      () => 'done' as const,
      (error: unknown) => {
        if (!(error instanceof ResultBusy)) kit.report(error, { route });
        return 'done' as const;
      },
    );
    try {
      if ((await Promise.race([settled, late])) === 'late') {
        kit.report(new Error(`onPaymentResult did not finish within ${limitMs} ms; the answer went out without waiting for it.`), { route });
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async function cancel(text: string): Promise<CancelResult> {
    const { booking } = await ownBooking(text);
    const answer = await serviceCall(kit, 'cancel', () => kit.client.cancel({ booking_id: booking.booking_id }));
    if (isFinalStatus(answer.status)) {
      await withinTime(
        deliver({ source: 'cancel', status: answer.status, correlation_id: booking.correlation_id, ...bookingFacts(booking) }),
        resultTimeoutMs,
        'cancel',
      );
    }
    return { booking_id: booking.booking_id, status: answer.status };
  }

  async function callback(text: string): Promise<{ correlation_id: string; status: PaymentStatus }> {
    let payload;
    try {
      payload = await verifyCallback(text, kit.options.accessKey);
    } catch (error) {
      if (!(error instanceof CallbackVerificationError)) throw error;
      const code =
        error.reason === 'bad_signature'
          ? CODES.INVALID_SIGNATURE
          : error.reason === 'wrong_signed_fields'
            ? CODES.INVALID_SIGNED_FIELDS
            : CODES.INVALID_REQUEST;
      throw new Refusal(code, error.message);
    }
    if (payload.product_code !== kit.options.productCode) {
      throw new Refusal(CODES.UNKNOWN_MERCHANT, `Callback refused: product_code "${payload.product_code}" is not this merchant's.`);
    }
    if (isFinalStatus(payload.status)) {
      // A booking this store no longer knows (pruned, or made before a move to a shared store) still
      // reaches the hook with what the service signed; the order travels in the booking's properties.
      const booking = await kit.store.findBookingByCorrelationId(payload.correlation_id);
      try {
        await deliver({
          source: 'callback',
          status: payload.status,
          correlation_id: payload.correlation_id,
          reference_code: payload.reference_code,
          ...(booking ? bookingFacts(booking) : {}),
          amount: payload.amount,
        });
      } catch (error) {
        // A 5xx makes the service retry; by then the instance holding the claim has delivered it.
        if (!(error instanceof ResultBusy)) kit.report(error, { route: 'callback' });
        throw new Refusal(CODES.INTERNAL, 'The merchant could not record this result yet; retry later.');
      }
    }
    return { correlation_id: payload.correlation_id, status: payload.status };
  }

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
  }: ReconcileOptions): Promise<ReconcileReport> {
    const started = kit.now();
    const deadline = started + timeBudgetMs;
    const done: ReconcileReport = { checked: 0, settled: 0, open: 0, failed: 0, unfinished: false };
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
          createdBefore: now - olderThanMs,
          // Checked by any instance since then (this pass included): not again. A pass that began a
          // moment after another instance's pass checked a booking would otherwise ask about it again.
          notCheckedSince: started - Math.max(0, recheckAfterMs),
          limit: 1,
          owner: kit.owner,
          now,
          until: now + kit.leaseMs,
        });
        if (!booking) return;
        done.checked++;
        try {
          const answer = await kit.client.status({ booking_id: booking.booking_id, correlation_id: booking.correlation_id });
          if (!isFinalStatus(answer.status)) {
            done.open++;
          } else {
            await deliver(statusResult(booking, answer, 'reconcile'));
            done.settled++;
          }
        } catch (error) {
          if (error instanceof ResultBusy) {
            done.open++;
          } else {
            done.failed++;
            kit.report(error, { route: 'reconcile' });
          }
        } finally {
          await kit.store.releaseCheck(booking.booking_id, kit.owner).catch((error: unknown) => kit.report(error, { route: 'reconcile' }));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.floor(concurrency)) }, worker));
    return done;
  }

  function statusResult(booking: StoredBooking, answer: ServiceStatus, source: 'status' | 'reconcile'): PaymentResult {
    return {
      source,
      status: answer.status,
      correlation_id: booking.correlation_id,
      reference_code: answer.reference_code,
      ...bookingFacts(booking),
    };
  }

  function deliver(result: PaymentResult): Promise<void> {
    const { correlation_id: correlationId, status: resultStatus } = result;
    const id = `${correlationId}\n${resultStatus}`;
    let pending = inFlightResults.get(id);
    if (!pending) {
      pending = (async () => {
        const now = kit.now();
        const claim = await kit.store.claimResult(correlationId, resultStatus, kit.owner, now, now + kit.leaseMs);
        if (claim === 'delivered') return;
        if (claim === 'busy') throw new ResultBusy(`Another instance is delivering ${resultStatus} for ${correlationId}.`);
        try {
          await kit.options.onPaymentResult(result);
        } catch (error) {
          await kit.store.releaseResult(correlationId, resultStatus, kit.owner).catch((release: unknown) => kit.report(release, { route: 'result' }));
          throw error;
        }
        await kit.store.completeResult(correlationId, resultStatus, kit.owner, kit.now());
      })();
      inFlightResults.set(id, pending);
      const forget = () => inFlightResults.delete(id);
      pending.then(forget, forget);
    }
    return pending;
  }

  return { status, cancel, callback, reconcile, deliver };
}
