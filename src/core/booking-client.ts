/**
 * Talks to the merchant's proxy (`{endpoint}/book|status|cancel`) with an injected `fetch`, so it runs
 * anywhere and is tested as plain functions. Every failure becomes one typed {@link BookingError}.
 */
import {
  IDEMPOTENCY_HEADER,
  isPaymentStatus,
  type BookRequest,
  type BookResult,
  type CancelRequest,
  type CancelResult,
  type FailureEnvelope,
  type StatusRequest,
  type StatusResult,
  type WebPaymentInstruction,
} from '../protocol/contract.js';
import { isRecord } from '../protocol/values.js';
import { systemClock, type Clock } from './clock.js';

/**
 * Header of a book request carrying the funnel's attempt id (the element's `attempt_id`), so the shop's
 * server can join its own records and hooks to the browser's funnel events.
 */
export const ATTEMPT_HEADER = 'Wallet-Pay-Attempt';

/** What went wrong with a request to the merchant's proxy. */
export type BookingErrorKind =
  | 'timeout'
  | 'network'
  | 'offline'
  | 'http'
  | 'invalid-json'
  | 'invalid-response'
  | 'aborted';

/** A failed request to the merchant's proxy. */
export class BookingError extends Error {
  override readonly name = 'BookingError';
  constructor(
    /** The kind of failure; the element picks its message from it. */
    readonly kind: BookingErrorKind,
    message: string,
    /** HTTP status, when an answer arrived. */
    readonly status?: number,
    /** The failure envelope's `code`, when the answer carried one (e.g. `IP-410`). */
    readonly code?: string,
    /** The failure envelope's `error_message`, for logs: never shown to the shopper as-is. */
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}

/** The `fetch` shape the client needs. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Options of {@link createBookingClient}. */
interface BookingClientOptions {
  /** Base URL of the merchant's proxy (absolute). */
  endpoint: string | URL;
  /** The `fetch` to use; injected so tests and non-browser hosts choose. */
  fetch: FetchLike;
  /** Timeout of a book request, in ms (the app channel needs well under 5 s). */
  bookTimeoutMs: number;
  /** Timeout of status and cancel requests, in ms. */
  requestTimeoutMs: number;
  /** Reports whether the device is online (e.g. `() => navigator.onLine`); online when absent. */
  isOnline?: () => boolean;
  /** The timers of the request timeouts (the global ones when absent). */
  clock?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

/**
 * The three operations of the contract. Each takes an optional `signal`: aborting it stops the request
 * (the promise then rejects with a `BookingError` of kind `aborted`).
 */
export interface BookingClient {
  /**
   * Books a payment; `idempotencyKey` is the attempt's key, the same on a retry; `attemptId`, when
   * given, is sent as {@link ATTEMPT_HEADER}.
   */
  book(request: BookRequest, idempotencyKey: string, signal?: AbortSignal, attemptId?: string): Promise<BookResult>;
  /** Asks the status of a booking. */
  status(request: StatusRequest, signal?: AbortSignal): Promise<StatusResult>;
  /** Cancels a booking; a refusal because it is already processed throws with code `IP-410`. */
  cancel(request: CancelRequest, signal?: AbortSignal): Promise<CancelResult>;
  /**
   * Asks whether an order is paid, by the shop's own records (`POST {endpoint}/order`). A server
   * without the route answers 404 or 405: that throws like any other failure.
   */
  order(request: OrderRequest, signal?: AbortSignal): Promise<OrderResult>;
}

/** `POST {endpoint}/order` body: the order reference the element sends to `/book`. */
export interface OrderRequest {
  order: BookRequest['order'];
}

/** `data` of an `/order` answer: whether the shop's records hold a payment of the order, and its status. */
export interface OrderResult {
  paid: boolean;
  status?: StatusResult['status'];
}

type Json = Record<string, unknown>;

const isObject = isRecord as (value: unknown) => value is Json;

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function missing(field: string): never {
  throw new BookingError('invalid-response', `The answer lacks a valid "${field}".`);
}

/** A status or cancel answer must be about the booking asked for: another booking's must never route the shopper. */
function sameBooking(data: Json, asked: string): asserts data is Json & { booking_id: string } {
  if (!nonEmptyString(data.booking_id)) missing('booking_id');
  if (data.booking_id !== asked) throw new BookingError('invalid-response', `The answer is about booking "${data.booking_id}", not "${asked}".`);
}

/** Creates a client for one merchant proxy. Error messages are short and start with the operation. */
export function createBookingClient(options: BookingClientOptions): BookingClient {
  const isOnline = options.isOnline ?? (() => true);
  const clock = options.clock ?? systemClock();

  async function post(operation: string, body: unknown, timeoutMs: number, signal: AbortSignal | undefined, headers?: Record<string, string>): Promise<Json> {
    const error = (kind: BookingErrorKind, message: string, status?: number, code?: string, serverMessage?: string) =>
      new BookingError(kind, `${operation}: ${message}`, status, code, serverMessage);
    const offline = () => error('offline', 'the device is offline');
    if (signal?.aborted) throw error('aborted', 'the request was abandoned');
    if (!isOnline()) throw offline();
    const controller = new AbortController();
    let timedOut = false;
    const timer = clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const abandon = () => controller.abort();
    signal?.addEventListener('abort', abandon);
    // Joined onto the endpoint's own path, so a proxy mounted under a prefix keeps it.
    const url = new URL(options.endpoint);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${operation}`;
    let response: Response | undefined;
    let text: string;
    try {
      response = await options.fetch(url.href, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: controller.signal,
        // A booking must never be served from a cache or follow a redirect; a redirect is answered
        // as such (below), so a login wall or a trailing-slash rule in front of the proxy is named.
        cache: 'no-store',
        redirect: 'manual',
      });
      text = await response.text();
    } catch (cause) {
      if (timedOut) throw error('timeout', `no answer within ${timeoutMs} ms`);
      if (controller.signal.aborted) throw error('aborted', 'the request was abandoned');
      if (response) throw error('network', 'the answer was cut off');
      if (!isOnline()) throw offline();
      throw error('network', `the request failed: ${String(cause)}`);
    } finally {
      clock.clearTimeout(timer);
      signal?.removeEventListener('abort', abandon);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // `undefined` is never a JSON value: it marks a body that is not JSON.
    }
    const status = response.status;
    if (!response.ok) {
      const envelope = (isObject(parsed) ? parsed : {}) as Partial<FailureEnvelope>;
      const code = nonEmptyString(envelope.code) ? envelope.code : undefined;
      const detail = typeof envelope.error_message === 'string' ? envelope.error_message : undefined;
      throw response.type === 'opaqueredirect'
        ? error('http', 'the proxy answered with a redirect (never followed)', status)
        : // The address is named: a wrong endpoint shows where the request went, not just a status.
          error('http', `HTTP ${status}${code ? ` (${code})` : ''} from ${url.href}`, status, code, detail);
    }
    if (parsed === undefined) throw error('invalid-json', 'the answer is not JSON', status);
    if (!isObject(parsed) || !isObject(parsed.data)) missing('data');
    return parsed.data;
  }

  return {
    async book(request, idempotencyKey, signal, attemptId) {
      const headers: Record<string, string> = { [IDEMPOTENCY_HEADER]: idempotencyKey };
      if (attemptId) headers[ATTEMPT_HEADER] = attemptId;
      const data = await post('book', request, options.bookTimeoutMs, signal, headers);
      return parseBookResult(data, request.channel);
    },
    async status(request, signal) {
      const data = await post('status', request, options.requestTimeoutMs, signal);
      sameBooking(data, request.booking_id);
      if (!nonEmptyString(data.correlation_id)) missing('correlation_id');
      if (!isPaymentStatus(data.status)) missing('status');
      const result: StatusResult = { booking_id: data.booking_id, correlation_id: data.correlation_id, status: data.status };
      if (typeof data.updated_at === 'string') result.updated_at = data.updated_at;
      return result;
    },
    async order(request, signal) {
      const data = await post('order', request, options.requestTimeoutMs, signal);
      if (typeof data.paid !== 'boolean') missing('paid');
      const result: OrderResult = { paid: data.paid };
      if (isPaymentStatus(data.status)) result.status = data.status;
      return result;
    },
    async cancel(request, signal) {
      const data = await post('cancel', request, options.requestTimeoutMs, signal);
      sameBooking(data, request.booking_id);
      if (!isPaymentStatus(data.status)) missing('status');
      return { booking_id: data.booking_id, status: data.status };
    },
  };
}

/**
 * Validates a book answer's `data` for the channel that was asked for: the server may answer `web` to
 * an `app` request (a wallet paid on the web only), and the answer's channel is followed.
 */
export function parseBookResult(data: Json, asked: BookRequest['channel']): BookResult {
  if (!nonEmptyString(data.booking_id)) missing('booking_id');
  if (!nonEmptyString(data.correlation_id)) missing('correlation_id');
  if (data.channel !== undefined && data.channel !== asked && !(asked === 'app' && data.channel === 'web')) missing('channel');
  const channel = data.channel === 'web' ? 'web' : asked;
  const result: BookResult = { booking_id: data.booking_id, correlation_id: data.correlation_id, channel };
  if (nonEmptyString(data.wallet)) result.wallet = data.wallet;
  if (nonEmptyString(data.receipt)) result.receipt = data.receipt;
  if (channel === 'app') {
    if (!nonEmptyString(data.deeplink)) missing('deeplink');
    result.deeplink = data.deeplink;
  } else {
    result.web_payment = parseWebPayment(data.web_payment);
  }
  return result;
}

/** A web payment instruction read from untrusted data (a book answer, a continuation); throws naming the field that is wrong. */
export function parseWebPayment(value: unknown): WebPaymentInstruction {
  if (!isObject(value)) missing('web_payment');
  if (!nonEmptyString(value.url)) missing('web_payment.url');
  if (value.method !== 'GET' && value.method !== 'POST') missing('web_payment.method');
  // A form is posted with its fields: a POST without them could only fail at the provider's page.
  if (value.fields === undefined) return value.method === 'POST' ? missing('web_payment.fields') : { url: value.url, method: 'GET' };
  if (!isObject(value.fields)) missing('web_payment.fields');
  const fields: Record<string, string> = {};
  for (const [name, field] of Object.entries(value.fields)) {
    if (typeof field !== 'string') missing(`web_payment.fields.${name}`);
    fields[name] = field;
  }
  return { url: value.url, method: value.method, fields };
}
