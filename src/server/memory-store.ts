/**
 * The in-memory {@link PaymentStore}: the rules of the contract inside one process, for tests, demos
 * and one development server.
 */
import type { PaymentStore, StoredBooking } from './store.js';

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
