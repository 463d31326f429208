/**
 * The payment service as the kit calls it. A typed client of its three endpoints, book, status and
 * cancel: it signs each request with the spec's field list, POSTs JSON, and turns every answer into
 * typed data or a {@link ServiceError} (the error every provider adapter fails with, from the kit's
 * `service-error.ts`). Web APIs only (fetch, AbortController), so it runs in Node 20 and edge runtimes.
 */
import { CODES, isPaymentStatus, type PaymentStatus } from '../../protocol/contract.js';
import { createSignature, SIGNED_FIELDS } from '../../protocol/signature.js';
import { isRecord } from '../../protocol/values.js';
import { AnswerTooLarge, readCapped, ServiceError } from '../../server/service-error.js';

/** Options of {@link createServiceClient}. */
export interface ServiceClientOptions {
  /** The service's `{base_url}`, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** The access key the provider issued; it signs every request and never leaves the server. */
  accessKey: string;
  /** The merchant's product code, assigned by the provider. */
  productCode: string;
  /** How long one call may take, body included, before it fails with `IP-504`. Default 10 000 ms. */
  timeoutMs?: number;
  /** The fetch to use; defaults to the global one. */
  fetch?: typeof fetch;
  /**
   * The largest answer read, in bytes (default 65 536: the service's answers are a few hundred bytes).
   * A larger one is `IP-502`, and no more of it is read.
   */
  maxAnswerBytes?: number;
}

/** What to book. */
export interface BookInput {
  /** Total to pay, taken from the merchant's own order. */
  amount: number;
  /** Merchant-unique id: letters, digits, `-` and `_`, at most 64 characters. */
  transaction_uuid: string;
  callback_url: string;
  redirect_url: string;
  /** Shown to the shopper; snake_case keys, string values. Default `{}`. */
  properties?: Record<string, string>;
}

/** `data` of a successful book. */
export interface ServiceBooking {
  booking_id: string;
  deeplink: string;
  correlation_id: string;
}

/** `data` of a successful status check. */
export interface ServiceStatus {
  booking_id: string;
  product_code: string;
  status: PaymentStatus;
  correlation_id: string;
  transaction_id: string;
  reference_code: string;
  updated_at: string;
}

/** `data` of a successful cancel. */
export interface ServiceCancellation {
  booking_id: string;
  status: PaymentStatus;
  correlation_id: string;
  transaction_id: string;
}

/** The service's three operations. */
export interface ServiceClient {
  /** Creates a booking; the same `transaction_uuid` with the same content returns the same booking. */
  book(input: BookInput): Promise<ServiceBooking>;
  /** Reads a booking's current status. */
  status(input: { booking_id: string; correlation_id: string }): Promise<ServiceStatus>;
  /** Cancels a booking that is still `BOOKED` or `PENDING`; otherwise fails with `IP-410`. */
  cancel(input: { booking_id: string }): Promise<ServiceCancellation>;
}

const TRANSACTION_UUID = /^[A-Za-z0-9_-]{1,64}$/;

/** Creates a client of the service at `baseUrl` for one merchant. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const { accessKey, productCode } = options;
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute URL; got ${JSON.stringify(options.baseUrl)}.`);
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') {
    throw new TypeError(`baseUrl must be an http(s) URL; got ${JSON.stringify(options.baseUrl)}.`);
  }
  if (typeof accessKey !== 'string' || accessKey.length === 0) throw new TypeError('accessKey is required.');
  if (typeof productCode !== 'string' || productCode.length === 0) throw new TypeError('productCode is required.');
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(`timeoutMs must be a positive number; got ${String(options.timeoutMs)}.`);
  }
  const maxAnswerBytes = options.maxAnswerBytes ?? 65_536;
  if (!Number.isInteger(maxAnswerBytes) || maxAnswerBytes <= 0) {
    throw new TypeError(`maxAnswerBytes must be a positive whole number; got ${String(options.maxAnswerBytes)}.`);
  }
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const root = base.href.replace(/\/+$/, '');

  const transport: Transport = { root, timeoutMs, maxAnswerBytes, doFetch };
  const call = (operation: Operation, body: Record<string, unknown>) => send(transport, operation, body);

  return {
    async book(input) {
      if (typeof input.amount !== 'number' || !Number.isFinite(input.amount) || input.amount <= 0) {
        throw new TypeError(`amount must be a positive finite number; got ${String(input.amount)}.`);
      }
      if (typeof input.transaction_uuid !== 'string' || !TRANSACTION_UUID.test(input.transaction_uuid)) {
        throw new TypeError('transaction_uuid must be 1 to 64 letters, digits, "-" or "_".');
      }
      const signed = { product_code: productCode, amount: input.amount, transaction_uuid: input.transaction_uuid };
      const body = {
        ...signed,
        signed_field_names: SIGNED_FIELDS.book,
        signature: await createSignature(signed, SIGNED_FIELDS.book, accessKey),
        callback_url: input.callback_url,
        redirect_url: input.redirect_url,
        properties: input.properties ?? {},
      };
      const data = requireStrings('book', await call('book', body), ['booking_id', 'deeplink', 'correlation_id'] as const);
      return { booking_id: data.booking_id, deeplink: data.deeplink, correlation_id: data.correlation_id };
    },

    async status(input) {
      const signed = { booking_id: input.booking_id, product_code: productCode, correlation_id: input.correlation_id };
      const body = {
        ...signed,
        signed_field_names: SIGNED_FIELDS.status,
        signature: await createSignature(signed, SIGNED_FIELDS.status, accessKey),
      };
      const raw = await call('status', body);
      const data = requireStrings('status', raw, [
        'booking_id', 'product_code', 'correlation_id', 'transaction_id', 'reference_code', 'updated_at',
      ] as const);
      return {
        booking_id: data.booking_id,
        product_code: data.product_code,
        status: requireStatus('status', raw),
        correlation_id: data.correlation_id,
        transaction_id: data.transaction_id,
        reference_code: data.reference_code,
        updated_at: data.updated_at,
      };
    },

    async cancel(input) {
      const signed = { booking_id: input.booking_id, product_code: productCode };
      const body = {
        ...signed,
        signed_field_names: SIGNED_FIELDS.cancel,
        signature: await createSignature(signed, SIGNED_FIELDS.cancel, accessKey),
      };
      const raw = await call('cancel', body);
      const data = requireStrings('cancel', raw, ['booking_id', 'correlation_id', 'transaction_id'] as const);
      return {
        booking_id: data.booking_id,
        status: requireStatus('cancel', raw),
        correlation_id: data.correlation_id,
        transaction_id: data.transaction_id,
      };
    },
  };
}

type Operation = 'book' | 'status' | 'cancel';
type Answer = { data: Record<string, unknown>; httpStatus: number };
/** Where and how a client sends its calls. */
interface Transport {
  root: string;
  timeoutMs: number;
  maxAnswerBytes: number;
  doFetch: typeof fetch;
}

/** Sends one signed call and reads its envelope: the data of a success, or a {@link ServiceError}. */
async function send({ root, timeoutMs, maxAnswerBytes, doFetch }: Transport, operation: Operation, body: Record<string, unknown>): Promise<Answer> {
  const url = `${root}/api/client/intent/payment/${operation}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response: Response | undefined;
  let text: string;
  try {
    response = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    text = await readCapped(response, maxAnswerBytes, controller.signal);
  } catch (error) {
    if (error instanceof AnswerTooLarge) {
      throw new ServiceError(operation, 'unavailable', CODES.UPSTREAM_UNAVAILABLE, response!.status,
        `The payment service answered ${operation} with a body larger than ${maxAnswerBytes} bytes; it was not read further.`);
    }
    if (controller.signal.aborted) {
      throw new ServiceError(operation, 'timeout', CODES.UPSTREAM_TIMEOUT, undefined,
        `The payment service did not answer ${operation} within ${timeoutMs} ms.`);
    }
    throw new ServiceError(operation, 'unavailable', CODES.UPSTREAM_UNAVAILABLE, undefined,
      `The payment service could not be reached for ${operation}: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }

  return readEnvelope(operation, response!, text);
}

/** The data of a success envelope, or the {@link ServiceError} for a failure or for what is not the service's answer. */
function readEnvelope(operation: Operation, response: Response, text: string): Answer {
  const status = response.status;
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new ServiceError(operation, 'unavailable', CODES.UPSTREAM_UNAVAILABLE, status,
      `The payment service answered ${operation} with HTTP ${status} and a body that is not JSON (${type}).`);
  }
  if (!isRecord(envelope) || typeof envelope.code !== 'string') {
    throw new ServiceError(operation, 'unavailable', CODES.UPSTREAM_UNAVAILABLE, status,
      `The payment service answered ${operation} with HTTP ${status} and no envelope (an object with a code).`);
  }
  if (typeof envelope.error_message === 'string') {
    throw new ServiceError(operation, 'rejected', envelope.code, status, envelope.error_message);
  }
  if (status < 200 || status > 299 || !isRecord(envelope.data)) {
    throw new ServiceError(operation, 'unavailable', CODES.UPSTREAM_UNAVAILABLE, status,
      `The payment service answered ${operation} with HTTP ${status} and neither a success nor a failure envelope.`);
  }
  return { data: envelope.data, httpStatus: status };
}

function requireStrings<T extends string>(
  operation: 'book' | 'status' | 'cancel',
  { data, httpStatus }: Answer,
  names: readonly T[],
): Record<T, string> {
  for (const name of names) {
    if (typeof data[name] !== 'string' || (data[name] as string).length === 0) {
      throw new ServiceError(operation, 'unavailable', CODES.UPSTREAM_UNAVAILABLE, httpStatus,
        `The payment service's ${operation} answer lacks a string "${name}".`);
    }
  }
  return data as Record<T, string>;
}

function requireStatus(operation: 'status' | 'cancel', { data, httpStatus }: Answer): PaymentStatus {
  const value = data.status;
  if (!isPaymentStatus(value)) {
    throw new ServiceError(operation, 'unavailable', CODES.UPSTREAM_UNAVAILABLE, httpStatus,
      `The payment service's ${operation} answer has an unknown status ${JSON.stringify(value)}.`);
  }
  return value;
}
