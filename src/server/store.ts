/**
 * What the payment handler remembers between requests: idempotency keys, the bookings it made, and
 * which final results it has handed to the merchant. The in-memory default suits one process; a
 * merchant with several processes passes a store backed by a shared database.
 */
import { FINAL_STATUSES as FINAL, type Channel, type OrderReference, type PaymentStatus } from '../protocol/contract.js';

/** A booking the handler made. */
export interface StoredBooking {
  booking_id: string;
  correlation_id: string;
  transaction_uuid: string;
  channel: Channel;
  order: OrderReference;
  /** The amount booked, from the merchant's order. */
  amount: number;
  deeplink: string;
  /** Milliseconds since the epoch. */
  created_at: number;
}

/** What an `Idempotency-Key` was first used for. */
export interface IdempotencyRecord {
  /** Identifies the request's content (channel and order): the same key with other content is refused. */
  fingerprint: string;
  booking_id: string;
}

/**
 * Storage used by `createPaymentHandler`. Every method may be asynchronous. Records may expire; an
 * expired idempotency record only means a late replay of the key for the same order and amount books
 * again under the same derived `transaction_uuid`, which the service answers with the same booking. The
 * key sent with another order derives another `transaction_uuid`, so it books anew and never gets the
 * first order's booking.
 */
export interface PaymentStore {
  getIdempotencyRecord(key: string): Promise<IdempotencyRecord | undefined>;
  saveIdempotencyRecord(key: string, record: IdempotencyRecord): Promise<void>;
  getBooking(bookingId: string): Promise<StoredBooking | undefined>;
  /** Callbacks name the booking only by its correlation id. */
  findBookingByCorrelationId(correlationId: string): Promise<StoredBooking | undefined>;
  saveBooking(booking: StoredBooking): Promise<void>;
  /**
   * Whether `onPaymentResult` already succeeded for this booking (by correlation id) and status. Keyed
   * by status too, so a refund (`REVERTED`) after a `SUCCESS` still reaches the merchant.
   */
  isResultDelivered(correlationId: string, status: PaymentStatus): Promise<boolean>;
  markResultDelivered(correlationId: string, status: PaymentStatus): Promise<void>;
  /**
   * The bookings made at or before `createdBefore` (ms since the epoch) that have no final result delivered
   * yet: what `reconcile()` asks the service about. Optional; without it `reconcile()` refuses to run.
   */
  listOpenBookings?(createdBefore: number): Promise<StoredBooking[]>;
}

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Most entries kept per kind (keys, bookings, delivered results); the oldest go first. Default 10 000. */
  maxEntries?: number;
  /** How long an entry is kept. Default 24 hours. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * A bounded in-memory {@link PaymentStore}: at most `maxEntries` per kind, each kept `ttlMs`.
 * Its content is lost on restart; the derived `transaction_uuid` still keeps a replayed booking single.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): PaymentStore {
  const maxEntries = options.maxEntries ?? 10_000;
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const now = options.now ?? Date.now;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError('maxEntries must be a positive integer.');
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new TypeError('ttlMs must be a positive number.');

  const keys = new BoundedMap<IdempotencyRecord>(maxEntries, ttlMs, now);
  const bookings = new BoundedMap<StoredBooking>(maxEntries, ttlMs, now);
  const byCorrelation = new BoundedMap<string>(maxEntries, ttlMs, now);
  const delivered = new BoundedMap<PaymentStatus>(maxEntries, ttlMs, now);

  return {
    async getIdempotencyRecord(key) {
      return keys.get(key);
    },
    async saveIdempotencyRecord(key, record) {
      keys.set(key, { ...record });
    },
    async getBooking(bookingId) {
      const booking = bookings.get(bookingId);
      return booking && { ...booking };
    },
    async findBookingByCorrelationId(correlationId) {
      const id = byCorrelation.get(correlationId);
      const booking = id === undefined ? undefined : bookings.get(id);
      return booking && { ...booking };
    },
    async saveBooking(booking) {
      bookings.set(booking.booking_id, { ...booking });
      byCorrelation.set(booking.correlation_id, booking.booking_id);
    },
    async isResultDelivered(correlationId, status) {
      return delivered.get(`${correlationId}\n${status}`) !== undefined;
    },
    async listOpenBookings(createdBefore) {
      const open: StoredBooking[] = [];
      for (const booking of bookings.values()) {
        const settled = FINAL.some((status) => delivered.get(`${booking.correlation_id}\n${status}`) !== undefined);
        if (booking.created_at <= createdBefore && !settled) open.push({ ...booking });
      }
      return open;
    },
    async markResultDelivered(correlationId, status) {
      delivered.set(`${correlationId}\n${status}`, status);
    },
  };
}

/** A Map that forgets entries after `ttlMs` and drops the oldest beyond `max`. */
class BoundedMap<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key); // re-insert at the end, so insertion order stays expiry order
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    const time = this.now();
    // Every entry lives the same ttl, so the oldest inserted expire first: prune from the front.
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size > this.max || entry.expires <= time) this.entries.delete(oldest);
      else break;
    }
  }

  /** The live values, oldest first. */
  *values(): IterableIterator<V> {
    const time = this.now();
    for (const entry of this.entries.values()) if (entry.expires > time) yield entry.value;
  }

  get size(): number {
    return this.entries.size;
  }
}
