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
import { createSignature, signMessage, WEB_PAYMENT_SIGNED_FIELDS } from '../protocol/signature.js';
import { canonical, describeValue, isRecord } from '../protocol/values.js';
import { attemptTag } from './attempt.js';
import { depthOf, parseObject, Refusal } from './http.js';
import { MAX_ORDER_DEPTH } from './limits.js';
import { asStoreOutage, bookingFacts, LeaseLost, ResultBusy, RETRY_AFTER_SECONDS, serviceCall, type Delivery, type Kit } from './kit.js';
import type { StoreUnavailableError } from './store-errors.js';
import { contentOf, storedFingerprint } from './fingerprint.js';
import { LookupLate, lookupWithin } from './lookup.js';
import { chargeOf, toPaise, toRupees } from './amounts.js';
import { receiptOf } from './receipt.js';
import { ServiceError } from './service-client.js';
import type { LeaseHold, OrderState, StoredBooking } from './store.js';
import type { OrderDetails } from './types.js';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{16,128}$/;
/**
 * How long an order's lease holds without renewal: its holder renews it every quarter of this while it
 * books, so another instance takes over the order of a process that died within this time.
 */
export const ORDER_LEASE_MS = 4_000;
/** The booking property that carries the order reference to the service and the provider's records. */
export const ORDER_PROPERTY = 'merchant_order';
/** The longest canonical order id: it travels to the service in {@link ORDER_PROPERTY}, limited to 256 characters. */
const MAX_ORDER_ID = 256;

/** The order's lease as a book holds it (see `withOrderLock`). */
interface OrderLease {
  /** The hold, for writes the store must refuse once another instance took the order over. */
  readonly hold: LeaseHold;
  /** Refuses the book when a renewal already found the order taken over: nothing more is sent to the service. */
  check(): void;
  /** Stops renewing and hands the hold to the write that ends the lease. */
  end(): LeaseHold;
}

/** The booking half of the handler. */
export interface Booking {
  book(request: Request, text: string): Promise<BookResult>;
}

/** What `lookupOrder` said, checked: the canonical id, total and balance (rounded to paisa) of a payable order. */
interface PayableOrder {
  id: string;
  amount: number;
  balance?: number;
  properties?: Record<string, string>;
}

export function createBooking(kit: Kit, webPaymentUrl: string, delivery: Delivery): Booking {
  const inFlightBookings = new Map<string, { fingerprint: string; promise: Promise<StoredBooking> }>();
  // Per order, the end of its last book in this process: the store outage it met, if it met one.
  const orderQueues = new Map<string, Promise<StoreUnavailableError | undefined>>();
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
    // Every request runs the merchant's ownership check, a replay of a known key included: a leaked
    // key must not hand another session the booking's ids and signed form.
    const details = await lookup(order, request);
    // The key's content is the merchant's own order, not the browser's spelling of it: `{"id":7}` and
    // `{"id":"7"}`, or `café-1` and `CAFÉ-1`, are one order when the lookup says so.
    const fingerprint = JSON.stringify(handoff ? ['v2', channel, details.id, 'handoff'] : ['v2', channel, details.id]);
    const flightKey = `${key}\n${details.amount}\n${details.balance ?? ''}`;
    let entry = inFlightBookings.get(flightKey);
    if (entry && entry.fingerprint !== fingerprint) throw conflict();
    if (!entry) {
      // Registered before any await, so a concurrent request with this key shares this promise.
      entry = { fingerprint, promise: bookOnce(key, fingerprint, channel, order, details, handoff) };
      inFlightBookings.set(flightKey, entry);
      const forget = () => inFlightBookings.delete(flightKey);
      entry.promise.then(forget, forget);
    }
    return bookResult(await entry.promise);
  }

  async function lookup(order: OrderReference, request: Request): Promise<PayableOrder> {
    const tag = attemptTag(request);
    let details: unknown;
    try {
      details = await lookupWithin(kit, order, request);
    } catch (error) {
      kit.report(error, { route: 'book', ...tag });
      if (error instanceof LookupLate) {
        throw new Refusal(CODES.SERVER_UNAVAILABLE, "The shop's server could not look up this order in time; try again in a moment.", {
          'retry-after': String(RETRY_AFTER_SECONDS),
        });
      }
      throw new Refusal(CODES.INTERNAL, 'The server could not look up this order.');
    }
    if (details === undefined || details === null) {
      throw new Refusal(CODES.UNKNOWN_ORDER, 'This order is unknown or cannot be paid.');
    }
    if (!isRecord(details)) return invalidLookup(tag, `lookupOrder must return an object such as { id, amount }, { paid: true } or undefined; got ${describeValue(details)}.`);
    // A database's truthy 1, "true" or "t" must not read as "not paid": only a boolean says it.
    if (details.paid !== undefined && details.paid !== true && details.paid !== false) {
      return invalidLookup(tag, `lookupOrder returned { paid: ${describeValue(details.paid)} }; "paid" must be true, false or absent (convert a database's 1 or "t" with row.paid === true).`);
    }
    if (details.paid === true) throw alreadyPaid();
    const { id, amount, balance, properties } = details as Partial<OrderDetails> & Record<string, unknown>;
    if (typeof amount !== 'number') {
      const numeric = typeof amount === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(amount);
      return invalidLookup(
        tag,
        `lookupOrder returned an amount of type ${typeof amount} (${describeValue(amount)}); it must be a number in rupees with at most two decimals, ` +
          (numeric
            ? `e.g. 1250.5. node-postgres reads a numeric column as a string: return { amount: Number(row.total) }.`
            : 'e.g. { id: row.id, amount: 1250.5 }.'),
      );
    }
    if (!isRupees(amount)) {
      return invalidLookup(tag, `lookupOrder returned the amount ${describeValue(amount)}; it must be a positive number of rupees with at most two decimals, e.g. 1250.5.`);
    }
    if (!((typeof id === 'string' && id.length > 0 && id.length <= MAX_ORDER_ID) || (typeof id === 'number' && Number.isFinite(id)))) {
      return invalidLookup(
        tag,
        `lookupOrder returned the order id ${describeValue(id)}; return the order's own id from your records as "id" ` +
          `(a non-empty string of at most ${MAX_ORDER_ID} characters, or a number), e.g. { id: row.id, amount: 1250.5 }: ` +
          'one order is one payment, however the browser spells it.',
      );
    }
    if (balance !== undefined && (typeof balance !== 'number' || !isRupees(balance))) {
      return invalidLookup(tag, `lookupOrder returned the balance ${describeValue(balance)}; it must be a positive number of rupees with at most two decimals, or absent.`);
    }
    const payable: PayableOrder = { id: String(id), amount: toRupees(toPaise(amount)), properties: properties as Record<string, string> | undefined };
    if (balance !== undefined) payable.balance = toRupees(toPaise(balance));
    return payable;
  }

  function invalidLookup(tag: { attempt?: string }, message: string): never {
    kit.report(new TypeError(message), { route: 'book', ...tag });
    throw new Refusal(CODES.INTERNAL, 'The server could not price this order.');
  }

  function known(booking: StoredBooking, fingerprint: string): StoredBooking {
    if (contentOf(booking.fingerprint) !== fingerprint) throw conflict();
    return booking;
  }

  async function bookOnce(
    key: string,
    fingerprint: string,
    channel: Channel,
    order: OrderReference,
    details: PayableOrder,
    handoff: boolean,
  ): Promise<StoredBooking> {
    // A key names one attempt at one order. Its first booking is kept under the key; when the order's
    // total (or what is owed of it) changed since, the attempt books anew under `key~1`, `key~2`, ...
    // (the older booking, still open, is cancelled first as any other open booking). A replay answers
    // the attempt's latest booking when it is still the order's open one at the charge now: a key
    // priced back to an older amount books anew, never the booking cancelled when it was re-priced.
    const orderKey = await orderKeyOf(details.id);
    const first = await bookUnder(key, undefined);
    if (first.made) return first.booking;
    let latest = first.booking;
    let n = 1;
    for (let next; (next = await kit.store.getBookingByKey({ key: `${key}~${n}` })); n++) latest = known(next, fingerprint);
    // At the whole total (nothing paid before it), the latest booking is the attempt's answer as it is.
    if (latest.amount === details.amount && details.balance === undefined) return latest;
    return (await bookUnder(`${key}~${n}`, latest)).booking;

    /**
     * The booking of `storeKey`, made now if it has none; `latest`, the attempt's latest booking, is
     * answered instead when it is still open at what the order owes now.
     */
    async function bookUnder(storeKey: string, latest: StoredBooking | undefined): Promise<{ booking: StoredBooking; made: boolean }> {
      let made = false;
      const booking = await withOrderLock(storeKey, orderKey, async ({ open, paid, paidAmount }, lease) => {
        let paidPaise = toPaise(paidAmount ?? paid?.amount ?? 0);
        const total = toPaise(details.amount);
        const balance = details.balance === undefined ? undefined : toPaise(details.balance);
        // Paid under another key, its result known (delivered or being delivered), for at least the
        // order's total now: refused without asking the service. A refund delivered since (REVERTED)
        // makes the order payable again; a payment below the total now leaves its balance to pay.
        if (chargeOf(total, paidPaise, balance) <= 0) throw alreadyPaid();
        // A paid booking not settled yet (its delivery runs) is open and paid at once: never the answer, counted once.
        const payable = latest && latest.booking_id !== paid?.booking_id && open.some((b) => b.booking_id === latest.booking_id);
        if (payable && toPaise(latest.amount) === chargeOf(total, paidPaise, balance)) return latest;
        paidPaise += await closeOpenBookings(open, lease.hold, paid);
        lease.check();
        const charge = chargeOf(total, paidPaise, balance);
        if (charge <= 0) throw alreadyPaid();
        const amount = toRupees(charge);
        // The attempt's key AND what it books: after this server forgot the key (a restart, an expired or
        // evicted record), a replay of the key for the same order and amount gets the service's first
        // booking back, and the key sent with another order (or a changed amount) is a new booking.
        const transaction_uuid = await bookingUuid(storeKey, fingerprint, order, amount);
        const redirect_url =
          typeof kit.options.redirectUrl === 'function'
            ? kit.options.redirectUrl({ order, channel, transaction_uuid, amount, handoff })
            : kit.options.redirectUrl;
        const booked = await serviceCall(kit, 'book', () =>
          kit.client.book({
            amount,
            transaction_uuid,
            callback_url: kit.options.callbackUrl,
            redirect_url,
            // The kit's own property last: a merchant's `merchant_order` cannot rename the order at the service.
            properties: { ...details.properties, [ORDER_PROPERTY]: details.id },
          }),
        );
        const booking: StoredBooking = {
          booking_id: booked.booking_id,
          correlation_id: booked.correlation_id,
          deeplink: booked.deeplink,
          transaction_uuid,
          idempotency_key: storeKey,
          // What the order had paid now goes with it: its SUCCESS after those payments is a balance, no duplicate.
          fingerprint: storedFingerprint(fingerprint, paidPaise),
          channel,
          order,
          order_key: orderKey,
          amount,
          created_at: kit.now(),
        };
        // Saved and the lease let go in one step, only while this book still holds the order: the next
        // book of the order finds this booking, and a book that lost the order saves nothing.
        let saved: Awaited<ReturnType<typeof kit.store.insertBooking>>;
        try {
          saved = await kit.store.insertBooking({ booking, hold: lease.end() });
        } catch (error) {
          // Not known to be saved (the store missed its deadline, or is gone): the booking must not stay
          // open at the service with no record of it here. The shopper's retry books again.
          await cancelUnsaved(booking);
          throw error;
        }
        if (saved === 'saved') {
          made = true;
          return booking;
        }
        // The key went to another request at the same moment: for other content (a conflict), or for
        // this content on another instance, which booked the same service booking.
        const winner = await kit.store.getBookingByKey({ key: storeKey });
        if (winner?.booking_id === booking.booking_id || (winner && saved === 'taken')) return winner;
        if (saved === 'stale') {
          await cancelUnsaved(booking);
          if (winner) return winner;
          throw overtaken();
        }
        throw conflict();
      });
      return { booking: known(booking, fingerprint), made };
    }
  }

  /**
   * A booking the service made for a book that lost its order meanwhile: another instance took the order
   * over and may have booked it, so this one is cancelled and its deeplink never leaves the server.
   */
  async function cancelUnsaved(booking: StoredBooking): Promise<void> {
    try {
      await kit.client.cancel({ booking_id: booking.booking_id });
    } catch (error) {
      kit.report(
        new Error(`A booking made while this instance lost its order's lease (booking_id ${booking.booking_id}) could not be cancelled at the service; it was not handed to the shopper.`, { cause: error }),
        { route: 'book' },
      );
    }
  }

  /** The booking's `transaction_uuid`: the attempt's digest, and the order tag {@link orderTagOf} checks. */
  async function bookingUuid(key: string, fingerprint: string, order: OrderReference, amount: number): Promise<string> {
    const attempt = await transactionUuid(kit.options.productCode, key, `${fingerprint}\n${amount}`);
    const tag = await orderTag(kit, order, amount);
    return `${attempt.slice(0, 4 + ATTEMPT_CHARS)}${tag}`;
  }

  /**
   * One payable booking per order: an open booking made under another key is cancelled at the service
   * first. One the service says is already processed is asked about, and its result delivered; answers
   * what the ones found paid add to the order's payments, in paise.
   */
  async function closeOpenBookings(open: StoredBooking[], hold: LeaseHold, counted: StoredBooking | undefined): Promise<number> {
    let paid = 0;
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
        await delivery.deliver({ source, status, correlation_id: old.correlation_id, reference_code, ...bookingFacts(old) }, { hold }).catch((error: unknown) => {
          // A book that lost its order goes no further (see withOrderLock); the result is delivered by the next check.
          if (error instanceof LeaseLost) throw overtaken();
          if (!(error instanceof ResultBusy)) kit.report(error, { route: 'book' });
        });
      }
      // `counted`: the order's state already counts it as paid (its SUCCESS was being delivered).
      if (status === 'SUCCESS' && old.booking_id !== counted?.booking_id) paid += toPaise(old.amount);
    }
    return paid;
  }

  /**
   * Serializes the books of one order: in this process by a queue, across instances by a short fenced
   * lease in the store, renewed while the work runs, so a process that died holds the order for at most
   * {@link ORDER_LEASE_MS} (by the store's clock). A holder that stalls past its lease (paused, or its
   * renewals failing) while another instance takes the order over finds its token stale: the store
   * refuses what it writes under it. Answers the key's booking at once when it has one.
   */
  async function withOrderLock(key: string, orderKey: string, work: (state: OrderState, lease: OrderLease) => Promise<StoredBooking>): Promise<StoredBooking> {
    const previous = orderQueues.get(orderKey) ?? Promise.resolve(undefined);
    const run = previous.then(async (outage) => {
      // The book before this one met a store that is late or gone: so would this one, after waiting its
      // turn. Answered at once (IP-503), so books queued behind a locked table do not wait one deadline each.
      if (outage) throw outage;
      const name = `order:${orderKey}`;
      // The wait is counted in the time slept between tries, not read from `now()`: a handler's clock
      // that stands still (or jumps) must neither keep a book waiting for ever nor cut it short.
      let waited = 0;
      let state: OrderState;
      let hold: LeaseHold;
      for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
        const opening = await kit.store.beginBooking({ key, orderKey, lease: name, owner: kit.owner, leaseMs: ORDER_LEASE_MS });
        if (opening.status === 'booked') return opening.booking;
        if (opening.status === 'leased') {
          state = opening.order;
          hold = { lease: name, owner: kit.owner, token: opening.token };
          break;
        }
        if (waited >= orderWaitMs) throw new Refusal(CODES.UPSTREAM_TIMEOUT, 'Another payment of this order is being booked; try again.');
        const pause = wait * (0.5 + Math.random());
        await new Promise((resolve) => setTimeout(resolve, pause));
        waited += pause;
      }
      let held = true;
      let lost = false;
      const renewal = setInterval(() => {
        kit.store.renewLease({ ...hold, leaseMs: ORDER_LEASE_MS }).then(
          (renewed) => {
            if (!renewed && held) lost = true;
          },
          (error: unknown) => kit.report(error, { route: 'book' }),
        );
      }, ORDER_LEASE_MS / 4);
      const lease: OrderLease = {
        hold,
        check() {
          if (lost) throw overtaken();
        },
        end() {
          held = false;
          clearInterval(renewal);
          return hold;
        },
      };
      try {
        return await work(state, lease);
      } finally {
        clearInterval(renewal);
        if (held) await kit.store.releaseLease(hold).catch((error: unknown) => kit.report(error, { route: 'book' }));
      }
    });
    const settled = run.then(
      () => undefined,
      (error: unknown) => asStoreOutage(error),
    );
    orderQueues.set(orderKey, settled);
    void settled.then(() => {
      if (orderQueues.get(orderKey) === settled) orderQueues.delete(orderKey);
    });
    return run;
  }

  async function bookResult(booking: StoredBooking): Promise<BookResult> {
    const { booking_id, correlation_id, channel } = booking;
    const receipt = await receiptOf(kit, booking_id, correlation_id);
    if (channel === 'app') return { booking_id, correlation_id, channel, deeplink: booking.deeplink, receipt };
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
    return { booking_id, correlation_id, channel, web_payment, receipt };
  }

  return { book };
}

/** A positive number of rupees with at most two decimals (`0.29 * 100` is 28.999…: near enough). */
function isRupees(value: number): boolean {
  return Number.isFinite(value) && value > 0 && Math.abs(Math.round(value * 100) - value * 100) <= 1e-6;
}

/** Characters of the attempt's digest kept in a `transaction_uuid` (156 bits). */
const ATTEMPT_CHARS = 26;
/** Characters of the order tag (132 bits). */
const TAG_CHARS = 22;

/**
 * The tag a booking's `transaction_uuid` ends with: an HMAC, under the access key, of the order
 * reference the browser booked with and the amount (in paise, base 36, written after the tag). The
 * service hands the `transaction_uuid` back in a status check (`transaction_id`), so a booking this
 * server lost can be tied to the order the browser presents, and no one without the key can forge it.
 */
async function orderTag(kit: Kit, order: OrderReference, amount: number): Promise<string> {
  const paise = Math.round(amount * 100).toString(36);
  const mac = await signMessage(`order\n${kit.options.productCode}\n${JSON.stringify(canonical(order))}\n${paise}`, kit.options.accessKey);
  return `${base64url(mac).slice(0, TAG_CHARS)}${paise}`;
}

/**
 * The order and amount a lost booking was made for, when its `transaction_uuid` (the service's
 * `transaction_id`) carries the tag of `order` (as the browser presents it): `undefined` otherwise.
 */
export async function orderOfLostBooking(kit: Kit, transactionId: string, order: OrderReference | undefined): Promise<{ order: OrderReference; amount: number } | undefined> {
  if (!order || !transactionId.startsWith('wpb_') || transactionId.length <= 4 + ATTEMPT_CHARS + TAG_CHARS) return undefined;
  const paise = transactionId.slice(4 + ATTEMPT_CHARS + TAG_CHARS);
  if (!/^[0-9a-z]{1,12}$/.test(paise)) return undefined;
  const amount = parseInt(paise, 36) / 100;
  const expected = await orderTag(kit, order, amount);
  return expected === transactionId.slice(4 + ATTEMPT_CHARS) ? { order, amount } : undefined;
}

/** Standard base64 to the URL-safe alphabet without padding: the one conversion of this module. */
function base64url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The store's key of the order whose canonical id (`lookupOrder`'s `id`) is `id`: a fixed-size key (an id may be up to 256 characters, long for an index entry). */
export async function orderKeyOf(id: string): Promise<string> {
  return base64url(bytesToBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`order\n${id}`)))));
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function alreadyPaid(): Refusal {
  return new Refusal(CODES.ORDER_ALREADY_PAID, 'This order is already paid.');
}

/**
 * What a book that lost its order's lease answers: nothing of it was saved or handed out, and the key is
 * spent at the service (its booking cancelled), so the element retries with a new key, once, by itself.
 */
function overtaken(): Refusal {
  return new Refusal(
    CODES.IDEMPOTENCY_CONFLICT,
    `Another payment attempt of this order took it over while this one was being booked; send a new ${IDEMPOTENCY_HEADER} to try again.`,
  );
}

function conflict(): Refusal {
  return new Refusal(
    CODES.IDEMPOTENCY_CONFLICT,
    `This ${IDEMPOTENCY_HEADER} was already used for another order or channel; send a new key for a new payment attempt.`,
  );
}

/**
 * The merchant's attempt digest for an idempotency key and what it books (`content`: the handler
 * passes the channel, the order's canonical id and the amount). The same key for the same content
 * always gives the same id, so the service's own idempotency keeps a replay single even after this
 * server lost its memory; the same key for other content gives another id, so a key can never carry a
 * booking (paid or not) over to another order. A booking's `transaction_uuid` is its first 30
 * characters followed by the order tag.
 */
export async function transactionUuid(productCode: string, idempotencyKey: string, content: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${productCode}\n${idempotencyKey}\n${content}`)));
  return `wpb_${base64url(bytesToBase64(bytes))}`;
}
