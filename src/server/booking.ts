/**
 * Booking and idempotency: one booking per `Idempotency-Key` and content, priced from the merchant's
 * own order, and the element's answer for it (a deeplink, or a signed web-payment form).
 */
import {
  CODES,
  IDEMPOTENCY_HEADER,
  type BookResult,
  type Channel,
  type OrderReference,
  type WebPaymentInstruction,
} from '../protocol/contract.js';
import { createSignature, WEB_PAYMENT_SIGNED_FIELDS } from '../protocol/signature.js';
import { describeValue, isRecord } from '../protocol/values.js';
import { canonical, parseObject, Refusal } from './http.js';
import { serviceCall, type Kit } from './kit.js';
import type { StoredBooking } from './store.js';
import type { OrderDetails, PaymentResult } from './types.js';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{16,128}$/;

/** The booking half of the handler. */
export interface Booking {
  book(request: Request, text: string): Promise<BookResult>;
  /** Reads a status or cancel body and finds the booking it names, which this handler must have made. */
  ownBooking(text: string): Promise<StoredBooking>;
}

export function createBooking(kit: Kit, webPaymentUrl: string): Booking {
  const inFlightBookings = new Map<string, { fingerprint: string; promise: Promise<StoredBooking> }>();

  async function book(request: Request, text: string): Promise<BookResult> {
    const body = parseObject(text, ['channel', 'order'], ['handoff']);
    if (body.channel !== 'app' && body.channel !== 'web') {
      throw new Refusal(CODES.INVALID_REQUEST, `"channel" must be "app" or "web"; got ${describeValue(body.channel)}.`);
    }
    if (!isRecord(body.order)) {
      throw new Refusal(CODES.INVALID_REQUEST, `"order" must be an object, e.g. {"id":"A-1001"}; got ${describeValue(body.order)}.`);
    }
    if (body.handoff !== undefined && (body.handoff !== true || body.channel !== 'app')) {
      throw new Refusal(CODES.INVALID_REQUEST, `"handoff" may only be true, on an "app" booking; got ${describeValue(body.handoff)}.`);
    }
    const channel: Channel = body.channel;
    const order = body.order as OrderReference;
    const handoff = body.handoff === true;
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
    const fingerprint = JSON.stringify(handoff ? [channel, canonical(order), 'handoff'] : [channel, canonical(order)]);
    let entry = inFlightBookings.get(key);
    if (entry && entry.fingerprint !== fingerprint) throw conflict();
    if (!entry) {
      // Registered before any await, so a concurrent request with this key shares this promise.
      entry = { fingerprint, promise: bookOnce(key, fingerprint, channel, order, request, handoff) };
      inFlightBookings.set(key, entry);
      const forget = () => inFlightBookings.delete(key);
      entry.promise.then(forget, forget);
    }
    const booking = await entry.promise;
    return bookResult(booking);
  }

  async function bookOnce(
    key: string,
    fingerprint: string,
    channel: Channel,
    order: OrderReference,
    request: Request,
    handoff: boolean,
  ): Promise<StoredBooking> {
    const known = await kit.store.getIdempotencyRecord(key);
    if (known) {
      if (known.fingerprint !== fingerprint) throw conflict();
      const booking = await kit.store.getBooking(known.booking_id);
      if (booking) return booking;
    }
    let details: OrderDetails | undefined;
    try {
      details = await kit.options.lookupOrder(order, { request });
    } catch (error) {
      kit.report(error, { route: 'book' });
      throw new Refusal(CODES.INTERNAL, 'The server could not look up this order.');
    }
    if (details === undefined || details === null) {
      throw new Refusal(CODES.UNKNOWN_ORDER, 'This order is unknown or cannot be paid.');
    }
    if (typeof details.amount !== 'number' || !Number.isFinite(details.amount) || details.amount <= 0) {
      kit.report(new TypeError(`lookupOrder returned an invalid amount: ${String(details.amount)}`), { route: 'book' });
      throw new Refusal(CODES.INTERNAL, 'The server could not price this order.');
    }
    // The key AND what it books: after this server forgot the key (a restart, an expired or evicted
    // record), a replay of the key for the same order and amount gets the service's first booking back,
    // and the key sent with another order (or a changed amount) is a new booking, never the old one.
    const transaction_uuid = await transactionUuid(kit.options.productCode, key, `${fingerprint}\n${details.amount}`);
    const redirect_url =
      typeof kit.options.redirectUrl === 'function'
        ? kit.options.redirectUrl({ order, channel, transaction_uuid, amount: details.amount, handoff })
        : kit.options.redirectUrl;
    const booked = await serviceCall(kit, 'book', () =>
      kit.client.book({
        amount: details.amount,
        transaction_uuid,
        callback_url: kit.options.callbackUrl,
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
    await kit.store.saveBooking(booking);
    await kit.store.saveIdempotencyRecord(key, { fingerprint, booking_id: booking.booking_id });
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
        signature: await createSignature(signed, WEB_PAYMENT_SIGNED_FIELDS, kit.options.accessKey),
      },
    };
    return { booking_id, correlation_id, channel, web_payment };
  }

  async function ownBooking(text: string): Promise<StoredBooking> {
    const body = parseObject(text, ['booking_id', 'correlation_id']);
    for (const name of ['booking_id', 'correlation_id'] as const) {
      const value = body[name];
      if (typeof value !== 'string' || value.length === 0 || value.length > 128) {
        throw new Refusal(CODES.INVALID_REQUEST, `"${name}" must be a non-empty string of at most 128 characters; got ${describeValue(value)}.`);
      }
    }
    const booking = await kit.store.getBooking(body.booking_id as string);
    if (!booking || booking.correlation_id !== body.correlation_id) {
      throw new Refusal(CODES.UNKNOWN_BOOKING, 'No booking with this booking_id and correlation_id was made here.');
    }
    return booking;
  }


  return { book, ownBooking };
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

function conflict(): Refusal {
  return new Refusal(
    CODES.IDEMPOTENCY_CONFLICT,
    `This ${IDEMPOTENCY_HEADER} was already used for another order or channel; send a new key for a new payment attempt.`,
  );
}

export function bookingFacts(booking: StoredBooking): Pick<PaymentResult, 'booking_id' | 'order' | 'transaction_uuid' | 'amount'> {
  return {
    booking_id: booking.booking_id,
    order: booking.order,
    transaction_uuid: booking.transaction_uuid,
    amount: booking.amount,
  };
}

