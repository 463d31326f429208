/**
 * The merchant's request handler: one function from `Request` to `Response` that serves the
 * element's contract (`/book`, `/status`, `/cancel`) and the service's callback (`/callback`).
 * Routing uses only the last path segment, so it can be mounted under any path of any framework.
 * Web APIs only; `node.ts` adapts it to `node:http`.
 */
import {
  CODES,
  HTTP_STATUS_OF_CODE,
  IDEMPOTENCY_HEADER,
  isFinalStatus,
  STATUS_CHECK_AFTER_MS,
  type BookResult,
  type CancelResult,
  type Channel,
  type FailureEnvelope,
  type OrderReference,
  type PaymentStatus,
  type ResponseCode,
  type StatusResult,
  type SuccessEnvelope,
  type WebPaymentInstruction,
} from '../protocol/contract.js';
import { CallbackVerificationError, verifyCallback } from './callback.js';
import { createServiceClient, ServiceError, type ServiceClient, type ServiceStatus } from './service-client.js';
import { createSignature, WEB_PAYMENT_SIGNED_FIELDS } from '../protocol/signature.js';
import { describeValue, isRecord } from '../protocol/values.js';
import { createMemoryStore, type PaymentStore, type StoredBooking } from './store.js';

/** The fields the web-payment form signs: a set no API operation accepts, so it cannot be replayed there. */

/** What the merchant's order lookup returns for a payable order. */
export interface OrderDetails {
  /** The amount to charge, from the merchant's own records. */
  amount: number;
  /** Shown to the shopper by the wallet: snake_case keys, string values. */
  properties?: Record<string, string>;
}

/** What `redirectUrl` may depend on when it is a function. */
export interface RedirectContext {
  order: OrderReference;
  channel: Channel;
  transaction_uuid: string;
  amount: number;
}

/** A verified final result, handed to `onPaymentResult`. */
export interface PaymentResult {
  /**
   * Where it was learned: the service's signed callback, a status check the element asked for, a
   * cancel the handler made, or {@link PaymentHandler.reconcile}'s own status check.
   */
  source: 'callback' | 'status' | 'cancel' | 'reconcile';
  /** A final status: SUCCESS, FAILED, CANCELED or REVERTED. */
  status: PaymentStatus;
  correlation_id: string;
  /** Absent only when a callback names a booking the store no longer holds. */
  booking_id?: string;
  /** The merchant's order reference, as the browser sent it at booking (absent as `booking_id`). */
  order?: OrderReference;
  transaction_uuid?: string;
  /** The callback's amount, or the booked amount for a status check or cancel. */
  amount?: number;
  /** The service's reference code, when the callback or status check gave one. */
  reference_code?: string;
}

/** Options of {@link createPaymentHandler}. */
export interface PaymentHandlerOptions {
  /** The service's `{base_url}`. */
  serviceUrl: string;
  productCode: string;
  /** The access key: signs requests, verifies callbacks, never reaches the browser. */
  accessKey: string;
  /** Absolute URL where the service reaches this handler's `/callback`. */
  callbackUrl: string;
  /** Where the shopper lands after paying (the service adds `booking_id` and `status`). */
  redirectUrl: string | ((context: RedirectContext) => string);
  /**
   * Finds the merchant's order; `undefined` means unknown or not payable (`IP-424`). `context.request` is
   * the shopper's `/book` request (its cookies, its session): refuse an order that is not theirs.
   */
  lookupOrder(order: OrderReference, context: { request: Request }): Promise<OrderDetails | undefined> | OrderDetails | undefined;
  /**
   * Receives each verified final result once per booking and status (a later `REVERTED` after
   * `SUCCESS` is a new result). A callback is answered 2xx only after this
   * resolves; if it throws, the callback gets a 5xx so the service retries.
   */
  onPaymentResult(result: PaymentResult): Promise<void> | void;
  /** The provider's web payment page. Default `${serviceUrl}/web/pay`. */
  webPayment?: { url?: string };
  /** Per call to the service. Default 10 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Default: a bounded in-memory store. */
  store?: PaymentStore;
  /** Largest accepted request body. Default 16 KiB. */
  maxBodyBytes?: number;
  /** Told about failures the response does not show in full (service refusals, hook errors). */
  onError?(error: unknown, context: { route: string }): void;
}

/** Options of {@link PaymentHandler.reconcile}. */
export interface ReconcileOptions {
  /** Only bookings at least this old are asked about. Default: the spec's five minutes (300 000 ms). */
  olderThanMs?: number;
}

/** What one {@link PaymentHandler.reconcile} pass did. */
export interface ReconcileReport {
  /** Bookings asked about: no final result delivered yet, and old enough. */
  checked: number;
  /** Of those, final now and handed to `onPaymentResult`. */
  settled: number;
  /** Still `BOOKED` or `PENDING`: asked again on the next pass (an unpaid booking expires in time). */
  open: number;
  /** Status checks or hooks that failed (each told to `onError`): tried again on the next pass. */
  failed: number;
}

/** A handler from `Request` to `Response`, with the server-side status check the spec asks for. */
export interface PaymentHandler {
  (request: Request): Promise<Response>;
  /**
   * The spec's "when no response arrives within five minutes, the merchant calls the status check
   * API": asks the service about every booking this handler made that has no final result yet and is
   * at least `olderThanMs` old, and hands each final status to `onPaymentResult` (source
   * `reconcile`). Run it on a timer (every minute or so): it settles the payments whose shopper closed
   * the tab and whose callback was lost. Needs a store with `listOpenBookings` (the memory store has it).
   */
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
}

/** An answer the handler gives as a failure envelope. */
class Refusal extends Error {
  constructor(
    readonly code: ResponseCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const ROUTES = ['book', 'status', 'cancel', 'callback'] as const;
type Route = (typeof ROUTES)[number];
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{16,128}$/;
// The service's codes a browser can act on; any other refusal is the merchant's setup and reads as IP-502.
const PASSED_THROUGH = new Set<string>([CODES.ALREADY_PROCESSED, CODES.UNKNOWN_BOOKING, CODES.IDEMPOTENCY_CONFLICT]);

/**
 * Creates the merchant's payment handler. Mount it under any path: it answers `POST .../book`,
 * `.../status`, `.../cancel` for the element and `POST .../callback` for the service.
 */
export function createPaymentHandler(options: PaymentHandlerOptions): PaymentHandler {
  for (const name of ['serviceUrl', 'productCode', 'accessKey', 'callbackUrl'] as const) {
    if (typeof options[name] !== 'string' || options[name].length === 0) throw new TypeError(`${name} is required.`);
  }
  if (typeof options.lookupOrder !== 'function') throw new TypeError('lookupOrder is required.');
  if (typeof options.onPaymentResult !== 'function') throw new TypeError('onPaymentResult is required.');
  if (typeof options.redirectUrl !== 'string' && typeof options.redirectUrl !== 'function') {
    throw new TypeError('redirectUrl must be a URL string or a function returning one.');
  }
  const client: ServiceClient = createServiceClient({
    baseUrl: options.serviceUrl,
    accessKey: options.accessKey,
    productCode: options.productCode,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
  });
  const store = options.store ?? createMemoryStore();
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const webPaymentUrl = options.webPayment?.url ?? `${options.serviceUrl.replace(/\/+$/, '')}/web/pay`;
  const report = options.onError ?? (() => {});
  const inFlightBookings = new Map<string, { fingerprint: string; promise: Promise<StoredBooking> }>();
  const inFlightResults = new Map<string, Promise<void>>();

  async function handle(request: Request): Promise<Response> {
    const route = lastSegment(request.url);
    if (!route) {
      return failure(new Refusal(CODES.NOT_FOUND, `No such endpoint; use ${ROUTES.map((r) => `POST .../${r}`).join(', ')}.`));
    }
    try {
      if (request.method !== 'POST') {
        throw new Refusal(CODES.METHOD_NOT_ALLOWED, `Use POST for /${route}; got ${request.method}.`, { allow: 'POST' });
      }
      const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json') {
        throw new Refusal(CODES.UNSUPPORTED_MEDIA_TYPE, `Send the body as application/json; got ${type ? `"${type}"` : 'no content type'}.`);
      }
      const text = await readBody(request, maxBodyBytes);
      switch (route) {
        case 'book':
          return success('Booking created', await book(request, text));
        case 'status':
          return success('Payment status fetched successfully', await status(text));
        case 'cancel':
          return success('Transaction cancelled', await cancel(text), CODES.CANCELLED);
        case 'callback':
          return success('Callback recorded', await callback(text));
      }
    } catch (error) {
      if (error instanceof Refusal) return failure(error);
      report(error, { route });
      return failure(new Refusal(CODES.INTERNAL, 'The server could not handle this request.'));
    }
  }

  async function book(request: Request, text: string): Promise<BookResult> {
    const body = parseObject(text, ['channel', 'order']);
    if (body.channel !== 'app' && body.channel !== 'web') {
      throw new Refusal(CODES.INVALID_REQUEST, `"channel" must be "app" or "web"; got ${describeValue(body.channel)}.`);
    }
    if (!isRecord(body.order)) {
      throw new Refusal(CODES.INVALID_REQUEST, `"order" must be an object, e.g. {"id":"A-1001"}; got ${describeValue(body.order)}.`);
    }
    const channel: Channel = body.channel;
    const order = body.order as OrderReference;
    const key = request.headers.get(IDEMPOTENCY_HEADER);
    if (key === null || key === '') {
      throw new Refusal(CODES.INVALID_REQUEST, `The ${IDEMPOTENCY_HEADER} header is missing: send one value per payment attempt.`);
    }
    if (!IDEMPOTENCY_KEY.test(key)) {
      throw new Refusal(
        CODES.INVALID_REQUEST,
        `The ${IDEMPOTENCY_HEADER} header must be 16 to 128 letters, digits, "-", "_", "." or ":" (a UUID fits).`,
      );
    }
    const fingerprint = JSON.stringify([channel, canonical(order)]);
    let entry = inFlightBookings.get(key);
    if (entry && entry.fingerprint !== fingerprint) throw conflict();
    if (!entry) {
      // Registered before any await, so a concurrent request with this key shares this promise.
      entry = { fingerprint, promise: bookOnce(key, fingerprint, channel, order, request) };
      inFlightBookings.set(key, entry);
      const forget = () => inFlightBookings.delete(key);
      entry.promise.then(forget, forget);
    }
    const booking = await entry.promise;
    return bookResult(booking);
  }

  async function bookOnce(key: string, fingerprint: string, channel: Channel, order: OrderReference, request: Request): Promise<StoredBooking> {
    const known = await store.getIdempotencyRecord(key);
    if (known) {
      if (known.fingerprint !== fingerprint) throw conflict();
      const booking = await store.getBooking(known.booking_id);
      if (booking) return booking;
    }
    let details: OrderDetails | undefined;
    try {
      details = await options.lookupOrder(order, { request });
    } catch (error) {
      report(error, { route: 'book' });
      throw new Refusal(CODES.INTERNAL, 'The server could not look up this order.');
    }
    if (details === undefined || details === null) {
      throw new Refusal(CODES.UNKNOWN_ORDER, 'This order is unknown or cannot be paid.');
    }
    if (typeof details.amount !== 'number' || !Number.isFinite(details.amount) || details.amount <= 0) {
      report(new TypeError(`lookupOrder returned an invalid amount: ${String(details.amount)}`), { route: 'book' });
      throw new Refusal(CODES.INTERNAL, 'The server could not price this order.');
    }
    // The key AND what it books: after this server forgot the key (a restart, an expired or evicted
    // record), a replay of the key for the same order and amount gets the service's first booking back,
    // and the key sent with another order (or a changed amount) is a new booking, never the old one.
    const transaction_uuid = await transactionUuid(options.productCode, key, `${fingerprint}\n${details.amount}`);
    const redirect_url =
      typeof options.redirectUrl === 'function'
        ? options.redirectUrl({ order, channel, transaction_uuid, amount: details.amount })
        : options.redirectUrl;
    const booked = await serviceCall('book', () =>
      client.book({
        amount: details.amount,
        transaction_uuid,
        callback_url: options.callbackUrl,
        redirect_url,
        properties: details.properties ?? {},
      }),
    );
    const booking: StoredBooking = {
      booking_id: booked.booking_id,
      correlation_id: booked.correlation_id,
      deeplink: booked.deeplink,
      transaction_uuid,
      channel,
      order,
      amount: details.amount,
      created_at: Date.now(),
    };
    await store.saveBooking(booking);
    await store.saveIdempotencyRecord(key, { fingerprint, booking_id: booking.booking_id });
    return booking;
  }

  async function bookResult(booking: StoredBooking): Promise<BookResult> {
    const { booking_id, correlation_id, channel } = booking;
    if (channel === 'app') return { booking_id, correlation_id, channel, deeplink: booking.deeplink };
    const signed = { booking_id, correlation_id };
    const web_payment: WebPaymentInstruction = {
      url: webPaymentUrl,
      method: 'POST',
      fields: {
        booking_id,
        correlation_id,
        signed_field_names: WEB_PAYMENT_SIGNED_FIELDS,
        signature: await createSignature(signed, WEB_PAYMENT_SIGNED_FIELDS, options.accessKey),
      },
    };
    return { booking_id, correlation_id, channel, web_payment };
  }

  /** Reads a status or cancel body and finds the booking it names, which this handler must have made. */
  async function ownBooking(text: string): Promise<StoredBooking> {
    const body = parseObject(text, ['booking_id', 'correlation_id']);
    for (const name of ['booking_id', 'correlation_id'] as const) {
      const value = body[name];
      if (typeof value !== 'string' || value.length === 0 || value.length > 128) {
        throw new Refusal(CODES.INVALID_REQUEST, `"${name}" must be a non-empty string of at most 128 characters; got ${describeValue(value)}.`);
      }
    }
    const booking = await store.getBooking(body.booking_id as string);
    if (!booking || booking.correlation_id !== body.correlation_id) {
      throw new Refusal(CODES.UNKNOWN_BOOKING, 'No booking with this booking_id and correlation_id was made here.');
    }
    return booking;
  }

  async function status(text: string): Promise<StatusResult> {
    const booking = await ownBooking(text);
    const answer = await serviceCall('status', () =>
      client.status({ booking_id: booking.booking_id, correlation_id: booking.correlation_id }),
    );
    if (isFinalStatus(answer.status)) {
      // The browser learns the status either way; a failed hook is retried by the next check or callback.
      await deliverStatus(booking, answer, 'status').catch((error: unknown) => report(error, { route: 'status' }));
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
    const answer = await serviceCall('cancel', () => client.cancel({ booking_id: booking.booking_id }));
    if (isFinalStatus(answer.status)) {
      await deliver(booking.correlation_id, {
        source: 'cancel',
        status: answer.status,
        correlation_id: booking.correlation_id,
        ...bookingFacts(booking),
      }).catch((error: unknown) => report(error, { route: 'cancel' }));
    }
    return { booking_id: booking.booking_id, status: answer.status };
  }

  async function callback(text: string): Promise<{ correlation_id: string; status: PaymentStatus }> {
    let payload;
    try {
      payload = await verifyCallback(text, options.accessKey);
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
    if (payload.product_code !== options.productCode) {
      throw new Refusal(CODES.UNKNOWN_MERCHANT, `Callback refused: product_code "${payload.product_code}" is not this merchant's.`);
    }
    if (isFinalStatus(payload.status)) {
      const booking = await store.findBookingByCorrelationId(payload.correlation_id);
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
        report(error, { route: 'callback' });
        throw new Refusal(CODES.INTERNAL, 'The merchant could not record this result yet; retry later.');
      }
    }
    return { correlation_id: payload.correlation_id, status: payload.status };
  }

  async function reconcile({ olderThanMs = STATUS_CHECK_AFTER_MS }: ReconcileOptions = {}): Promise<ReconcileReport> {
    if (typeof store.listOpenBookings !== 'function') {
      throw new TypeError('reconcile() needs a store with listOpenBookings(createdBefore); add it to your PaymentStore.');
    }
    const done: ReconcileReport = { checked: 0, settled: 0, open: 0, failed: 0 };
    // One at a time: a pass is background work and must not crowd the service.
    for (const booking of await store.listOpenBookings(Date.now() - olderThanMs)) {
      done.checked++;
      try {
        const answer = await client.status({ booking_id: booking.booking_id, correlation_id: booking.correlation_id });
        if (!isFinalStatus(answer.status)) {
          done.open++;
          continue;
        }
        await deliverStatus(booking, answer, 'reconcile');
        done.settled++;
      } catch (error) {
        done.failed++;
        report(error, { route: 'reconcile' });
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
        if (await store.isResultDelivered(correlationId, result.status)) return;
        await options.onPaymentResult(result);
        await store.markResultDelivered(correlationId, result.status);
      })();
      inFlightResults.set(id, pending);
      const forget = () => inFlightResults.delete(id);
      pending.then(forget, forget);
    }
    return pending;
  }

  async function serviceCall<T>(route: Route, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (error.kind === 'timeout') throw new Refusal(CODES.UPSTREAM_TIMEOUT, 'The payment service did not answer in time; try again.');
      if (error.kind === 'rejected' && PASSED_THROUGH.has(error.code)) {
        throw new Refusal(error.code as ResponseCode, error.message);
      }
      report(error, { route });
      const detail = error.kind === 'rejected' ? ` (code ${error.code})` : '';
      throw new Refusal(CODES.UPSTREAM_UNAVAILABLE, `The payment service could not process this request${detail}.`);
    }
  }

  const handler = async (request: Request): Promise<Response> => {
    try {
      return await handle(request);
    } catch (error) {
      report(error, { route: 'unknown' });
      return failure(new Refusal(CODES.INTERNAL, 'The server could not handle this request.'));
    }
  };
  return Object.assign(handler, { reconcile });
}

function bookingFacts(booking: StoredBooking): Pick<PaymentResult, 'booking_id' | 'order' | 'transaction_uuid' | 'amount'> {
  return {
    booking_id: booking.booking_id,
    order: booking.order,
    transaction_uuid: booking.transaction_uuid,
    amount: booking.amount,
  };
}

function conflict(): Refusal {
  return new Refusal(
    CODES.IDEMPOTENCY_CONFLICT,
    `This ${IDEMPOTENCY_HEADER} was already used for another order or channel; send a new key for a new payment attempt.`,
  );
}

/**
 * The merchant's `transaction_uuid` for an idempotency key and what it books (`content`: the handler
 * passes the channel, the canonical order and the amount). The same key for the same content always
 * gives the same id, so the service's own idempotency keeps a replay single even after this server
 * lost its memory; the same key for other content gives another id, so a key can never carry a
 * booking (paid or not) over to another order.
 */
export async function transactionUuid(productCode: string, idempotencyKey: string, content: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${productCode}\n${idempotencyKey}\n${content}`));
  let binary = '';
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return `wpb_${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

function lastSegment(url: string): Route | undefined {
  const segments = new URL(url).pathname.split('/').filter((s) => s.length > 0);
  const last = segments[segments.length - 1];
  return (ROUTES as readonly string[]).includes(last ?? '') ? (last as Route) : undefined;
}

async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  }
  if (size === 0) throw new Refusal(CODES.INVALID_REQUEST, 'The body is empty; send a JSON object.');
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Refusal(CODES.INVALID_REQUEST, 'The body is not valid UTF-8.');
  }
}

function tooLarge(limit: number): Refusal {
  return new Refusal(CODES.PAYLOAD_TOO_LARGE, `The body is larger than ${limit} bytes.`);
}

function parseObject(text: string, fields: readonly string[]): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Refusal(CODES.INVALID_REQUEST, 'The body is not valid JSON.');
  }
  if (!isRecord(value)) {
    throw new Refusal(CODES.INVALID_REQUEST, `The body must be a JSON object with ${fields.join(' and ')}; got ${describeValue(value)}.`);
  }
  const missing = fields.filter((name) => !(name in value));
  if (missing.length > 0) throw new Refusal(CODES.INVALID_REQUEST, `Missing field(s): ${missing.join(', ')}.`);
  const extra = Object.keys(value).filter((name) => !fields.includes(name));
  if (extra.length > 0) {
    throw new Refusal(
      CODES.INVALID_REQUEST,
      `Unexpected field(s): ${extra.map((n) => JSON.stringify(n)).join(', ')}; send only ${fields.join(' and ')}.`,
    );
  }
  return value;
}


/** Object keys sorted at every depth, so two spellings of one order give one fingerprint. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function success<T>(message: string, data: T, code: ResponseCode = CODES.OK): Response {
  const body: SuccessEnvelope<T> = { code, message, data };
  return new Response(JSON.stringify(body), { status: 200, headers: JSON_HEADERS });
}

function failure(refusal: Refusal): Response {
  const body: FailureEnvelope = { code: refusal.code, error_message: refusal.message };
  return new Response(JSON.stringify(body), {
    status: HTTP_STATUS_OF_CODE[refusal.code] ?? 500,
    headers: { ...JSON_HEADERS, ...refusal.headers },
  });
}
