/**
 * Booking and idempotency: one booking per `Idempotency-Key` and content, priced from the merchant's
 * own order, at most one payable booking per order, and the element's answer for it (a deeplink, or a
 * signed web-payment form).
 */
import {
  ALREADY_PROCESSED,
  CODES,
  IDEMPOTENCY_HEADER,
  isFinalStatus,
  type BookResult,
  type Channel,
  type OrderReference,
  type PaymentStatus,
  type WebPaymentInstruction,
} from '../protocol/contract.js';
import { createSignature, WEB_PAYMENT_SIGNED_FIELDS } from '../protocol/signature.js';
import { describeValue, isRecord } from '../protocol/values.js';
import { canonical, depthOf, parseObject, Refusal } from './http.js';
import { serviceCall, type Kit } from './kit.js';
import { bookingFacts, ResultBusy, type Results } from './results.js';
import { ServiceError } from './service-client.js';
import type { OrderState, StoredBooking } from './store.js';
import type { OrderDetails } from './types.js';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{16,128}$/;
/** Deeper orders are refused before anything walks them (a 5,000-deep order fits in 16 KiB). */
export const MAX_ORDER_DEPTH = 32;
/**
 * How long an order's lease holds without renewal: its holder renews it every quarter of this while it
 * books, so another instance takes over the order of a process that died within this time.
 */
export const ORDER_LEASE_MS = 4_000;
/** The booking property that carries the order reference to the service and the provider's records. */
export const ORDER_PROPERTY = 'merchant_order';

/** The booking half of the handler. */
export interface Booking {
  book(request: Request, text: string): Promise<BookResult>;
}

export function createBooking(kit: Kit, webPaymentUrl: string, deliver: Results['deliver']): Booking {
  const inFlightBookings = new Map<string, { fingerprint: string; promise: Promise<StoredBooking> }>();
  const orderQueues = new Map<string, Promise<unknown>>();
  // A book of the order waits at most as long as the longest book holds it: cancel, status and book
  // calls of `timeoutMs` each.
  const orderWaitMs = 3 * (kit.options.timeoutMs ?? 10_000) + 5_000;

  async function book(request: Request, text: string): Promise<BookResult> {
    const body = parseObject(text, ['channel', 'order'], ['handoff']);
    if (body.channel !== 'app' && body.channel !== 'web') {
      throw new Refusal(CODES.INVALID_REQUEST, `"channel" must be "app" or "web"; got ${describeValue(body.channel)}.`);
    }
    if (!isRecord(body.order)) {
      throw new Refusal(CODES.INVALID_REQUEST, `"order" must be an object, e.g. {"id":"A-1001"}; got ${describeValue(body.order)}.`);
    }
    if (depthOf(body.order, MAX_ORDER_DEPTH) > MAX_ORDER_DEPTH) {
      throw new Refusal(CODES.INVALID_REQUEST, `"order" is nested deeper than ${MAX_ORDER_DEPTH} levels.`);
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
    const canonicalOrder = JSON.stringify(canonical(order));
    const fingerprint = JSON.stringify(handoff ? [channel, canonical(order), 'handoff'] : [channel, canonical(order)]);
    // Every request runs the merchant's ownership check, a replay of a known key included: a leaked
    // key must not hand another session the booking's ids and signed form.
    const details = await lookup(order, request);
    let entry = inFlightBookings.get(key);
    if (entry && entry.fingerprint !== fingerprint) throw conflict();
    if (!entry) {
      // Registered before any await, so a concurrent request with this key shares this promise.
      entry = { fingerprint, promise: bookOnce(key, fingerprint, channel, order, canonicalOrder, details, handoff) };
      inFlightBookings.set(key, entry);
      const forget = () => inFlightBookings.delete(key);
      entry.promise.then(forget, forget);
    }
    return bookResult(await entry.promise);
  }

  async function lookup(order: OrderReference, request: Request): Promise<OrderDetails> {
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
    return details;
  }

  function known(booking: StoredBooking, fingerprint: string): StoredBooking {
    if (booking.fingerprint !== fingerprint) throw conflict();
    return booking;
  }

  async function bookOnce(
    key: string,
    fingerprint: string,
    channel: Channel,
    order: OrderReference,
    canonicalOrder: string,
    details: OrderDetails,
    handoff: boolean,
  ): Promise<StoredBooking> {
    const orderKey = await digest(canonicalOrder);
    return withOrderLock(key, orderKey, async ({ open, paid }, lease) => {
      // Paid under another key, its result known (delivered or being delivered): refused without asking
      // the service. A refund delivered since (REVERTED) makes the order payable again.
      if (paid) throw alreadyPaid();
      await closeOpenBookings(open);
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
          properties: { [ORDER_PROPERTY]: orderReference(order, canonicalOrder), ...details.properties },
        }),
      );
      const booking: StoredBooking = {
        booking_id: booked.booking_id,
        correlation_id: booked.correlation_id,
        deeplink: booked.deeplink,
        transaction_uuid,
        idempotency_key: key,
        fingerprint,
        channel,
        order,
        order_key: orderKey,
        amount: details.amount,
        created_at: kit.now(),
      };
      // Saved and the lease let go in one step: the next book of the order finds this booking.
      const saved = await kit.store.insertBooking(booking, lease.release());
      if (saved) return booking;
      // The key went to a request for other content on another instance at the same moment.
      const winner = await kit.store.getBookingByKey(key);
      if (winner) return winner;
      throw conflict();
    }).then((booking) => known(booking, fingerprint));
  }

  /**
   * One payable booking per order: an open booking made under another key is cancelled at the service
   * first. One the service says is already processed is asked about: paid means this book is refused
   * (and the result delivered), anything else lets the new booking go ahead.
   */
  async function closeOpenBookings(open: StoredBooking[]): Promise<void> {
    for (const old of open) {
      let status: PaymentStatus;
      let reference_code: string | undefined;
      let source: 'cancel' | 'status' = 'cancel';
      try {
        status = (await kit.client.cancel({ booking_id: old.booking_id })).status;
      } catch (error) {
        if (!(error instanceof ServiceError && error.kind === 'rejected' && error.code === ALREADY_PROCESSED)) {
          if (error instanceof ServiceError && error.kind === 'rejected' && error.code === CODES.UNKNOWN_BOOKING) continue;
          return serviceCall(kit, 'book', () => Promise.reject(error));
        }
        const answer = await serviceCall(kit, 'book', () =>
          kit.client.status({ booking_id: old.booking_id, correlation_id: old.correlation_id }),
        );
        ({ status, reference_code } = answer);
        source = 'status';
      }
      if (isFinalStatus(status)) {
        await deliver({ source, status, correlation_id: old.correlation_id, reference_code, ...bookingFacts(old) }).catch((error: unknown) => {
          if (!(error instanceof ResultBusy)) kit.report(error, { route: 'book' });
        });
      }
      if (status === 'SUCCESS') throw alreadyPaid();
    }
  }

  /**
   * Serializes the books of one order: in this process by a queue, across instances by a short lease
   * in the store, renewed while the work runs, so a process that died holds the order for at most
   * {@link ORDER_LEASE_MS}. Answers the key's booking at once when it has one.
   */
  async function withOrderLock(
    key: string,
    orderKey: string,
    work: (state: OrderState, lease: { release(): { lease: string; owner: string } }) => Promise<StoredBooking>,
  ): Promise<StoredBooking> {
    const previous = orderQueues.get(orderKey) ?? Promise.resolve();
    const run = previous.then(async () => {
      const name = `order:${orderKey}`;
      const deadline = kit.now() + orderWaitMs;
      let state: OrderState;
      for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
        const now = kit.now();
        const opening = await kit.store.beginBooking({ key, orderKey, lease: name, owner: kit.owner, now, until: now + ORDER_LEASE_MS });
        if (opening.status === 'booked') return opening.booking;
        if (opening.status === 'leased') {
          state = opening.order;
          break;
        }
        if (now >= deadline) throw new Refusal(CODES.UPSTREAM_TIMEOUT, 'Another payment of this order is being booked; try again.');
        await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random())));
      }
      let held = true;
      const renewal = setInterval(() => {
        const now = kit.now();
        kit.store.acquireLease(name, kit.owner, now, now + ORDER_LEASE_MS).catch((error: unknown) => kit.report(error, { route: 'book' }));
      }, ORDER_LEASE_MS / 4);
      const release = () => {
        held = false;
        clearInterval(renewal);
        return { lease: name, owner: kit.owner };
      };
      try {
        return await work(state, { release });
      } finally {
        clearInterval(renewal);
        if (held) await kit.store.releaseLease(name, kit.owner).catch((error: unknown) => kit.report(error, { route: 'book' }));
      }
    });
    const settled = run.catch(() => {});
    orderQueues.set(orderKey, settled);
    void settled.then(() => {
      if (orderQueues.get(orderKey) === settled) orderQueues.delete(orderKey);
    });
    return run;
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

  return { book };
}

/** The order's `id` when it has one, else its canonical JSON; cut to the service's 256-character limit. */
function orderReference(order: OrderReference, canonicalOrder: string): string {
  const id = order.id;
  const text = typeof id === 'string' || typeof id === 'number' ? String(id) : canonicalOrder;
  return text.slice(0, 256);
}

/** A fixed-size key for an order (an order may be up to the body limit, too long for an index entry). */
async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function alreadyPaid(): Refusal {
  return new Refusal(CODES.ORDER_ALREADY_PAID, 'This order is already paid.');
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
