/**
 * The sandbox's bookings and rules, without any I/O: validation of the three API operations, merchant
 * authentication, signatures, idempotent booking, states and transitions, and expiry against an
 * injected clock. The HTTP layer turns its results into responses; the orchestrator in `index.ts`
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
} from '../protocol/contract.js';
import { SIGNED_FIELDS, verifyMessage, signatureMessage } from '../protocol/signature.js';
import { RawJsonError, readRawJsonObject } from '../protocol/raw-json.js';
import { describeValue } from '../protocol/values.js';

/** The three API operations. */
export type Operation = 'book' | 'status' | 'cancel';

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

/** The fields a book request sets, once validated. */
interface BookFields {
  product_code: string;
  amount: number;
  transaction_uuid: string;
  callback_url: string;
  redirect_url: string;
  properties: Record<string, string>;
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
}

/** What an API operation answers: the HTTP status and the spec's envelope. */
export interface ApiResult {
  httpStatus: number;
  body: SuccessEnvelope<Record<string, unknown>> | FailureEnvelope;
  /** Top-level fields the spec does not list for the operation, accepted and ignored (not strict). */
  ignoredFields?: string[];
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
}

/** The outcome of a page action (confirm, cancel on the page, revert). */
export type ActionResult =
  | { ok: true; booking: SandboxBooking; notify: boolean }
  | { ok: false; reason: 'unknown_booking' | 'already_processed' | 'expired' | 'invalid_mpin' | 'invalid_method' | 'not_revertible'; booking?: SandboxBooking };

/** Limits the spec leaves open (our choice, documented in docs/sandbox.md). */
export const LIMITS = {
  maxAmount: 999_999_999.99,
  maxIdLength: 64,
  maxUrlLength: 2048,
  maxProperties: 20,
  maxPropertyKeyLength: 64,
  maxPropertyValueLength: 256,
} as const;

/** The MPIN that makes a payment fail (a test control). */
export const FAILING_MPIN = '0000';

const REQUEST_FIELDS: Readonly<Record<Operation, readonly string[]>> = {
  book: [
    'product_code',
    'amount',
    'transaction_uuid',
    'signed_field_names',
    'signature',
    'callback_url',
    'redirect_url',
    'properties',
  ],
  status: ['booking_id', 'product_code', 'correlation_id', 'signed_field_names', 'signature'],
  cancel: ['booking_id', 'product_code', 'signed_field_names', 'signature'],
};

const MESSAGES = {
  book: 'Success',
  status: 'Payment status fetched successfully',
  cancel: 'Transaction cancelled',
} as const;

const TRANSACTION_UUID = /^[A-Za-z0-9_-]{1,64}$/;
const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
// Plain decimal notation only: an exponent or a third decimal is refused rather than rounded.
const AMOUNT_TEXT = /^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/;

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

class RequestError extends Error {
  constructor(
    readonly code: ResponseCode,
    message: string,
  ) {
    super(message);
  }
}

function invalid(message: string): never {
  throw new RequestError(CODES.INVALID_REQUEST, message);
}

function requireString(body: Record<string, unknown>, name: string, maxLength: number = LIMITS.maxIdLength): string {
  const value = body[name];
  if (typeof value !== 'string') invalid(`Field "${name}" must be a string; got ${describeValue(value)}.`);
  if (value.length === 0) invalid(`Field "${name}" is empty.`);
  if (value.length > maxLength) invalid(`Field "${name}" is longer than ${maxLength} characters.`);
  return value;
}


function requireUrl(body: Record<string, unknown>, name: string): string {
  const value = requireString(body, name, LIMITS.maxUrlLength);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    invalid(`Field "${name}" must be an absolute http(s) URL; got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    invalid(`Field "${name}" must be an absolute http(s) URL; got the scheme "${url.protocol}".`);
  }
  if (url.username || url.password) invalid(`Field "${name}" must not carry credentials.`);
  return value;
}

function requireProperties(body: Record<string, unknown>): Record<string, string> {
  const value = body['properties'];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid(`Field "properties" must be an object; got ${describeValue(value)}.`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > LIMITS.maxProperties) invalid(`Field "properties" has more than ${LIMITS.maxProperties} keys.`);
  const properties: Record<string, string> = {};
  for (const [key, item] of entries) {
    if (!SNAKE_CASE.test(key) || key.length > LIMITS.maxPropertyKeyLength) {
      invalid(`Key "${key}" of "properties" must be snake_case (a-z, 0-9, _) of at most ${LIMITS.maxPropertyKeyLength} characters.`);
    }
    if (typeof item !== 'string') invalid(`Value of properties.${key} must be a string; got ${describeValue(item)}.`);
    if (item.length > LIMITS.maxPropertyValueLength) {
      invalid(`Value of properties.${key} is longer than ${LIMITS.maxPropertyValueLength} characters.`);
    }
    properties[key] = item;
  }
  return properties;
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
  private readonly bookings = new Map<string, SandboxBooking>();
  private readonly byTransaction = new Map<string, SandboxBooking>();
  private readonly productCodes: ReadonlySet<string>;

  constructor(private readonly options: ServiceOptions) {
    this.productCodes = new Set(options.productCodes);
  }

  /** Handles the raw JSON text of a request to one of the three operations. */
  async handle(operation: Operation, rawBody: string): Promise<ApiResult> {
    // Reported even when the request is refused later: the merchant should see them either way.
    let ignoredFields: string[] = [];
    let result: ApiResult;
    try {
      const { body, rawMembers } = this.parse(rawBody);
      ignoredFields = this.checkFields(operation, body);
      result = await this.run(operation, body, rawMembers);
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      result = failure(error.code, error.message);
    }
    return ignoredFields.length > 0 ? { ...result, ignoredFields } : result;
  }

  private async run(operation: Operation, body: Record<string, unknown>, rawMembers: Map<string, string>): Promise<ApiResult> {
    const productCode = requireString(body, 'product_code');
    const signedFieldNames = body['signed_field_names'];
    const signature = body['signature'];
    if (typeof signedFieldNames !== 'string') invalid(`Field "signed_field_names" must be a string; got ${describeValue(signedFieldNames)}.`);
    if (typeof signature !== 'string') invalid(`Field "signature" must be a string; got ${describeValue(signature)}.`);
    if (operation === 'book') {
      const fields = this.bookFields(body, rawMembers);
      await this.authenticate(operation, body, rawMembers, productCode);
      return this.book(fields);
    }
    const bookingId = requireString(body, 'booking_id');
    const correlationId = operation === 'status' ? requireString(body, 'correlation_id') : undefined;
    await this.authenticate(operation, body, rawMembers, productCode);
    return operation === 'status' ? this.status(bookingId, productCode, correlationId!) : this.cancel(bookingId, productCode);
  }

  private parse(rawBody: string): { body: Record<string, unknown>; rawMembers: Map<string, string> } {
    if (rawBody.trim().length === 0) invalid('The request body is empty; send a JSON object.');
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      invalid('The request body is not valid JSON.');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      invalid(`The request body must be a JSON object; got ${describeValue(body)}.`);
    }
    let rawMembers: Map<string, string>;
    try {
      rawMembers = new Map([...readRawJsonObject(rawBody)].map(([name, member]) => [name, member.raw]));
    } catch (error) {
      if (error instanceof RawJsonError) invalid(`The request body is not a usable JSON object: ${error.message}`);
      throw error;
    }
    return { body: body as Record<string, unknown>, rawMembers };
  }

  /**
   * Refuses missing fields; returns the unknown ones, or refuses them too when strict. Real merchant
   * integrations send fields the spec does not list (`failure_url` on book, for one), so by default
   * they are reported, not refused.
   */
  private checkFields(operation: Operation, body: Record<string, unknown>): string[] {
    const expected = REQUEST_FIELDS[operation];
    const missing = expected.filter((name) => !Object.hasOwn(body, name));
    if (missing.length > 0) invalid(`Missing field(s) for ${operation}: ${missing.join(', ')}.`);
    const extra = Object.keys(body).filter((name) => !expected.includes(name));
    if (extra.length > 0 && this.options.strict) invalid(`Unexpected field(s) for ${operation}: ${extra.join(', ')}.`);
    return extra;
  }

  private bookFields(body: Record<string, unknown>, rawMembers: Map<string, string>): BookFields {
    const amount = body['amount'];
    if (typeof amount !== 'number') invalid(`Field "amount" must be a number; got ${describeValue(amount)}.`);
    const amountText = rawMembers.get('amount') ?? '';
    if (!AMOUNT_TEXT.test(amountText) || amount <= 0 || amount > LIMITS.maxAmount) {
      invalid(`Field "amount" must be a positive number of at most ${LIMITS.maxAmount} with at most two decimals; got ${amountText}.`);
    }
    const transactionUuid = requireString(body, 'transaction_uuid');
    if (!TRANSACTION_UUID.test(transactionUuid)) {
      invalid('Field "transaction_uuid" must be 1 to 64 letters, digits, "-" or "_".');
    }
    return {
      product_code: requireString(body, 'product_code'),
      amount,
      transaction_uuid: transactionUuid,
      callback_url: requireUrl(body, 'callback_url'),
      redirect_url: requireUrl(body, 'redirect_url'),
      properties: requireProperties(body),
    };
  }

  /** Signed fields, then merchant, then signature: each failure gets its own code. */
  private async authenticate(
    operation: Operation,
    body: Record<string, unknown>,
    rawMembers: Map<string, string>,
    productCode: string,
  ): Promise<void> {
    const expected = SIGNED_FIELDS[operation];
    if (body['signed_field_names'] !== expected) {
      throw new RequestError(
        CODES.INVALID_SIGNED_FIELDS,
        `signed_field_names must be "${expected}" for ${operation}; got "${String(body['signed_field_names'])}".`,
      );
    }
    if (!this.productCodes.has(productCode)) {
      throw new RequestError(CODES.UNKNOWN_MERCHANT, `Unknown product_code "${productCode}": merchant authentication failed.`);
    }
    // Numbers are signed as they stand in the body ("1000.0" stays "1000.0"), strings as they are.
    const values: Record<string, string> = {};
    for (const name of expected.split(',')) {
      const value = body[name];
      values[name] = typeof value === 'number' ? rawMembers.get(name)! : String(value);
    }
    const ok = await verifyMessage(signatureMessage(values, expected), body['signature'] as string, this.options.accessKey);
    if (!ok) throw new RequestError(CODES.INVALID_SIGNATURE, 'Invalid Signature');
  }

  private book(fields: BookFields): ApiResult {
    // From here on there is no await: the idempotency lookup and the insert happen in one turn,
    // so concurrent bookings of one transaction_uuid cannot both create a booking.
    const key = `${fields.product_code}\u0000${fields.transaction_uuid}`;
    const existing = this.byTransaction.get(key);
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
      expires_at: now + this.options.bookingTtlMs,
      history: [{ status: 'BOOKED', at: now, reason: 'booked' }],
    };
    this.bookings.set(bookingId, booking);
    this.byTransaction.set(key, booking);
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
    return [...this.bookings.values()].map(copy);
  }

  /** Takes back bookings from a {@link snapshot}, e.g. after a restart. */
  restore(bookings: readonly SandboxBooking[]): void {
    for (const booking of bookings) {
      const held = copy(booking);
      this.bookings.set(held.booking_id, held);
      this.byTransaction.set(`${held.product_code}\u0000${held.transaction_uuid}`, held);
    }
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
    return [...this.bookings.keys()].map((id) => copy(this.live(id)!));
  }

  /** True when a booking expired without being paid. */
  isExpired(booking: SandboxBooking): boolean {
    return booking.history.at(-1)?.reason === 'expired';
  }

  /**
   * The shopper confirms on the wallet page or the web payment page. MPIN `0000` fails the payment;
   * `properties.sandbox_outcome = "pending"` leaves it PENDING; any other 4-6 digit MPIN succeeds.
   */
  confirm(bookingId: string, mpin: string, method: string): ActionResult {
    const booking = this.live(bookingId);
    if (!booking) return { ok: false, reason: 'unknown_booking' };
    if (booking.status !== 'BOOKED') {
      return { ok: false, reason: this.isExpired(booking) ? 'expired' : 'already_processed', booking: copy(booking) };
    }
    if (!Object.hasOwn(PAYMENT_METHODS, method)) return { ok: false, reason: 'invalid_method', booking: copy(booking) };
    if (!/^\d{4,6}$/.test(mpin)) return { ok: false, reason: 'invalid_mpin', booking: copy(booking) };
    booking.payment_method = method as PaymentMethod;
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
