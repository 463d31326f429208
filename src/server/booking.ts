/**
 * Booking and idempotency: one booking per `Idempotency-Key` and content, priced from the merchant's
 * own order, at most one payable booking per order. Its parts: `order-lookup.ts` (the order's price),
 * `order-lock.ts` (one book of an order at a time) and `order-tag.ts` (the merchant key, which signs the
 * booking's `transaction_uuid` and the element's answer).
 */
import { ALREADY_PROCESSED, CODES, IDEMPOTENCY_HEADER, isFinalStatus, type BookResult, type Channel, type OrderReference } from '../protocol/contract.js';
import { describeValue, isRecord } from '../protocol/values.js';
import { toPaise, toRupees } from './amounts.js';
import type { Kit } from './context.js';
import { bookingFacts, LeaseLost, ResultBusy, type Delivery } from './delivery-terms.js';
import { contentOf, storedFingerprint } from './fingerprint.js';
import { depthOf, parseObject, Refusal } from './http.js';
import { MAX_ORDER_DEPTH } from './limits.js';
import { createOrderLock, ORDER_LEASE_MS, overtaken, type OrderLease } from './order-lock.js';
import { alreadyPaid, payableOrder, type PayableOrder } from './order-lookup.js';
import { countedOpen, owedPaise, paidPaiseOf } from './order-paid.js';
import { orderKeyOf, type MerchantKey } from './order-tag.js';
import type { PaymentProvider } from './provider.js';
import type { Providers } from './provider-calls.js';
import type { LeaseHold, StoredBooking } from './store.js';
import type { PaymentHandlerOptions } from './types.js';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{16,128}$/;
/** The booking property that carries the order reference to the service and the provider's records. */
const ORDER_PROPERTY = 'merchant_order';

/** The booking half of the handler. */
export interface Booking {
  book(request: Request, text: string): Promise<BookResult>;
}

/** What a book needs of the handler's options. */
export interface BookingSettings {
  callbackUrl: string;
  redirectUrl: PaymentHandlerOptions['redirectUrl'];
  /** The service's `timeoutMs`: a book of the order waits at most as long as the longest book holds it. */
  serviceTimeoutMs: number;
}

/** One attempt's book: what the request asked and what the merchant's lookup priced. */
interface Attempt {
  fingerprint: string;
  /** The channel the browser asked for. */
  channel: Channel;
  /** The provider that books it, and the channel it books (`web` where the wallet has no app channel). */
  provider: PaymentProvider;
  booked: Channel;
  order: OrderReference;
  details: PayableOrder;
  handoff: boolean;
  orderKey: string;
}

export function createBooking(kit: Kit, settings: BookingSettings, delivery: Delivery): Booking {
  const inFlightBookings = new Map<string, { fingerprint: string; promise: Promise<StoredBooking> }>();
  // Cancel, status and book calls of `timeoutMs` each, and a margin.
  const withOrderLock = createOrderLock(kit, 3 * settings.serviceTimeoutMs + 5_000);

  async function book(request: Request, text: string): Promise<BookResult> {
    const { channel, order, handoff, key, wallet } = bookRequest(request, text);
    const { provider, channel: booked } = pickProvider(kit.providers, channel, wallet, handoff);
    // Every request runs the merchant's ownership check, a replay of a known key included: a leaked
    // key must not hand another session the booking's ids and signed form.
    const details = await payableOrder(kit, order, request);
    // The key's content is the merchant's own order, not the browser's spelling of it: `{"id":7}` and
    // `{"id":"7"}`, or `café-1` and `CAFÉ-1`, are one order when the lookup says so.
    const fingerprint = JSON.stringify([
      'v2',
      channel,
      details.id,
      ...(handoff ? ['handoff'] : []),
      // A wallet named by the browser is part of what the key books: the same key cannot switch wallets.
      ...(wallet === undefined ? [] : [`wallet:${wallet}`]),
    ]);
    const orderKey = await orderKeyOf(details.id);
    const flightKey = `${key}\n${details.amount}\n${details.balance ?? ''}`;
    let entry = inFlightBookings.get(flightKey);
    if (entry && entry.fingerprint !== fingerprint) throw conflict();
    if (!entry) {
      // Registered before any await, so a concurrent request with this key shares this promise.
      entry = { fingerprint, promise: bookOnce(key, { fingerprint, channel, provider, booked, order, details, handoff, orderKey }) };
      inFlightBookings.set(flightKey, entry);
      const forget = () => inFlightBookings.delete(flightKey);
      entry.promise.then(forget, forget);
    }
    return bookResult(kit, await entry.promise);
  }

  function known(booking: StoredBooking, fingerprint: string): StoredBooking {
    if (contentOf(booking.fingerprint) !== fingerprint) throw conflict();
    return booking;
  }

  async function bookOnce(key: string, attempt: Attempt): Promise<StoredBooking> {
    // A key names one attempt at one order. Its first booking is kept under the key; when the order's
    // total (or what is owed of it) changed since, the attempt books anew under `key~1`, `key~2`, ...
    // (the older booking, still open, is cancelled first as any other open booking). A replay answers
    // the attempt's latest booking when it is still the order's open one at the charge now: a key
    // priced back to an older amount books anew, never the booking cancelled when it was re-priced.
    const first = await bookUnder(key, attempt, undefined);
    if (first.made) return first.booking;
    let latest = first.booking;
    let n = 1;
    for (let next; (next = await kit.store.getBookingByKey({ key: `${key}~${n}` })); n++) latest = known(next, attempt.fingerprint);
    // At the whole total (nothing paid before it), the latest booking is the attempt's answer as it is.
    if (latest.amount === attempt.details.amount && attempt.details.balance === undefined) return latest;
    return (await bookUnder(`${key}~${n}`, attempt, latest)).booking;
  }

  /**
   * The booking of `storeKey`, made now if it has none; `latest`, the attempt's latest booking, is
   * answered instead when it is still open at what the order owes now.
   */
  async function bookUnder(storeKey: string, attempt: Attempt, latest: StoredBooking | undefined): Promise<{ booking: StoredBooking; made: boolean }> {
    let made = false;
    const booking = await withOrderLock(storeKey, attempt.orderKey, async (state, lease) => {
      const { details } = attempt;
      let paidPaise = paidPaiseOf(state);
      // Paid under another key, its result known (delivered or being delivered), for at least the
      // order's total now: refused without asking the service. A refund delivered since (REVERTED)
      // makes the order payable again; a payment below the total now leaves its balance to pay.
      if (owedPaise(details, paidPaise) <= 0) throw alreadyPaid();
      // A paid booking not settled yet (its delivery runs) is open and paid at once: never the answer, counted once.
      const counted = countedOpen(state);
      const payable = latest && !counted.has(latest.booking_id) && state.open.some((b) => b.booking_id === latest.booking_id);
      if (payable && toPaise(latest.amount) === owedPaise(details, paidPaise)) return latest;
      paidPaise += await closeOpenBookings(kit, delivery, state.open, lease.hold, counted);
      lease.check();
      const charge = owedPaise(details, paidPaise);
      if (charge <= 0) throw alreadyPaid();
      const saved = await bookNew(kit, settings, storeKey, attempt, toRupees(charge), paidPaise, lease);
      made = saved.made;
      return saved.booking;
    });
    return { booking: known(booking, attempt.fingerprint), made };
  }

  return { book };
}

/**
 * The provider that books the request: the first of the wallet (or of any wallet) with the channel, else
 * one of it that pays on the web. A hand-off needs the app channel.
 */
function pickProvider(providers: Providers, channel: Channel, wallet: string | undefined, handoff: boolean): { provider: PaymentProvider; channel: Channel } {
  const picked = providers.pick(channel, wallet);
  if (!picked) {
    const wallets = [...new Set(providers.list.map((provider) => provider.wallet))].join(', ');
    throw new Refusal(CODES.INVALID_REQUEST, `"wallet" names no wallet this shop takes; got ${describeValue(wallet)} (it takes: ${wallets}).`);
  }
  if (handoff && picked.channel !== 'app') {
    throw new Refusal(CODES.INVALID_REQUEST, `"handoff" needs a wallet app, and ${picked.provider.wallet} is paid on the web here: book the "web" channel.`);
  }
  return picked;
}

/** The book request's fields, checked. */
function bookRequest(request: Request, text: string): { channel: Channel; order: OrderReference; handoff: boolean; key: string; wallet: string | undefined } {
  const body = parseObject(text, ['channel', 'order'], ['handoff', 'wallet']);
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
  if (body.wallet !== undefined && (typeof body.wallet !== 'string' || !/^[a-z][a-z0-9-]{0,31}$/.test(body.wallet))) {
    throw new Refusal(CODES.INVALID_REQUEST, `"wallet" must be a wallet's name such as "esewa" or "khalti"; got ${describeValue(body.wallet)}.`);
  }
  const wallet = body.wallet as string | undefined;
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
  return { channel, order, handoff, key, wallet };
}

/** How much longer than its lease a book that gave up on its insert waits before it reads what was saved: clocks that run at slightly different rates. */
const LEASE_END_MARGIN_MS = 250;

/** Books `amount` at the service and saves it under `storeKey`, only while this book still holds the order. */
async function bookNew(kit: Kit, settings: BookingSettings, storeKey: string, attempt: Attempt, amount: number, paidPaise: number, lease: OrderLease): Promise<{ booking: StoredBooking; made: boolean }> {
  const { fingerprint, channel, order, details, handoff, provider, booked } = attempt;
  if (toPaise(amount) < toPaise(provider.capabilities.minAmount)) {
    kit.report(new Error(`An order of Rs ${amount} was not booked with ${provider.name}: it takes at least Rs ${provider.capabilities.minAmount}.`), { route: 'book', wallet: provider.wallet, provider: provider.name });
    throw new Refusal(CODES.UNKNOWN_ORDER, `This order cannot be paid with ${provider.wallet}: it takes at least Rs ${provider.capabilities.minAmount}.`);
  }
  // The attempt's key, what it books AND the fencing token this book holds the order under: the
  // service hands a repeated reference's booking back, and the booking of a book that gave up on its
  // insert was cancelled, so any later book of the key (on this instance or another) must send a new
  // reference. Every store hands tokens from one counter that never repeats, so a replay of the key
  // after the store forgot it books anew too: a page sends a key again only while it holds no booking
  // of it (the answer never reached it), so nobody holds the earlier booking's link, and it expires at
  // the service unpaid.
  const transaction_uuid = await kit.key.bookingUuid(storeKey, fingerprint, order, amount, lease.hold.token);
  const { redirectUrl } = settings;
  const redirect_url = typeof redirectUrl === 'function' ? redirectUrl({ order, channel, transaction_uuid, amount, handoff }) : redirectUrl;
  const made = await kit.providers.book(provider, {
    amount,
    reference: transaction_uuid,
    channel: booked,
    callbackUrl: settings.callbackUrl,
    returnUrl: redirect_url,
    orderId: details.id,
    // The kit's own property last: a merchant's `merchant_order` cannot rename the order at the service.
    properties: { ...details.properties, [ORDER_PROPERTY]: details.id },
  });
  const booking: StoredBooking = {
    booking_id: made.booking_id,
    correlation_id: made.correlation_id,
    deeplink: made.deeplink ?? '',
    provider: provider.name,
    provider_data: made.data ?? '',
    transaction_uuid,
    idempotency_key: storeKey,
    // What the order had paid now goes with it: its SUCCESS after those payments is a balance, no duplicate.
    fingerprint: storedFingerprint(fingerprint, paidPaise),
    channel: booked,
    order,
    order_key: attempt.orderKey,
    amount,
    created_at: kit.now(),
  };
  // Saved and the lease let go in one step, only while this book still holds the order: the next
  // book of the order finds this booking, and a book that lost the order saves nothing.
  let saved: Awaited<ReturnType<typeof kit.store.insertBooking>>;
  const sentAt = performance.now();
  try {
    saved = await kit.store.insertBooking({ booking, hold: lease.end() });
  } catch (error) {
    // Not known to be saved (the store missed its deadline, or is gone), and the write may still be on
    // its way. The store saves it only while its hold's lease lasts, which nothing renews now: once the
    // lease has ended, a write still on its way is refused, and what was saved by then can be read. Saved:
    // the shopper gets it. Not: it is cancelled at the service, so it never stays open there with no
    // record of it here, and the shopper's retry books anew (under a new token, so a new reference).
    const leaseLeft = ORDER_LEASE_MS + LEASE_END_MARGIN_MS - (performance.now() - sentAt);
    if (leaseLeft > 0) await new Promise((resolve) => setTimeout(resolve, leaseLeft));
    const stored = await kit.store.getBookingByKey({ key: storeKey }).catch(() => undefined);
    if (stored?.booking_id === booking.booking_id) return { booking: stored, made: true };
    await cancelUnsaved(kit, booking);
    throw error;
  }
  if (saved === 'saved') return { booking, made: true };
  // The key went to another request at the same moment (for other content, a conflict, or for this
  // content on another instance, which booked under a token of its own), or another instance took the
  // order over: the key's booking, if any, is the answer. This book's own booking (a reference no
  // other book sends) is handed to nobody, so it is cancelled; unless the store saved it after all
  // (a write tried again after its first try landed).
  const winner = await kit.store.getBookingByKey({ key: storeKey });
  if (winner?.booking_id === booking.booking_id) return { booking: winner, made: false };
  await cancelUnsaved(kit, booking);
  if (winner) return { booking: winner, made: false };
  throw saved === 'stale' ? overtaken() : conflict();
}

/**
 * A booking the service made for a book that hands it to nobody (it lost its order or its key
 * meanwhile, or its insert failed): cancelled, so no booking stays open there that the kit does not know.
 */
async function cancelUnsaved(kit: Kit, booking: StoredBooking): Promise<void> {
  try {
    const provider = kit.providers.of(booking);
    // A provider without cancel: its payment page never left this server, so nobody can pay it.
    if (!provider.cancel || !provider.capabilities.cancel) return;
    await provider.cancel(booking);
  } catch (error) {
    kit.report(
      new Error(`A booking this instance did not save (booking_id ${booking.booking_id}: its order or key was taken, or the store failed) could not be cancelled at the service; it was not handed to the shopper.`, { cause: error }),
      { route: 'book' },
    );
  }
}

/**
 * One payable booking per order: an open booking made under another key is cancelled at the service
 * first. One the service says is already processed is asked about, and its result delivered; answers
 * what the ones found paid add to the order's payments, in paise.
 */
async function closeOpenBookings(
  kit: Kit,
  delivery: Delivery,
  open: StoredBooking[],
  hold: LeaseHold,
  counted: ReadonlySet<string>,
): Promise<number> {
  let paid = 0;
  for (const old of open) {
    let answer;
    let source: 'cancel' | 'status' = 'cancel';
    try {
      answer = await kit.providers.cancel(old, 'book');
    } catch (error) {
      if (error instanceof Refusal && error.code === CODES.UNKNOWN_BOOKING) continue;
      if (!(error instanceof Refusal && error.code === ALREADY_PROCESSED)) throw error;
    }
    if (!answer) {
      // Already processed, or a provider without cancel: asked instead. An open one of the latter is
      // superseded (the new booking is the order's payable one) and checked by reconcile until it
      // expires; a payment of it after all is delivered as what it is (a second payment is loud).
      answer = await kit.providers.status(old, 'book');
      source = 'status';
    }
    const { status, reference_code } = answer;
    if (isFinalStatus(status)) {
      await delivery.deliver({ source, status, correlation_id: old.correlation_id, reference_code, ...bookingFacts(old) }, { hold }).catch((error: unknown) => {
        // A book that lost its order goes no further (see withOrderLock); the result is delivered by the next check.
        if (error instanceof LeaseLost) throw overtaken();
        if (!(error instanceof ResultBusy)) kit.report(error, { route: 'book' });
      });
    }
    // `counted`: the order's state already counts it as paid (its SUCCESS was being delivered).
    if (status === 'SUCCESS' && !counted.has(old.booking_id)) paid += toPaise(old.amount);
  }
  return paid;
}

function conflict(): Refusal {
  return new Refusal(
    CODES.IDEMPOTENCY_CONFLICT,
    `This ${IDEMPOTENCY_HEADER} was already used for another order or channel; send a new key for a new payment attempt.`,
  );
}

/**
 * The element's answer for a booking: its ids, receipt and wallet, with what its provider says the
 * browser follows (the deeplink of an app booking, or the web payment).
 */
async function bookResult({ key, providers }: { key: MerchantKey; providers: Providers }, booking: StoredBooking): Promise<BookResult> {
  const { booking_id, correlation_id, channel } = booking;
  const provider = providers.of(booking);
  const [receipt, payment] = await Promise.all([key.receiptOf(booking_id, correlation_id), provider.payment(booking)]);
  const wallet = provider.wallet;
  if ('deeplink' in payment) return { booking_id, correlation_id, channel, wallet, deeplink: payment.deeplink, receipt };
  return { booking_id, correlation_id, channel, wallet, web_payment: payment.web_payment, receipt };
}
