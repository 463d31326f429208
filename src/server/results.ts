/**
 * Result delivery and reconciliation: the status and cancel answers, the service's callback, and the
 * merchant's own status checks, each final result handed to `onPaymentResult` once.
 */
import { CODES, isFinalStatus, STATUS_CHECK_AFTER_MS, type CancelResult, type PaymentStatus, type StatusResult } from '../protocol/contract.js';
import { CallbackVerificationError, verifyCallback } from './callback.js';
import { bookingFacts, type Booking } from './booking.js';
import { Refusal } from './http.js';
import { serviceCall, type Kit } from './kit.js';
import type { ServiceStatus } from './service-client.js';
import type { StoredBooking } from './store.js';
import type { PaymentResult, ReconcileOptions, ReconcileReport } from './types.js';

/** The result half of the handler. */
export interface Results {
  status(text: string): Promise<StatusResult>;
  cancel(text: string): Promise<CancelResult>;
  callback(text: string): Promise<{ correlation_id: string; status: PaymentStatus }>;
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
}

export function createResults(kit: Kit, { ownBooking }: Pick<Booking, 'ownBooking'>): Results {
  const inFlightResults = new Map<string, Promise<void>>();

  async function status(text: string): Promise<StatusResult> {
    const booking = await ownBooking(text);
    const answer = await serviceCall(kit, 'status', () =>
      kit.client.status({ booking_id: booking.booking_id, correlation_id: booking.correlation_id }),
    );
    if (isFinalStatus(answer.status)) {
      // The browser learns the status either way; a failed hook is retried by the next check or callback.
      await deliverStatus(booking, answer, 'status').catch((error: unknown) => kit.report(error, { route: 'status' }));
    }
    return {
      booking_id: booking.booking_id,
      correlation_id: booking.correlation_id,
      status: answer.status,
      updated_at: answer.updated_at,
    };
  }

  async function cancel(text: string): Promise<CancelResult> {
    const booking = await ownBooking(text);
    const answer = await serviceCall(kit, 'cancel', () => kit.client.cancel({ booking_id: booking.booking_id }));
    if (isFinalStatus(answer.status)) {
      await deliver(booking.correlation_id, {
        source: 'cancel',
        status: answer.status,
        correlation_id: booking.correlation_id,
        ...bookingFacts(booking),
      }).catch((error: unknown) => kit.report(error, { route: 'cancel' }));
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
      const booking = await kit.store.findBookingByCorrelationId(payload.correlation_id);
      try {
        await deliver(payload.correlation_id, {
          source: 'callback',
          status: payload.status,
          correlation_id: payload.correlation_id,
          reference_code: payload.reference_code,
          ...(booking ? bookingFacts(booking) : {}),
          amount: payload.amount,
        });
      } catch (error) {
        kit.report(error, { route: 'callback' });
        throw new Refusal(CODES.INTERNAL, 'The merchant could not record this result yet; retry later.');
      }
    }
    return { correlation_id: payload.correlation_id, status: payload.status };
  }

  async function reconcile({ olderThanMs = STATUS_CHECK_AFTER_MS }: ReconcileOptions = {}): Promise<ReconcileReport> {
    if (typeof kit.store.listOpenBookings !== 'function') {
      throw new TypeError('reconcile() needs a store with listOpenBookings(createdBefore); add it to your PaymentStore.');
    }
    const done: ReconcileReport = { checked: 0, settled: 0, open: 0, failed: 0 };
    // One at a time: a pass is background work and must not crowd the service.
    for (const booking of await kit.store.listOpenBookings(Date.now() - olderThanMs)) {
      done.checked++;
      try {
        const answer = await kit.client.status({ booking_id: booking.booking_id, correlation_id: booking.correlation_id });
        if (!isFinalStatus(answer.status)) {
          done.open++;
          continue;
        }
        await deliverStatus(booking, answer, 'reconcile');
        done.settled++;
      } catch (error) {
        done.failed++;
        kit.report(error, { route: 'reconcile' });
      }
    }
    return done;
  }

  /** Hands a status check's final answer about one of this handler's bookings to the hook. */
  function deliverStatus(booking: StoredBooking, answer: ServiceStatus, source: 'status' | 'reconcile'): Promise<void> {
    return deliver(booking.correlation_id, {
      source,
      status: answer.status,
      correlation_id: booking.correlation_id,
      reference_code: answer.reference_code,
      ...bookingFacts(booking),
    });
  }

  /** Hands a final result to the hook once per booking and status; concurrent deliveries share one call. */
  function deliver(correlationId: string, result: PaymentResult): Promise<void> {
    const id = `${correlationId}\n${result.status}`;
    let pending = inFlightResults.get(id);
    if (!pending) {
      pending = (async () => {
        if (await kit.store.isResultDelivered(correlationId, result.status)) return;
        await kit.options.onPaymentResult(result);
        await kit.store.markResultDelivered(correlationId, result.status);
      })();
      inFlightResults.set(id, pending);
      const forget = () => inFlightResults.delete(id);
      pending.then(forget, forget);
    }
    return pending;
  }


  return { status, cancel, callback, reconcile };
}
