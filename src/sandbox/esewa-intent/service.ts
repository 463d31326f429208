/**
 * The sandbox's bookings and rules, without any I/O: idempotent booking, states and transitions,
 * and expiry against an injected clock. The requests reach it validated and authenticated by
 * `request.ts`. The HTTP layer turns its results into responses; the orchestrator in `../index.ts`
 * turns its page actions into callbacks.
 */
import { randomUUID } from 'node:crypto';
import {
  CANCELLABLE_STATUSES,
  CODES,
  HTTP_STATUS_OF_CODE,
  type FailureEnvelope,
  type PaymentStatus,
  type ResponseCode,
  type SuccessEnvelope,
} from '../../protocol/contract.js';
import { describeValue } from '../../protocol/values.js';
// The request checks read no booking: they live in their own module, which does not import this one.
import { RequestError, authenticate, bookFields, checkFields, invalid, parseRequest, requireString, type BookFields, type Operation, type RequestRules } from './request.js';
import { findScenario, scenarioOfAmount, type Scenario } from './scenarios.js';
import { BookingLedger } from './bookings.js';

// Where the API's types and limits were always imported from; they are defined with the request checks.
export { LIMITS, type Operation } from './request.js';
// Where the bound was always imported from; the bookings' ledger keeps it.
export { MAX_BOOKINGS } from './bookings.js';

/** How the shopper pays on the wallet or web payment page. */
export type PaymentMethod = 'wallet_balance' | 'bank_account';

/** The payment methods the pages offer, with their labels. */
export const PAYMENT_METHODS: Readonly<Record<PaymentMethod, string>> = {
  wallet_balance: 'Wallet balance',
  bank_account: 'Linked bank account (direct debit)',
};

/** One change of a booking's status. */
export interface StatusChange {
  status: PaymentStatus;
  /** Epoch milliseconds on the sandbox's clock. */
  at: number;
  /** What caused it: `booked`, `confirmed`, `mpin_rejected`, `cancelled_by_merchant`, ... */
  reason: string;
}

/** A booking as the sandbox holds it. `getBooking` hands out copies. */
export interface SandboxBooking extends BookFields {
  booking_id: string;
  correlation_id: string;
  status: PaymentStatus;
  reference_code: string;
  /** Epoch milliseconds. */
  created_at: number;
  /** Epoch milliseconds of the last status change. */
  updated_at: number;
  /** Epoch milliseconds after which an unpaid (`BOOKED`) booking reads as `CANCELED`. */
  expires_at: number;
  payment_method?: PaymentMethod;
  history: StatusChange[];
  /** The scenario chosen for this booking (`WPS-…`), when one was; logs and reports name it. */
  scenario?: string;
}

/** Where a book request's scenario came from (the header and the sticky choice are not in the body). */
export interface BookContext {
  /** The `Wallet-Pay-Scenario` header's value. */
  headerScenario?: string;
}

/** What an API operation answers: the HTTP status and the spec's envelope. */
export interface ApiResult {
  httpStatus: number;
  body: SuccessEnvelope<Record<string, unknown>> | FailureEnvelope;
  /** Top-level fields the spec does not list for the operation, accepted and ignored (not strict). */
  ignoredFields?: string[];
  /** Hold the answer this long (a slow-service scenario). */
  delayMs?: number;
  /** Answer a bare 503 instead (a service-down scenario). */
  outage?: boolean;
  /** The booking's scenario, for the log line. */
  scenario?: string;
}

/** Options of the booking rules. */
export interface ServiceOptions {
  accessKey: string;
  productCodes: readonly string[];
  bookingTtlMs: number;
  now: () => number;
  /** Origin of the deeplinks, e.g. `http://127.0.0.1:4011` (read when a booking is answered). */
  linksUrl: () => string;
  /** Refuse top-level fields the spec does not list (IP-422) instead of ignoring them. */
  strict?: boolean;
  /** Called after every new booking and status change (the sandbox's state file is written then). */
  onChange?: () => void;
  /** Rules a profile relaxes (string amounts, custom-scheme redirects). */
  rules?: RequestRules;
  /** Called when the merchant's cancel succeeded, for scenarios that act on it. */
  onMerchantCancel?: (booking: SandboxBooking) => void;
}

/** The outcome of a page action (confirm, cancel on the page, revert). */
export type ActionResult =
  | { ok: true; booking: SandboxBooking; notify: boolean }
  | { ok: false; reason: 'unknown_booking' | 'already_processed' | 'expired' | 'invalid_mpin' | 'invalid_method' | 'not_revertible' | 'unknown_scenario'; booking?: SandboxBooking };

/** The MPIN that makes a payment fail (a test control). */
export const FAILING_MPIN = '0000';

const MESSAGES = {
  book: 'Success',
  status: 'Payment status fetched successfully',
  cancel: 'Transaction cancelled',
} as const;

/** Formats epoch milliseconds as the spec's `YYYY-MM-DD HH:MM:SS` (UTC). */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function failure(code: ResponseCode, errorMessage: string): ApiResult {
  return { httpStatus: HTTP_STATUS_OF_CODE[code], body: { code, error_message: errorMessage } };
}

function success(code: ResponseCode, message: string, data: Record<string, unknown>): ApiResult {
  return { httpStatus: HTTP_STATUS_OF_CODE[code], body: { code, message, data } };
}

function sameContent(booking: SandboxBooking, request: BookFields): boolean {
  const a = booking.properties;
  const b = request.properties;
  const keys = Object.keys(a);
  return (
    booking.amount === request.amount &&
    booking.callback_url === request.callback_url &&
    booking.redirect_url === request.redirect_url &&
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key])
  );
}


function copy(booking: SandboxBooking): SandboxBooking {
  return structuredClone(booking);
}

/** The sandbox's bookings and the rules of the three operations and the pages. */
export class SandboxService {
  private readonly bookings: BookingLedger;
  private readonly productCodes: ReadonlySet<string>;
  private readonly sticky = new Map<string, string>();
  /** The whole service is down until `until` (sandbox clock), because a booking's scenario said so. */
  private outage: { until: number; scenario: string } | undefined;

  constructor(private readonly options: ServiceOptions) {
    this.productCodes = new Set(options.productCodes);
    this.bookings = new BookingLedger(options.now);
  }

  /** Handles the raw JSON text of a request to one of the three operations. */
  async handle(operation: Operation, rawBody: string, context: BookContext = {}): Promise<ApiResult> {
    // Reported even when the request is refused later: the merchant should see them either way.
    let ignoredFields: string[] = [];
    let result: ApiResult;
    // A service that is down answers nothing it was asked, whatever the booking, the body or the key.
    const down = this.outageNow();
    if (down) return { httpStatus: 503, body: failure(CODES.INTERNAL, 'Service Unavailable').body, outage: true, scenario: down.scenario };
    try {
      const { body, rawMembers } = parseRequest(rawBody);
      ignoredFields = checkFields(operation, body, this.options.strict);
      result = await this.run(operation, body, rawMembers, context);
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      result = failure(error.code, error.message);
    }
    return ignoredFields.length > 0 ? { ...result, ignoredFields } : result;
  }

  private async run(operation: Operation, body: Record<string, unknown>, rawMembers: Map<string, string>, context: BookContext): Promise<ApiResult> {
    const productCode = requireString(body, 'product_code');
    const signedFieldNames = body['signed_field_names'];
    const signature = body['signature'];
    if (typeof signedFieldNames !== 'string') invalid(`Field "signed_field_names" must be a string; got ${describeValue(signedFieldNames)}.`);
    if (typeof signature !== 'string') invalid(`Field "signature" must be a string; got ${describeValue(signature)}.`);
    if (operation === 'book') {
      const fields = bookFields(body, rawMembers, this.options.rules);
      const scenario = this.chooseScenario(fields, context);
      await authenticate(operation, body, rawMembers, productCode, this.productCodes, this.options.accessKey);
      return this.withScenario(this.book(fields, scenario));
    }
    const bookingId = requireString(body, 'booking_id');
    const correlationId = operation === 'status' ? requireString(body, 'correlation_id') : undefined;
    await authenticate(operation, body, rawMembers, productCode, this.productCodes, this.options.accessKey);
    return this.withScenario(operation === 'status' ? this.status(bookingId, productCode, correlationId!) : this.cancel(bookingId, productCode));
  }

  /** Adds the booking's scenario (and its slowness) to an answer about it. */
  private withScenario(result: ApiResult): ApiResult {
    const data = (result.body as { data?: { booking_id?: unknown } }).data;
    const booking = typeof data?.booking_id === 'string' ? this.bookings.get(data.booking_id) : undefined;
    const scenario = booking?.scenario === undefined ? undefined : findScenario(booking.scenario);
    if (!scenario) return result;
    return { ...result, scenario: scenario.id, ...(scenario.slowMs ? { delayMs: scenario.slowMs } : {}) };
  }

  /** The header first, then `properties.sandbox_scenario`, the product code's sticky choice, a magic amount. */
  private chooseScenario(fields: BookFields, context: BookContext): Scenario | undefined {
    const named = (id: string, where: string) => {
      const scenario = findScenario(id);
      if (!scenario) invalid(`${where}: no scenario "${id}"; \`wallet-pay-sandbox scenarios\` lists them (WPS-001 ...).`);
      return scenario;
    };
    if (context.headerScenario !== undefined) return named(context.headerScenario, 'Header Wallet-Pay-Scenario');
    const property = fields.properties['sandbox_scenario'];
    if (property !== undefined) return named(property, 'properties.sandbox_scenario');
    const sticky = this.sticky.get(fields.product_code);
    if (sticky !== undefined) return findScenario(sticky);
    return scenarioOfAmount(fields.amount);
  }

  /** Sets (or with undefined, clears) the scenario every new booking of `productCode` gets. */
  setStickyScenario(productCode: string, scenario: Scenario | undefined): void {
    if (scenario) this.sticky.set(productCode, scenario.id);
    else this.sticky.delete(productCode);
  }

  /** The sticky scenarios, by product code. */
  stickyScenarios(): Record<string, string> {
    return Object.fromEntries(this.sticky);
  }

  private book(fields: BookFields, scenario?: Scenario): ApiResult {
    // From here on there is no await: the idempotency lookup and the insert happen in one turn,
    // so concurrent bookings of one transaction_uuid cannot both create a booking.
    const existing = this.bookings.ofTransaction(fields.product_code, fields.transaction_uuid);
    if (existing) {
      if (!sameContent(existing, fields)) {
        throw new RequestError(
          CODES.IDEMPOTENCY_CONFLICT,
          `transaction_uuid "${fields.transaction_uuid}" was already booked with different content.`,
        );
      }
      return success(CODES.OK, MESSAGES.book, this.bookData(existing));
    }
    const now = this.options.now();
    let bookingId: string;
    do bookingId = `BK-${randomUUID()}`;
    while (this.bookings.has(bookingId));
    const booking: SandboxBooking = {
      booking_id: bookingId,
      correlation_id: randomUUID(),
      ...fields,
      status: 'BOOKED',
      reference_code: `REF-${randomUUID().replaceAll('-', '').slice(0, 16).toUpperCase()}`,
      created_at: now,
      updated_at: now,
      expires_at: now + (scenario?.ttlMs ?? this.options.bookingTtlMs),
      history: [{ status: 'BOOKED', at: now, reason: 'booked' }],
      ...(scenario ? { scenario: scenario.id } : {}),
    };
    this.bookings.add(booking);
    this.options.onChange?.();
    return success(CODES.OK, MESSAGES.book, this.bookData(booking));
  }

  private bookData(booking: SandboxBooking): Record<string, unknown> {
    return {
      booking_id: booking.booking_id,
      deeplink: `${this.options.linksUrl()}/pay/${encodeURIComponent(booking.booking_id)}`,
      correlation_id: booking.correlation_id,
    };
  }

  private ownBooking(bookingId: string, productCode: string): SandboxBooking {
    const booking = this.live(bookingId);
    // Another merchant's booking is answered like an unknown one, so ids cannot be probed.
    if (!booking || booking.product_code !== productCode) {
      throw new RequestError(CODES.UNKNOWN_BOOKING, `No booking "${bookingId}" for product_code "${productCode}".`);
    }
    return booking;
  }

  private status(bookingId: string, productCode: string, correlationId: string): ApiResult {
    const booking = this.ownBooking(bookingId, productCode);
    if (booking.correlation_id !== correlationId) {
      throw new RequestError(CODES.UNKNOWN_BOOKING, `correlation_id does not belong to booking "${bookingId}".`);
    }
    return success(CODES.OK, MESSAGES.status, {
      booking_id: booking.booking_id,
      product_code: booking.product_code,
      status: booking.status,
      correlation_id: booking.correlation_id,
      transaction_id: booking.transaction_uuid,
      reference_code: booking.reference_code,
      updated_at: formatTimestamp(booking.updated_at),
    });
  }

  private cancel(bookingId: string, productCode: string): ApiResult {
    const booking = this.ownBooking(bookingId, productCode);
    if (!CANCELLABLE_STATUSES.includes(booking.status)) {
      throw new RequestError(
        CODES.ALREADY_PROCESSED,
        `Transaction already processed: booking "${bookingId}" is ${booking.status}.`,
      );
    }
    this.transition(booking, 'CANCELED', 'cancelled_by_merchant');
    this.options.onMerchantCancel?.(copy(booking));
    return success(CODES.CANCELLED, MESSAGES.cancel, {
      booking_id: booking.booking_id,
      status: booking.status,
      correlation_id: booking.correlation_id,
      transaction_id: booking.transaction_uuid,
    });
  }

  private transition(booking: SandboxBooking, status: PaymentStatus, reason: string, at = this.options.now()): void {
    booking.status = status;
    booking.updated_at = at;
    booking.history.push({ status, at, reason });
    this.options.onChange?.();
  }

  /** Every booking as held, without applying expiry (for the state file). */
  snapshot(): SandboxBooking[] {
    return this.bookings.snapshot();
  }

  /** Takes back bookings from a {@link snapshot}, e.g. after a restart. */
  restore(bookings: readonly SandboxBooking[]): void {
    this.bookings.restore(bookings);
  }

  /** The booking with expiry applied: an unpaid booking past its expiry becomes CANCELED (by the system). */
  private live(bookingId: string): SandboxBooking | undefined {
    const booking = this.bookings.get(bookingId);
    if (booking && booking.status === 'BOOKED' && this.options.now() >= booking.expires_at) {
      this.transition(booking, 'CANCELED', 'expired', booking.expires_at);
    }
    return booking;
  }

  /** A copy of one booking, or undefined. */
  getBooking(bookingId: string): SandboxBooking | undefined {
    const booking = this.live(bookingId);
    return booking && copy(booking);
  }

  /** Copies of every booking, oldest first. */
  listBookings(): SandboxBooking[] {
    return this.bookings.ids().map((id) => copy(this.live(id)!));
  }

  /** True when a booking expired without being paid. */
  isExpired(booking: SandboxBooking): boolean {
    return booking.history.at(-1)?.reason === 'expired';
  }

  /**
   * The shopper confirms on the wallet page or the web payment page. A scenario (the booking's, or
   * `picked` on the page) decides the outcome; without one, MPIN `0000` fails the payment,
   * `properties.sandbox_outcome = "pending"` leaves it PENDING, and any other 4-6 digit MPIN succeeds.
   */
  confirm(bookingId: string, mpin: string, method: string, picked?: string): ActionResult {
    const booking = this.live(bookingId);
    if (!booking) return { ok: false, reason: 'unknown_booking' };
    if (booking.status !== 'BOOKED') {
      return { ok: false, reason: this.isExpired(booking) ? 'expired' : 'already_processed', booking: copy(booking) };
    }
    if (!Object.hasOwn(PAYMENT_METHODS, method)) return { ok: false, reason: 'invalid_method', booking: copy(booking) };
    if (!/^\d{4,6}$/.test(mpin)) return { ok: false, reason: 'invalid_mpin', booking: copy(booking) };
    const pickedScenario = picked ? findScenario(picked) : undefined;
    if (picked && !pickedScenario) return { ok: false, reason: 'unknown_scenario', booking: copy(booking) };
    if (pickedScenario) booking.scenario = pickedScenario.id;
    const scenario = booking.scenario === undefined ? undefined : findScenario(booking.scenario);
    booking.payment_method = method as PaymentMethod;
    if (scenario) {
      if (scenario.confirm === 'BOOKED') {
        this.options.onChange?.();
        return { ok: true, booking: copy(booking), notify: false };
      }
      this.transition(booking, scenario.confirm, `confirmed (${scenario.id})`);
      return { ok: true, booking: copy(booking), notify: scenario.confirm !== 'PENDING' };
    }
    if (mpin === FAILING_MPIN) {
      this.transition(booking, 'FAILED', 'mpin_rejected');
    } else if (booking.properties['sandbox_outcome'] === 'pending') {
      this.transition(booking, 'PENDING', 'confirmed_pending');
      return { ok: true, booking: copy(booking), notify: false };
    } else {
      this.transition(booking, 'SUCCESS', 'confirmed');
    }
    return { ok: true, booking: copy(booking), notify: true };
  }

  /**
   * A scheduled change of a scenario: applied only when the booking is still in one of `from` (a
   * merchant's cancel or an expiry since then wins, except where the scenario says otherwise).
   */
  advanceScenario(bookingId: string, from: readonly PaymentStatus[], to: PaymentStatus, reason: string): SandboxBooking | undefined {
    const booking = this.live(bookingId);
    if (!booking || !from.includes(booking.status)) return undefined;
    this.transition(booking, to, reason);
    return copy(booking);
  }

  /**
   * Takes the whole service down until `until` (sandbox clock): every API call, about any booking, the
   * book included, answers a bare 503 (a service-down scenario, named by `scenario`).
   */
  startOutage(until: number, scenario: string): void {
    if (!this.outage || this.outage.until < until) this.outage = { until, scenario };
  }

  /** The outage in force now, if any. */
  outageNow(): { until: number; scenario: string } | undefined {
    if (this.outage && this.options.now() >= this.outage.until) this.outage = undefined;
    return this.outage;
  }

  /** The shopper cancels on a page. */
  cancelByShopper(bookingId: string): ActionResult {
    const booking = this.live(bookingId);
    if (!booking) return { ok: false, reason: 'unknown_booking' };
    if (booking.status !== 'BOOKED') {
      return { ok: false, reason: this.isExpired(booking) ? 'expired' : 'already_processed', booking: copy(booking) };
    }
    this.transition(booking, 'CANCELED', 'cancelled_by_shopper');
    return { ok: true, booking: copy(booking), notify: true };
  }

  /** Refunds a successful payment (an admin control): SUCCESS becomes REVERTED. */
  revert(bookingId: string): ActionResult {
    const booking = this.live(bookingId);
    if (!booking) return { ok: false, reason: 'unknown_booking' };
    if (booking.status !== 'SUCCESS') return { ok: false, reason: 'not_revertible', booking: copy(booking) };
    this.transition(booking, 'REVERTED', 'reverted');
    return { ok: true, booking: copy(booking), notify: true };
  }
}
