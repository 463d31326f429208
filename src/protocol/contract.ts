/**
 * The JSON contract between `<wallet-pay-button>` and the merchant's own server (the "book proxy").
 *
 * The element POSTs JSON to `{endpoint}/book`, `{endpoint}/status` and `{endpoint}/cancel`. Every
 * answer uses the payment service's envelopes: success `{ code, message, data }` with a 2xx status,
 * failure `{ code, error_message }` with a non-2xx status. This module holds only types and constants,
 * so the element, the server kit and the sandbox share one definition and none pulls in the others.
 */

/** Every status a booking can have (spec, "States and transitions"). */
export const PAYMENT_STATUSES = ['BOOKED', 'SUCCESS', 'PENDING', 'FAILED', 'CANCELED', 'REVERTED'] as const;

/** A booking's status. */
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The spec's rule: when no final answer has come within five minutes of the booking, ask the status check. */
export const STATUS_CHECK_AFTER_MS = 5 * 60 * 1000;

/** Statuses that end a payment; the shopper is routed on these. */
export const FINAL_STATUSES: readonly PaymentStatus[] = ['SUCCESS', 'FAILED', 'CANCELED', 'REVERTED'];

/** Statuses that send the shopper to the merchant's failure page. */
export const FAILURE_STATUSES: readonly PaymentStatus[] = ['FAILED', 'CANCELED', 'REVERTED'];

/** Statuses a cancel request may still move to `CANCELED`. */
export const CANCELLABLE_STATUSES: readonly PaymentStatus[] = ['BOOKED', 'PENDING'];

/** True when a value is one of the spec's status strings. */
export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(value);
}

/** True when a status ends the payment. */
export function isFinalStatus(status: PaymentStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/** The spec's code for a booking already processed (completed, failed, expired or reverted). */
export const ALREADY_PROCESSED = 'IP-410';

// The codes the element's flow reads, as constants of their own (like ALREADY_PROCESSED): the browser's
// payment code imports these four, not the whole table below, which only servers need. Internal: the
// public face is CODES.
/** See `CODES.UNKNOWN_BOOKING`. */
export const UNKNOWN_BOOKING = 'IP-404';
/** See `CODES.IDEMPOTENCY_CONFLICT`. */
export const IDEMPOTENCY_CONFLICT = 'IP-409';
/** See `CODES.MERCHANT_SETUP`. */
export const MERCHANT_SETUP = 'IP-501';
/** See `CODES.ORDER_ALREADY_PAID`. */
export const ORDER_ALREADY_PAID = 'IP-412';

/**
 * Response codes. The spec's own codes keep their meaning; the rest are our choice (one code per
 * condition, all in the `IP-` family), each with the HTTP status it is sent with.
 */
export const CODES = {
  /** Booking created; status fetched. */
  OK: 'IP-201',
  /** Booking cancelled. */
  CANCELLED: 'IP-210',
  /** Signature invalid (spec). */
  INVALID_SIGNATURE: 'IP-400',
  /** Booking already processed: completed, failed, expired or reverted (spec). */
  ALREADY_PROCESSED,
  /** Merchant authentication failed: unknown product code. */
  UNKNOWN_MERCHANT: 'IP-401',
  /** The request's body is not a JSON object, or a field is missing, extra or malformed. */
  INVALID_REQUEST: 'IP-422',
  /** `signed_field_names` does not list exactly the operation's signed fields. */
  INVALID_SIGNED_FIELDS: 'IP-423',
  /** No booking with that id (or the id and correlation id do not belong together). */
  UNKNOWN_BOOKING,
  /** A `transaction_uuid` or `Idempotency-Key` reused with different content. */
  IDEMPOTENCY_CONFLICT,
  /** The merchant's order is unknown or cannot be paid. */
  UNKNOWN_ORDER: 'IP-424',
  /** The request is not `POST`. */
  METHOD_NOT_ALLOWED: 'IP-405',
  /** The content type is not `application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 'IP-415',
  /** The body is larger than the limit. */
  PAYLOAD_TOO_LARGE: 'IP-413',
  /** No such endpoint. */
  NOT_FOUND: 'IP-444',
  /** The payment service could not be reached, or answered with something unusable. */
  UPSTREAM_UNAVAILABLE: 'IP-502',
  /** The payment service did not answer in time. */
  UPSTREAM_TIMEOUT: 'IP-504',
  /** An unexpected error on the server. */
  INTERNAL: 'IP-500',
  /**
   * The merchant's server is set up wrongly for the payment service (access key, product code or
   * service URL refused): retrying cannot help until the shop fixes it.
   */
  MERCHANT_SETUP,
  /** The order already has a successful payment; a new booking for it is refused. */
  ORDER_ALREADY_PAID,
  /**
   * The request's `Host` header (or its target) does not form a URL, so the request never reaches the
   * handler (the Node adapter answers it). HTTP 400; not `IP-402`, whose HTTP reading is "Payment Required".
   */
  MALFORMED_HOST: 'IP-420',
  /**
   * A value no request can ever carry, named in the message: a control character in an id (the kit's
   * routes), a move of the sandbox's clock out of its range. HTTP 400: sent again, it is refused again.
   */
  MALFORMED_VALUE: 'IP-421',
  /**
   * The merchant's server cannot reach its payment records right now (the database is down or past its
   * deadline). HTTP 503 with `Retry-After`; a retry with the same `Idempotency-Key` is safe.
   */
  SERVER_UNAVAILABLE: 'IP-503',
} as const;

/** One of the response codes above. */
export type ResponseCode = (typeof CODES)[keyof typeof CODES];

/** HTTP status sent with each failure code (success codes go with 200). */
export const HTTP_STATUS_OF_CODE: Readonly<Record<ResponseCode, number>> = {
  'IP-201': 200,
  'IP-210': 200,
  'IP-400': 401,
  'IP-410': 409,
  'IP-401': 401,
  'IP-422': 422,
  'IP-423': 422,
  'IP-404': 404,
  'IP-409': 409,
  'IP-424': 422,
  'IP-405': 405,
  'IP-415': 415,
  'IP-413': 413,
  'IP-444': 404,
  'IP-502': 502,
  'IP-504': 504,
  'IP-500': 500,
  'IP-501': 500,
  'IP-412': 409,
  'IP-420': 400,
  'IP-421': 400,
  'IP-503': 503,
};

/** The spec's success envelope. */
export interface SuccessEnvelope<T> {
  code: string;
  message: string;
  data: T;
}

/** The spec's failure envelope. */
export interface FailureEnvelope {
  code: string;
  error_message: string;
}

/** Which path a booking is for: the wallet app (mobile) or the provider's web payment page (desktop). */
export type Channel = 'app' | 'web';

/** A JSON value, as the merchant's order may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The merchant's order reference, sent as-is: an object the merchant chooses, e.g. `{ "id": "A-1001" }`. */
export type OrderReference = { [key: string]: JsonValue };

/** Header carrying one value per payment attempt; a retry of the same attempt sends the same value. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * `POST {endpoint}/book` body. It never carries a price: the server takes the amount from its own
 * order record.
 */
export interface BookRequest {
  /**
   * The path the browser is on: `app` (a phone) or `web` (a desktop). The server may answer a `web`
   * booking to an `app` request when the wallet is paid on the web only; the browser follows the answer.
   */
  channel: Channel;
  order: OrderReference;
  /** The wallet the shopper chose (`esewa`, `khalti`), when the shop offers several. Default: the server's first. */
  wallet?: string;
  /**
   * `true` for an `app` booking made on a desktop for the shopper's phone (the QR hand-off): the
   * phone, not this browser, comes back to the redirect URL. Absent otherwise.
   */
  handoff?: true;
}

/**
 * How the browser reaches the provider's web payment page: `POST` submits `fields` to `url` as a form
 * (so `fields` is required: the signed `booking_id`, `correlation_id`, `signed_field_names` and
 * `signature`); `GET` navigates to `url`, with `fields`, when given, in its query.
 */
export type WebPaymentInstruction =
  | {
      /** Absolute URL of the page. */
      url: string;
      method: 'POST';
      /** The form's fields, signed on the server. */
      fields: Record<string, string>;
    }
  | {
      /** Absolute URL of the page. */
      url: string;
      method: 'GET';
      /** Added to the query of `url`. */
      fields?: Record<string, string>;
    };

/** `data` of a successful book answer. */
export interface BookResult {
  booking_id: string;
  correlation_id: string;
  /** The channel booked: what the browser follows (a deeplink for `app`, a web payment for `web`). */
  channel: Channel;
  /** The wallet the booking is with. */
  wallet?: string;
  /** Present for the `app` channel: the address that opens the wallet app. */
  deeplink?: string;
  /** Present for the `web` channel. */
  web_payment?: WebPaymentInstruction;
  /**
   * The server's proof that this browser was given the booking: sent back with `/status` and `/cancel`,
   * it lets a server that lost the booking ask the service about it (ids without it are `IP-404` there,
   * at no cost to the service).
   */
  receipt?: string;
}

/** `POST {endpoint}/status` body. The correlation id proves the caller holds the booking. */
export interface StatusRequest {
  booking_id: string;
  correlation_id: string;
  /**
   * The order the booking was made for, as sent to `/book`. Optional: a server that lost the booking
   * (a restart of an in-memory store) confirms it with the service and, when the booking proves this
   * order, delivers its result with it.
   */
  order?: OrderReference;
  /** The book answer's {@link BookResult.receipt}: without it, a booking the server lost is `IP-404`. */
  receipt?: string;
  /**
   * The query of the return address the shopper came back to (eSewa's signed `data`), when the page
   * has one: a hint the server checks and reports if forged; the status check decides.
   */
  return?: string;
}

/** `data` of a successful status answer. */
export interface StatusResult {
  booking_id: string;
  correlation_id: string;
  status: PaymentStatus;
  /** Last update, `YYYY-MM-DD HH:MM:SS`, as the service reports it. */
  updated_at?: string;
}

/** `POST {endpoint}/cancel` body. */
export interface CancelRequest {
  booking_id: string;
  correlation_id: string;
  /** As in {@link StatusRequest}. */
  order?: OrderReference;
  /** As in {@link StatusRequest}. */
  receipt?: string;
}

/** `data` of a successful cancel answer. */
export interface CancelResult {
  booking_id: string;
  status: PaymentStatus;
}

/**
 * Header the element sends with `/book`: its attempt id, the one its funnel events carry, so the
 * server's hooks can name the attempt (1 to 64 letters, digits, `_` or `-`; anything else is ignored).
 */
export const ATTEMPT_HEADER = 'Wallet-Pay-Attempt';

/** What {@link ATTEMPT_HEADER} may hold. */
export const ATTEMPT_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `POST {endpoint}/order` body: is this order paid? Asked by a page that holds no booking (a fresh tab
 * after the old one was lost), before it offers the button.
 */
export interface OrderRequest {
  /** The order reference, as sent to `/book`. */
  order: OrderReference;
}

/** `data` of a successful order answer (code `IP-201`). */
export interface OrderResult {
  /** True when the server's own records hold a payment of the order in full (not refunded). */
  paid: boolean;
  /**
   * `SUCCESS` when paid; for an unpaid order with a booking still open, that booking's status at the
   * service (`BOOKED` or `PENDING`); absent when the order has no open booking.
   */
  status?: PaymentStatus;
}
