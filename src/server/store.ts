/**
 * What the payment handler remembers between requests, and the rules that keep a payment single
 * when several processes share it: the bookings it made (one per `Idempotency-Key`), leases that
 * serialize the books of one order, claims that hand each final result to the merchant once, and
 * claims that let one instance at a time check an open booking.
 *
 * The in-memory store below keeps these rules inside one process and is meant for tests, demos and a
 * single development server; production with several processes (or restarts) uses the PostgreSQL
 * store from `wallet-pay-button/server/postgres`.
 */
import type { Channel, OrderReference, PaymentStatus } from '../protocol/contract.js';

/** A booking the handler made. */
export interface StoredBooking {
  booking_id: string;
  correlation_id: string;
  transaction_uuid: string;
  /** The `Idempotency-Key` it was made for: unique across the store. */
  idempotency_key: string;
  /** The key's content (channel and canonical order): the same key with other content is refused. */
  fingerprint: string;
  channel: Channel;
  order: OrderReference;
  /** The order in canonical JSON: what "one payable booking per order" groups by. */
  order_key: string;
  /** The amount booked, from the merchant's order. */
  amount: number;
  deeplink: string;
  /** Milliseconds since the epoch. */
  created_at: number;
}

/** What {@link PaymentStore.getOrderState} answers about one order, read at one moment. */
export interface OrderState {
  /** The order's bookings that are not settled (no final result delivered), oldest first. */
  open: StoredBooking[];
  /**
   * A booking of the order that is paid: a `SUCCESS` result of it is known (claimed for delivery or
   * delivered), and no `REVERTED` result of it (a refund) has been delivered. `undefined` when none is.
   */
  paid: StoredBooking | undefined;
}

/** The outcome of {@link PaymentStore.claimResult}. */
export type ResultClaim = 'claimed' | 'delivered' | 'busy';

/** What {@link PaymentStore.claimOpenBookings} claims. */
export interface OpenBookingClaim {
  /** Only bookings made at or before this time (ms since the epoch). */
  createdBefore: number;
  /** Only bookings no check claimed since this time: once per pass, and not again soon after another instance checked them. */
  notCheckedSince: number;
  /** At most this many. */
  limit: number;
  owner: string;
  now: number;
  /** The claim's lease ends here (ms since the epoch); another instance may check the booking after it. */
  until: number;
}

/**
 * Storage used by `createPaymentHandler`. Every method is asynchronous and must be atomic on its own:
 * the rules below hold across every process that shares the store. Times are milliseconds since the
 * epoch from the caller's clock (instances sharing a store keep their clocks in step, e.g. by NTP).
 *
 * - **One booking per key**: {@link insertBooking} relies on a unique key, never on a read before it.
 * - **One payable booking per order**: {@link getOrderState} answers, in one read, the order's open
 *   bookings and whether it is already paid (a known `SUCCESS` not followed by a delivered refund), so
 *   a book cannot miss a payment whose result was delivered between two reads.
 * - **Leases** ({@link acquireLease}): a named lock with an end time. The handler holds `order:{order_key}`
 *   while it books an order, so books for one order are serialized across instances; a holder that died
 *   loses the lease when it ends.
 * - **Result claims** ({@link claimResult}): before `onPaymentResult` is called for a booking and final
 *   status, the handler claims it; {@link completeResult} marks it delivered (and the booking settled),
 *   {@link releaseResult} gives it back when the hook threw. A claim whose lease ended (its process died
 *   inside the hook) may be claimed again: delivery is once when the hook succeeds, at least once when
 *   a process dies inside it.
 * - **Check claims** ({@link claimOpenBookings}): `reconcile()` claims the open bookings it asks the
 *   service about, so each is checked by one instance at a time.
 * - **Retention**: {@link prune} drops what was made before a time.
 */
export interface PaymentStore {
  /** The booking made for `key`, if any. */
  getBookingByKey(key: string): Promise<StoredBooking | undefined>;
  /** Saves a new booking; `false` (nothing saved) when its `idempotency_key` already has one. */
  insertBooking(booking: StoredBooking): Promise<boolean>;
  getBooking(bookingId: string): Promise<StoredBooking | undefined>;
  /** Callbacks name the booking only by its correlation id. */
  findBookingByCorrelationId(correlationId: string): Promise<StoredBooking | undefined>;
  /** The order's open bookings and its paid booking, if any (see {@link OrderState}), by an index. */
  getOrderState(orderKey: string): Promise<OrderState>;
  /** Takes the lease `name` for `owner` until `until` when it is free, ended at `now`, or already `owner`'s. */
  acquireLease(name: string, owner: string, now: number, until: number): Promise<boolean>;
  /** Ends `owner`'s lease `name` (nothing when another holds it). */
  releaseLease(name: string, owner: string): Promise<void>;
  /**
   * Claims the delivery of one final result (booking by correlation id, and status: a refund after a
   * success is a new result): `claimed` when it was neither delivered nor claimed under a live lease,
   * `delivered` when it was delivered, `busy` when another holds a live claim.
   */
  claimResult(correlationId: string, status: PaymentStatus, owner: string, now: number, until: number): Promise<ResultClaim>;
  /** Marks a claimed result delivered; a final status settles the booking (it leaves the open lists). */
  completeResult(correlationId: string, status: PaymentStatus, owner: string, now: number): Promise<void>;
  /** Gives a claimed result back (the hook threw), so the next status check, callback or pass retries. */
  releaseResult(correlationId: string, status: PaymentStatus, owner: string): Promise<void>;
  /** Claims open bookings for a status check (see {@link OpenBookingClaim}), oldest first, by an index. */
  claimOpenBookings(claim: OpenBookingClaim): Promise<StoredBooking[]>;
  /** Ends a check claim early, once the check is done. */
  releaseCheck(bookingId: string, owner: string): Promise<void>;
  /** Drops bookings (with their keys), results and ended leases made before `before`; returns how many bookings. */
  prune(before: number): Promise<number>;
}

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Most bookings kept; the oldest go first (a bound against floods). Default 10 000. */
  maxEntries?: number;
}

/** Marks stores whose content dies with the process, so the handler can warn in production. */
export const IN_MEMORY = Symbol.for('wallet-pay-button.in-memory-store');

interface ResultRow {
  owner: string;
  until: number;
  delivered: boolean;
}

/**
 * An in-memory {@link PaymentStore} with the same rules as the PostgreSQL store, inside one process:
 * for tests, demos and one development server. Its content is lost on restart (the derived
 * `transaction_uuid` still keeps a replayed booking single at the service); at most `maxEntries`
 * bookings are kept. The handler warns once when it runs with it and `NODE_ENV=production`.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): PaymentStore {
  const maxEntries = options.maxEntries ?? 10_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError('maxEntries must be a positive integer.');

  // Insertion order is creation order: the first entries are the oldest.
  const bookings = new Map<string, StoredBooking & { settled: boolean; checkOwner?: string; checkUntil: number; checkedAt: number }>();
  const byKey = new Map<string, string>();
  const byCorrelation = new Map<string, string>();
  const results = new Map<string, ResultRow>();
  const leases = new Map<string, { owner: string; until: number }>();
  const copy = (booking: StoredBooking | undefined): StoredBooking | undefined => {
    if (!booking) return undefined;
    const { booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order, order_key, amount, deeplink, created_at } = booking;
    return { booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order: structuredClone(order), order_key, amount, deeplink, created_at };
  };
  const drop = (bookingId: string) => {
    const booking = bookings.get(bookingId);
    if (!booking) return;
    bookings.delete(bookingId);
    byKey.delete(booking.idempotency_key);
    byCorrelation.delete(booking.correlation_id);
  };

  const store: PaymentStore & { [IN_MEMORY]: true } = {
    [IN_MEMORY]: true,
    async getBookingByKey(key) {
      const id = byKey.get(key);
      return copy(id === undefined ? undefined : bookings.get(id));
    },
    async insertBooking(booking) {
      if (byKey.has(booking.idempotency_key)) return false;
      bookings.set(booking.booking_id, { ...copy(booking)!, settled: false, checkUntil: 0, checkedAt: 0 });
      byKey.set(booking.idempotency_key, booking.booking_id);
      byCorrelation.set(booking.correlation_id, booking.booking_id);
      while (bookings.size > maxEntries) drop(bookings.keys().next().value as string);
      return true;
    },
    async getBooking(bookingId) {
      return copy(bookings.get(bookingId));
    },
    async findBookingByCorrelationId(correlationId) {
      const id = byCorrelation.get(correlationId);
      return copy(id === undefined ? undefined : bookings.get(id));
    },
    async getOrderState(orderKey) {
      const ofOrder = [...bookings.values()].filter((b) => b.order_key === orderKey);
      const paid = ofOrder.find(
        (b) => results.has(`${b.correlation_id}\nSUCCESS`) && !results.get(`${b.correlation_id}\nREVERTED`)?.delivered,
      );
      return { open: ofOrder.filter((b) => !b.settled).map((b) => copy(b)!), paid: copy(paid) };
    },
    async acquireLease(name, owner, now, until) {
      const held = leases.get(name);
      if (held && held.owner !== owner && held.until >= now) return false;
      leases.set(name, { owner, until });
      return true;
    },
    async releaseLease(name, owner) {
      if (leases.get(name)?.owner === owner) leases.delete(name);
    },
    async claimResult(correlationId, status, owner, now, until) {
      const id = `${correlationId}\n${status}`;
      const row = results.get(id);
      if (row?.delivered) return 'delivered';
      if (row && row.owner !== owner && row.until >= now) return 'busy';
      results.set(id, { owner, until, delivered: false });
      return 'claimed';
    },
    async completeResult(correlationId, status, owner) {
      const row = results.get(`${correlationId}\n${status}`);
      if (!row || row.owner !== owner) return;
      row.delivered = true;
      if (status !== 'BOOKED' && status !== 'PENDING') {
        const id = byCorrelation.get(correlationId);
        const booking = id === undefined ? undefined : bookings.get(id);
        if (booking) booking.settled = true;
      }
    },
    async releaseResult(correlationId, status, owner) {
      const id = `${correlationId}\n${status}`;
      const row = results.get(id);
      if (row && !row.delivered && row.owner === owner) results.delete(id);
    },
    async claimOpenBookings({ createdBefore, notCheckedSince, limit, owner, now, until }) {
      const claimed: StoredBooking[] = [];
      for (const booking of bookings.values()) {
        if (claimed.length >= limit) break;
        if (booking.settled || booking.created_at > createdBefore) continue;
        if (booking.checkUntil >= now || booking.checkedAt >= notCheckedSince) continue;
        Object.assign(booking, { checkOwner: owner, checkUntil: until, checkedAt: now });
        claimed.push(copy(booking)!);
      }
      return claimed;
    },
    async releaseCheck(bookingId, owner) {
      const booking = bookings.get(bookingId);
      if (booking?.checkOwner === owner) booking.checkUntil = 0;
    },
    async prune(before) {
      let dropped = 0;
      for (const booking of [...bookings.values()]) {
        if (booking.created_at >= before) break;
        drop(booking.booking_id);
        dropped++;
        for (const status of ['SUCCESS', 'FAILED', 'CANCELED', 'REVERTED']) results.delete(`${booking.correlation_id}\n${status}`);
      }
      for (const [name, lease] of leases) if (lease.until < before) leases.delete(name);
      return dropped;
    },
  };
  return store;
}
