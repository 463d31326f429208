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
import { describeValue, isRecord } from '../protocol/values.js';
import { cancelAtService, DEFAULT_CANCEL_AFTER_MS } from './abandon.js';
import { orderOfLostBooking } from './booking.js';
import { CallbackVerificationError, verifyCallback } from './callback.js';
import { createDuplicates } from './duplicate.js';
import { MAX_ORDER_DEPTH } from './limits.js';
import { depthOf, parseObject, Refusal } from './http.js';
import { bookingFacts, LeaseLost, ResultBusy, serviceCall, type Delivery, type Kit } from './kit.js';
import { isReceiptOf } from './receipt.js';
import { adoptLostBooking } from './recovery.js';
import { ServiceError, type ServiceStatus } from './service-client.js';
import { StoreUnavailableError } from './store-errors.js';
import type { BookingState, LeaseHold, StoredBooking } from './store.js';
import type { PaymentResult, ReconcileOptions, ReconcileReport } from './types.js';

/** A booking a status or cancel names: the facts its results carry, and the service's answer when the store had lost it. */
interface Found {
  booking_id: string;
  correlation_id: string;
  facts: Partial<PaymentResult>;
  lost?: ServiceStatus;
  /** Statuses of a stored booking whose result was delivered already (none for a lost one). */
  delivered: BookingState['delivered'];
}

/** A final status that cannot follow what is known of its booking: told to `onError`, never delivered. */
export class ImpossibleTransition extends Error {
  override name = 'ImpossibleTransition';
}

/** The result half of the handler. */
export interface Results extends Delivery {
  status(text: string, request: Request): Promise<StatusResult>;
  cancel(text: string, request: Request): Promise<CancelResult>;
  callback(text: string): Promise<{ correlation_id: string; status: PaymentStatus }>;
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
}

export function createResults(kit: Kit): Results {
  const inFlightResults = new Map<string, Promise<void>>();
  const resultTimeoutMs = kit.options.resultTimeoutMs ?? 10_000;
  const duplicates = createDuplicates(kit);
  let runningPass: Promise<ReconcileReport> | undefined;

  /**
   * Reads a status or cancel body and finds the booking it names. One this handler's store does not
   * hold (lost in a restart of a memory store, evicted, pruned) is asked about at the service, which
   * answers only for this merchant's product code and only with the matching correlation id: such a
   * booking comes with the service's answer (`lost`), and with the order the browser presented only
   * when the booking's own tag proves it (the booking is then saved again: see recovery.ts). A stored booking comes with the statuses of it already
   * delivered, read in the same round trip.
   */
  async function findBooking(text: string, request: Request): Promise<Found> {
    const body = parseObject(text, ['booking_id', 'correlation_id'], ['order', 'receipt']);
    for (const name of ['booking_id', 'correlation_id'] as const) {
      const value = body[name];
      if (typeof value !== 'string' || value.length === 0 || value.length > 128) {
        throw new Refusal(CODES.INVALID_REQUEST, `"${name}" must be a non-empty string of at most 128 characters; got ${describeValue(value)}.`);
      }
    }
    if (body.order !== undefined && (!isRecord(body.order) || depthOf(body.order, MAX_ORDER_DEPTH) > MAX_ORDER_DEPTH)) {
      throw new Refusal(CODES.INVALID_REQUEST, `"order" must be the order object the booking was made for; got ${describeValue(body.order)}.`);
    }
    const booking_id = body.booking_id as string;
    const correlation_id = body.correlation_id as string;
    const state = await kit.store.getBookingState({ bookingId: booking_id });
    if (state) {
      if (state.booking.correlation_id !== correlation_id) throw unknownBooking();
      return { booking_id, correlation_id, facts: bookingFacts(state.booking), delivered: state.delivered };
    }
    // Made-up ids must cost no signed call: only a browser the kit gave this booking asks the service.
    if (!(await isReceiptOf(kit, body.receipt, booking_id, correlation_id))) throw unknownBooking();
    let lost: ServiceStatus;
    try {
      lost = await kit.client.status({ booking_id, correlation_id });
    } catch (error) {
      if (error instanceof ServiceError && error.kind === 'rejected' && error.code === CODES.UNKNOWN_BOOKING) throw unknownBooking();
      return serviceCall(kit, 'status', () => Promise.reject(error));
    }
    if (lost.booking_id !== booking_id || lost.correlation_id !== correlation_id || lost.product_code !== kit.options.productCode) {
      throw unknownBooking();
    }
    const proven = await orderOfLostBooking(kit, lost.transaction_id, body.order as PaymentResult['order']);
    const facts = proven ? await adoptLostBooking(kit, lost, proven, request) : { booking_id, transaction_uuid: lost.transaction_id };
    return { booking_id, correlation_id, lost, facts, delivered: [] };
  }

  function unknownBooking(): Refusal {
    return new Refusal(CODES.UNKNOWN_BOOKING, 'No booking with this booking_id and correlation_id was made here.');
  }

  async function status(text: string, request: Request): Promise<StatusResult> {
    const { booking_id, correlation_id, lost, facts, delivered } = await findBooking(text, request);
    const answer = lost ?? (await serviceCall(kit, 'status', () => kit.client.status({ booking_id, correlation_id })));
    // A result already delivered needs no claim: a paid booking's later status checks read the store once.
    if (isFinalStatus(answer.status) && !delivered.includes(answer.status)) {
      // The shopper learns the status either way, within the time limit; a hook that failed or is still
      // running is finished or retried by the next status check, callback or reconcile pass.
      const result: PaymentResult = { source: 'status', status: answer.status, correlation_id, reference_code: answer.reference_code, ...facts };
      await withinTime(deliver(result), resultTimeoutMs, 'status');
    }
    return { booking_id, correlation_id, status: answer.status, updated_at: answer.updated_at };
  }

  async function withinTime(delivery: Promise<void>, limitMs: number, route: string): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limitMs);
    });
    const settled = delivery.then(
      () => 'done' as const,
      (error: unknown) => {
        if (!(error instanceof ResultBusy) && !(error instanceof ImpossibleTransition)) kit.report(error, { route });
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

  async function cancel(text: string, request: Request): Promise<CancelResult> {
    const { booking_id, correlation_id, facts } = await findBooking(text, request);
    const answer = await serviceCall(kit, 'cancel', () => kit.client.cancel({ booking_id }));
    if (isFinalStatus(answer.status)) {
      await withinTime(deliver({ source: 'cancel', status: answer.status, correlation_id, ...facts }), resultTimeoutMs, 'cancel');
    }
    return { booking_id, status: answer.status };
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
      const booking = await kit.store.findBookingByCorrelationId({ correlationId: payload.correlation_id });
      if (!booking) {
        // Signed, but not a booking of this store: a result without its order pays no order, and a
        // store that truly lost a booking recovers it when the shopper's element asks /status (the kit
        // confirms it with the service). Refused, so the service does not count it delivered, and told.
        kit.report(
          new Error(
            `A signed callback for a booking this store does not know was refused (correlation_id ${payload.correlation_id}, ` +
              `status ${payload.status}, reference_code ${payload.reference_code}, amount ${payload.amount}). ` +
              'If another system books with the same product code, give each its own callbackUrl.',
          ),
          { route: 'callback', correlation_id: payload.correlation_id },
        );
        throw new Refusal(CODES.UNKNOWN_BOOKING, 'Callback refused: no booking of this merchant has this correlation_id.');
      }
      try {
        await deliver({
          source: 'callback',
          status: payload.status,
          correlation_id: payload.correlation_id,
          reference_code: payload.reference_code,
          ...bookingFacts(booking),
          amount: payload.amount,
        });
      } catch (error) {
        // Recorded and told to onError; a retry of this callback cannot change it.
        if (error instanceof ImpossibleTransition) return { correlation_id: payload.correlation_id, status: payload.status };
        if (error instanceof StoreUnavailableError) throw error;
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
            const status = await cancelAtService(kit, booking, { deliver });
            done[status === 'CANCELED' ? 'cancelled' : isFinalStatus(status) ? 'settled' : 'open']++;
          } else if (!isFinalStatus(answer.status)) {
            done.open++;
          } else {
            await deliver(statusResult(booking, answer, 'reconcile'));
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

  /**
   * Hands a final result to the hook once per booking and status. Concurrent deliveries in this process
   * share one call; across processes the store's claim decides, and the losers get {@link ResultBusy}.
   * A status that contradicts what is known of the booking (a failure after its `SUCCESS`, a refund of
   * a booking never paid) is told to `onError` and rejected with {@link ImpossibleTransition}. Under a
   * book's `hold`, a claim refused because the order was taken over rejects with {@link LeaseLost}.
   */
  function deliver(result: PaymentResult, options: { hold?: LeaseHold } = {}): Promise<void> {
    const { correlation_id: correlationId, status } = result;
    const id = `${correlationId}\n${status}`;
    let pending = inFlightResults.get(id);
    if (!pending) {
      pending = (async () => {
        const owner = kit.owner;
        // A book's hold fences the claim when there is one; else the hold of the order's paid lease does.
        const { claim, result: told } = await duplicates.claim(result, (paidHold) => {
          const hold = options.hold ?? paidHold;
          return kit.store.claimResult({ correlationId, status, owner, leaseMs: kit.leaseMs, ...(hold && { hold }) });
        });
        if (claim === 'delivered') return;
        if (claim === 'busy') throw new ResultBusy(`Another instance is delivering ${status} for ${correlationId}.`);
        if (claim === 'stale') throw new LeaseLost(`The order of ${correlationId} was taken over; its ${status} is left to the next check.`);
        let handed = false;
        try {
          await checkTransition(result);
          await kit.options.onPaymentResult(told);
          handed = true;
          await kit.store.completeResult({ correlationId, status, owner });
        } finally {
          // Not taken by the hook (it threw, or the transition was refused): given back, so the next
          // check retries at once. A hook that finished keeps its claim even when marking it failed, so
          // it is not run again before the claim's lease ends.
          if (!handed) await kit.store.releaseResult({ correlationId, status, owner }).catch((release: unknown) => kit.report(release, { route: 'result' }));
        }
        duplicates.delivered(told);
      })();
      inFlightResults.set(id, pending);
      const forget = () => inFlightResults.delete(id);
      pending.then(forget, forget);
    }
    return pending;
  }

  /**
   * One rule for a status that contradicts what is known of its booking: what says money moved is
   * delivered, what says it did not is not, once money moved. A `SUCCESS` is always delivered (after a
   * `FAILED` or `CANCELED` too: the service says the money arrived). A `REVERTED` always follows its
   * `SUCCESS`: one seen but never delivered (its hook failed, the kit lost the booking, or the booking
   * ended `FAILED` or `CANCELED` first, which is told to `onError`) is delivered first. A `FAILED` or
   * `CANCELED` after a `SUCCESS` is told and not delivered (only a `REVERTED` gives money back). What is
   * known is read from the store in one read, with the deliveries this process runs now.
   */
  async function checkTransition(result: PaymentResult): Promise<void> {
    if (result.status === 'SUCCESS') return;
    const { correlation_id } = result;
    const known = new Set((await kit.store.getResults({ correlationId: correlation_id })).map((r) => r.status));
    for (const status of ['SUCCESS', 'FAILED', 'CANCELED'] as const) if (inFlightResults.has(`${correlation_id}\n${status}`)) known.add(status);
    if (result.status === 'REVERTED') {
      if (known.has('SUCCESS')) return;
      const ended = known.has('FAILED') ? 'FAILED' : known.has('CANCELED') ? 'CANCELED' : undefined;
      if (ended) {
        kit.report(new Error(`Unexpected transition: ${result.source} reported REVERTED for booking ${describe(result)}, which ended ${ended}; delivered after its SUCCESS.`), {
          route: result.source,
          correlation_id: result.correlation_id,
          booking_id: result.booking_id,
        });
      }
      await deliver({ ...result, status: 'SUCCESS' });
      return;
    }
    if (!known.has('SUCCESS')) return;
    const error = new ImpossibleTransition(`Impossible transition: ${result.source} reported ${result.status} for booking ${describe(result)} after its SUCCESS; not delivered.`);
    kit.report(error, { route: result.source, correlation_id: result.correlation_id, booking_id: result.booking_id });
    throw error;
  }

  function describe(result: PaymentResult): string {
    return result.booking_id ?? `with correlation_id ${result.correlation_id}`;
  }

  return { status, cancel, callback, reconcile, deliver };
}
