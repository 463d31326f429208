/**
 * The result routes: `/status` and `/cancel` of the element, and the service's `/callback`. A final
 * status they learn is delivered (delivery.ts) within `resultTimeoutMs`: the shopper's answer does
 * not wait on a slow hook. A booking the store lost, named by a status or cancel, is found at the
 * service and, when the presented order's tag proves it, taken back: saved again with its order's
 * canonical id, so its result carries the order, the order's next book sees it (open or paid), and
 * `reconcile()` checks it even when the shopper never comes back.
 */
import { CODES, isFinalStatus, type CancelResult, type OrderReference, type PaymentStatus, type StatusResult } from '../protocol/contract.js';
import { describeValue, isRecord } from '../protocol/values.js';
import type { Kit } from './context.js';
import { bookingFacts, ImpossibleTransition, ResultBusy, type Delivery } from './delivery-terms.js';
import { depthOf, parseObject, Refusal } from './http.js';
import { MAX_ORDER_DEPTH } from './limits.js';
import { paidInRecords, readOrder, SetupRefusal } from './order-paid.js';
import { orderKeyOf } from './order-tag.js';
import type { PaymentProvider, ProviderStatus } from './provider.js';
import { StoreUnavailableError } from './store-errors.js';
import type { BookingState, StoredBooking } from './store.js';
import type { PaymentResult } from './types.js';

/** A booking the store lost, as its provider answered for it. */
type LostBooking = ProviderStatus & { transaction_uuid: string; booking_id: string; correlation_id: string; provider: PaymentProvider };

/** A booking a status or cancel names: the facts its results carry, and the provider's answer when the store had lost it. */
interface Found {
  booking_id: string;
  correlation_id: string;
  facts: Partial<PaymentResult>;
  /** The stored booking (absent for a lost one). */
  booking?: StoredBooking;
  lost?: LostBooking;
  /** The query of the return address the shopper came back to, when the browser sent it (a hint). */
  returned?: string;
  /** Statuses of a stored booking whose result was delivered already (none for a lost one). */
  delivered: BookingState['delivered'];
}

/** The result routes of the handler. */
export interface ResultRoutes {
  status(text: string, request: Request): Promise<StatusResult>;
  cancel(text: string, request: Request): Promise<CancelResult>;
  callback(text: string): Promise<{ correlation_id: string; status: PaymentStatus }>;
}

/** The result routes of one handler; a delivery waits at most `resultTimeoutMs` before the answer goes out. */
export function createResultRoutes(kit: Kit, delivery: Delivery, resultTimeoutMs: number): ResultRoutes {
  /**
   * Reads a status or cancel body and finds the booking it names. One this handler's store does not
   * hold (lost in a restart of a memory store, evicted, pruned) is asked about at the service, which
   * answers only for this merchant's product code and only with the matching correlation id: such a
   * booking comes with the service's answer (`lost`), and with the order the browser presented only
   * when the booking's own tag proves it (the booking is then saved again: see adoptLostBooking). A
   * stored booking comes with the statuses of it already delivered, read in the same round trip.
   */
  async function findBooking(text: string, request: Request): Promise<Found> {
    const body = parseObject(text, ['booking_id', 'correlation_id'], ['order', 'receipt', 'return']);
    if (body.return !== undefined && (typeof body.return !== 'string' || body.return.length > MAX_RETURN_CHARS)) {
      throw new Refusal(CODES.INVALID_REQUEST, `"return" must be the return address's query, at most ${MAX_RETURN_CHARS} characters; got ${describeValue(body.return)}.`);
    }
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
      return { booking_id, correlation_id, booking: state.booking, facts: bookingFacts(state.booking), delivered: state.delivered, returned: body.return as string | undefined };
    }
    // Made-up ids must cost no signed call: only a browser the kit gave this booking asks the provider,
    // and only a provider that can find a booking by the ids the browser holds.
    const finder = kit.providers.list.find((provider) => provider.find);
    if (!finder?.find || !(await kit.key.isReceiptOf(body.receipt, booking_id, correlation_id))) throw unknownBooking();
    const find = finder.find.bind(finder);
    let lost: LostBooking;
    try {
      lost = { ...(await find({ booking_id, correlation_id })), booking_id, correlation_id, provider: finder };
    } catch (error) {
      const refusal = kit.providers.refusalOf(error, 'status', finder);
      throw refusal instanceof Refusal && refusal.code === CODES.UNKNOWN_BOOKING ? unknownBooking() : refusal;
    }
    const proven = await kit.key.orderOfLostBooking(lost.transaction_uuid, body.order as PaymentResult['order']);
    const facts = proven ? await adoptLostBooking(kit, lost, proven, request) : { booking_id, transaction_uuid: lost.transaction_uuid };
    return { booking_id, correlation_id, lost, facts, delivered: [] };
  }

  async function status(text: string, request: Request): Promise<StatusResult> {
    const { booking_id, correlation_id, booking, lost, facts, delivered, returned } = await findBooking(text, request);
    const [answer] = await Promise.all([lost ?? kit.providers.status(booking!, 'status'), booking && returned !== undefined && readReturn(booking, returned)]);
    // A result already delivered needs no claim: a paid booking's later status checks read the store once.
    if (isFinalStatus(answer.status) && !delivered.includes(answer.status)) {
      // The shopper learns the status either way, within the time limit; a hook that failed or is still
      // running is finished or retried by the next status check, callback or reconcile pass.
      const result: PaymentResult = { source: 'status', status: answer.status, correlation_id, reference_code: answer.reference_code, ...facts, ...refundOf(answer) };
      await withinTime(kit, delivery.deliver(result), resultTimeoutMs, 'status');
    } else if (answer.partialRefund && booking) {
      // A payment that stays SUCCESS with part of it refunded since its delivery: told, as the provider says it.
      const provider = kit.providers.of(booking);
      kit.report(new PartialRefundNotice(booking_id, answer.partialRefund.amount), { route: 'status', booking_id, correlation_id, wallet: provider.wallet, provider: provider.name });
    }
    return { booking_id, correlation_id, status: answer.status, updated_at: answer.updated_at };
  }

  async function cancel(text: string, request: Request): Promise<CancelResult> {
    const { booking_id, correlation_id, facts, booking, lost } = await findBooking(text, request);
    const stored = booking ?? lostRef(lost!);
    const answer = await kit.providers.cancel(stored, 'cancel');
    if (!answer) {
      // A provider without cancel: what it says now decides. An open booking stays open at the
      // provider (a page of it may still pay), so it stays open here too: reconcile and /order keep
      // asking until the provider ends it (expired, cancelled there: CANCELED delivered) or it is paid
      // (delivered as what it is, a duplicate where the order was paid). The shopper who asked to
      // cancel is answered CANCELED and goes on.
      const now = lost ?? (await kit.providers.status(stored, 'cancel'));
      if (!isFinalStatus(now.status)) return { booking_id, status: 'CANCELED' };
      await withinTime(kit, delivery.deliver({ source: 'status', status: now.status, correlation_id, reference_code: now.reference_code, ...facts }), resultTimeoutMs, 'cancel');
      return { booking_id, status: now.status };
    }
    if (isFinalStatus(answer.status)) {
      await withinTime(kit, delivery.deliver({ source: 'cancel', status: answer.status, correlation_id, ...facts }), resultTimeoutMs, 'cancel');
    }
    return { booking_id, status: answer.status };
  }

  /**
   * The return address a browser sent with its status check, read by a provider that signs it: a hint
   * only (the status check decides), but one that is not the provider's, or names another payment, is
   * a forged or replayed return, told to `onError`.
   */
  async function readReturn(booking: StoredBooking, query: string): Promise<void> {
    const provider = kit.providers.of(booking);
    if (!provider.readReturn) return;
    const reading = await provider.readReturn(query, booking).catch((error: unknown) => ({ ok: false as const, reason: 'unreadable', message: String(error) }));
    if (reading.ok) return;
    kit.report(new ReturnRefusedError(`A return to booking ${booking.booking_id} was refused (${reading.reason}): ${reading.message} The status check decided the payment; the return may be forged or replayed.`, reading.reason), {
      route: 'status',
      booking_id: booking.booking_id,
      correlation_id: booking.correlation_id,
      wallet: provider.wallet,
      provider: provider.name,
    });
  }

  return { status, cancel, callback: (text) => callback(kit, delivery, text) };
}

/** Waits for a delivery at most `limitMs`; a hook that fails or runs late is told to `onError`, never to the shopper. */
async function withinTime(kit: Kit, delivery: Promise<void>, limitMs: number, route: string): Promise<void> {
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

/** Verifies a callback and delivers its final result; a result the merchant could not record yet is refused, so the service retries it. */
async function callback(kit: Kit, delivery: Delivery, text: string): Promise<{ correlation_id: string; status: PaymentStatus }> {
  // The provider with signed server callbacks (the others tell the outcome on the shopper's return).
  const provider = kit.providers.list.find((candidate) => candidate.callback);
  if (!provider?.callback) throw new Refusal(CODES.NOT_FOUND, 'No provider of this shop sends callbacks.');
  const payload = await provider.callback(text);
  if (isFinalStatus(payload.status)) {
    const booking = await kit.store.findBookingByCorrelationId({ correlationId: payload.correlation_id });
    if (!booking) {
      // Signed, but not a booking of this store: a result without its order pays no order, and a
      // store that truly lost a booking recovers it when the shopper's element asks /status (the kit
      // confirms it with the service). Refused, so the service does not count it delivered, and told.
      kit.report(
        new Error(
          `A signed callback for a booking this store does not know was refused (correlation_id ${payload.correlation_id}, ` +
            `status ${payload.status}, reference_code ${payload.reference_code ?? ''}, amount ${payload.amount ?? ''}). ` +
            'If another system books with the same product code, give each its own callbackUrl.',
        ),
        { route: 'callback', correlation_id: payload.correlation_id },
      );
      throw new Refusal(CODES.UNKNOWN_BOOKING, 'Callback refused: no booking of this merchant has this correlation_id.');
    }
    try {
      await delivery.deliver({
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

/** What a provider needs of a lost booking to cancel or ask it: the ids the browser presented. */
function lostRef(lost: LostBooking): StoredBooking {
  return {
    booking_id: lost.booking_id,
    correlation_id: lost.correlation_id,
    transaction_uuid: lost.transaction_uuid,
    idempotency_key: '',
    fingerprint: '',
    channel: 'app',
    order: {},
    order_key: '',
    amount: lost.amount ?? 0,
    deeplink: '',
    provider: lost.provider.name,
    provider_data: '',
    created_at: 0,
  };
}

/** A payment the provider reports partly refunded since its SUCCESS was delivered (told to `onError`; the payment stays SUCCESS). */
export class PartialRefundNotice extends Error {
  override name = 'PartialRefundNotice';
  /** Rupees refunded, when the provider says (eSewa's status check does not). */
  readonly amount: number | undefined;
  constructor(bookingId: string, amount: number | undefined) {
    super(`The provider reports booking ${bookingId} partly refunded${amount === undefined ? '' : ` (Rs ${amount})`}; the payment stays SUCCESS.`);
    this.amount = amount;
  }
}

/** A status answer's partial refund, as a result carries it. */
export function refundOf(answer: ProviderStatus): Pick<PaymentResult, 'partial_refund'> {
  return answer.partialRefund ? { partial_refund: { ...answer.partialRefund } } : {};
}

/** The longest return query read (a signed return is a few hundred characters). */
const MAX_RETURN_CHARS = 4096;

/** A return address a provider refused: told to `onError`, never to the shopper (the status check decides). */
export class ReturnRefusedError extends Error {
  override name = 'ReturnRefusedError';
  /** The provider's reason (`signature`, `product-code`, `booking`, ...). */
  readonly reason: string;
  constructor(message: string, reason: string) {
    super(message);
    this.reason = reason;
  }
}

function unknownBooking(): Refusal {
  return new Refusal(CODES.UNKNOWN_BOOKING, 'No booking with this booking_id and correlation_id was made here.');
}

/**
 * The key an adopted booking is saved under: `/` is outside the Idempotency-Key alphabet, so no browser
 * can replay it.
 */
const ADOPTED_PREFIX = 'lost/';

/**
 * Saves a lost booking the presented `order` proved, and answers the facts its results carry. A lookup
 * that fails, or does not answer a payable order (paid, unknown), leaves the booking unsaved: its result
 * still carries the proven order.
 */
async function adoptLostBooking(
  kit: Kit,
  lost: LostBooking,
  proven: { order: OrderReference; amount: number },
  request: Request,
): Promise<Partial<PaymentResult>> {
  const plain: Partial<PaymentResult> = { booking_id: lost.booking_id, transaction_uuid: lost.transaction_uuid, ...proven };
  let standing: Awaited<ReturnType<typeof paidInRecords>>;
  try {
    standing = await paidInRecords(kit, await readOrder(kit, proven.order, request, 'status'));
  } catch (error) {
    // A lookup the merchant must fix is refused as on every route; a failed lookup or an unknown
    // order leaves the booking unsaved: its result still carries the proven order.
    if (error instanceof SetupRefusal) throw error;
    return plain;
  }
  if (standing.paid) return plain;
  const id = standing.order.id;
  const booking: StoredBooking = {
    booking_id: lost.booking_id,
    correlation_id: lost.correlation_id,
    transaction_uuid: lost.transaction_uuid,
    idempotency_key: `${ADOPTED_PREFIX}${lost.transaction_uuid}`,
    // The channel is not known again; no request can name this key, so the fingerprint is never compared.
    fingerprint: JSON.stringify(['v2', 'app', id, 'adopted']),
    channel: 'app',
    order: proven.order,
    order_key: await orderKeyOf(id),
    amount: proven.amount,
    deeplink: '',
    provider: lost.provider.name,
    provider_data: '',
    created_at: kit.now(),
  };
  // Saved once: a concurrent adoption of the same booking finds the key taken, which is as good.
  await kit.store.insertBooking({ booking });
  return bookingFacts(booking);
}
