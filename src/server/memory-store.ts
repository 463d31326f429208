/**
 * The in-memory {@link PaymentStore}: the rules of the contract inside one process, for tests, demos
 * and one development server.
 */
import type { PaymentStatus } from '../protocol/contract.js';
import type { KnownResult, LeaseHold, OrderState, PaymentStore, ResultClaim, StoredBooking } from './store.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Most bookings kept; the oldest go first (a bound against floods). Default 10 000. */
  maxEntries?: number;
  /**
   * The store's clock (ms since the epoch), which starts and ends every lease and claim: the handlers
   * sharing this store agree on it whatever their own `now`. Default `Date.now`.
   */
  now?: () => number;
}

/** Marks stores whose content dies with the process, so the handler can warn in production. */
export const IN_MEMORY = Symbol.for('wallet-pay-button.in-memory-store');

interface ResultRow {
  /** When it was first claimed (ms since the epoch). */
  created: number;
  owner: string;
  until: number;
  delivered: boolean;
}

/**
 * An in-memory {@link PaymentStore} with the same rules as the PostgreSQL store, inside one process:
 * for tests, demos and one development server. Its content is lost on restart (the derived
 * `transaction_uuid` still keeps a replayed booking single at the service); at most `maxEntries`
 * bookings are kept, and the results of a booking go with it (results of bookings this store does
 * not know, from callbacks, are bounded by `maxEntries` as well). The handler warns once when it runs
 * with it and `NODE_ENV=production`.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): PaymentStore {
  const maxEntries = options.maxEntries ?? 10_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError('maxEntries must be a positive integer.');
  const clock = options.now ?? Date.now;
  if (typeof clock !== 'function') throw new TypeError('now must be a function returning milliseconds since the epoch.');
  const now = (): number => {
    const value = clock();
    if (!Number.isFinite(value)) throw new TypeError(`The memory store's now() returned ${String(value)}; it must return milliseconds since the epoch.`);
    return value;
  };
  const state = memoryState(maxEntries, now);
  const store: PaymentStore & { [IN_MEMORY]: true } = { [IN_MEMORY]: true, ...bookingMethods(state), ...resultMethods(state) };
  return store;
}

/** The store's maps and the rules that keep them consistent. */
function memoryState(maxEntries: number, now: () => number) {
  // Fencing tokens come from one counter, so a lease ended and taken again never hands out a token twice.
  // It starts at the wall clock in microseconds, not 0: a book's service reference is derived from its
  // token, so a store made again (a restart) must not hand out the tokens of the one before it (unless
  // that one handed out over a thousand per millisecond it lived).
  const tokens = { last: Date.now() * 1_000 };

  // Insertion order is creation order: the first entries are the oldest.
  const bookings = new Map<string, StoredBooking & { settled: boolean; checkOwner?: string; checkUntil: number; checkedAt: number }>();
  // The bookings whose last final result delivered is a CANCELED, with when it was marked, oldest first:
  // reconcile asks about them again for a while, so a payment that lands after the cancel is found.
  const canceled = new Map<string, number>();
  const byKey = new Map<string, string>();
  const byCorrelation = new Map<string, string>();
  // The bookings of each order a book reads: the open ones and those with a SUCCESS. A booking settled
  // without one leaves, so a book costs the same however many attempts the order had before.
  const byOrder = new Map<string, Set<string>>();
  // Results by correlation id, then status: a booking's results leave with it.
  const results = new Map<string, Map<PaymentStatus, ResultRow>>();
  // Correlation ids with results but no booking here (callbacks of pruned or unknown bookings), oldest first.
  const orphans = new Set<string>();
  const leases = new Map<string, { owner: string; token: number; until: number }>();
  const copy = (booking: StoredBooking | undefined): StoredBooking | undefined => {
    if (!booking) return undefined;
    const { booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order, order_key, amount, deeplink, provider, provider_data, created_at } = booking;
    return { booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order: structuredClone(order), order_key, amount, deeplink, provider, provider_data, created_at };
  };
  const drop = (bookingId: string) => {
    const booking = bookings.get(bookingId);
    if (!booking) return;
    bookings.delete(bookingId);
    canceled.delete(bookingId);
    byKey.delete(booking.idempotency_key);
    byCorrelation.delete(booking.correlation_id);
    const ofOrder = byOrder.get(booking.order_key);
    ofOrder?.delete(bookingId);
    if (ofOrder?.size === 0) byOrder.delete(booking.order_key);
    results.delete(booking.correlation_id);
  };
  const result = (correlationId: string, status: PaymentStatus) => results.get(correlationId)?.get(status);
  /** Keeps the booking of `correlationId` among its order's when it is open or has a SUCCESS, else drops it from there. */
  const track = (correlationId: string) => {
    const id = byCorrelation.get(correlationId);
    const booking = id === undefined ? undefined : bookings.get(id);
    if (!booking) return;
    const ofOrder = byOrder.get(booking.order_key) ?? new Set<string>();
    if (!booking.settled || result(correlationId, 'SUCCESS')) {
      byOrder.set(booking.order_key, ofOrder.add(booking.booking_id));
    } else {
      ofOrder.delete(booking.booking_id);
      if (ofOrder.size === 0) byOrder.delete(booking.order_key);
    }
  };
  const setResult = (correlationId: string, status: PaymentStatus, row: ResultRow) => {
    let rows = results.get(correlationId);
    if (!rows) {
      rows = new Map();
      results.set(correlationId, rows);
      if (!byCorrelation.has(correlationId)) {
        orphans.add(correlationId);
        for (const oldest of orphans) {
          if (orphans.size <= maxEntries) break;
          orphans.delete(oldest);
          results.delete(oldest);
        }
      }
    }
    rows.set(status, row);
  };
  const deleteResult = (correlationId: string, status: PaymentStatus) => {
    const rows = results.get(correlationId);
    rows?.delete(status);
    if (rows?.size === 0) {
      results.delete(correlationId);
      orphans.delete(correlationId);
    }
  };
  const orderState = (orderKey: string): OrderState => {
    const ofOrder = [...(byOrder.get(orderKey) ?? [])].map((id) => bookings.get(id)!);
    const paid = ofOrder.filter((b) => result(b.correlation_id, 'SUCCESS') && !result(b.correlation_id, 'REVERTED')?.delivered);
    const paidAmount = paid.reduce((sum, b) => sum + Math.round(b.amount * 100), 0) / 100;
    // A paid booking still being delivered is `paid` before a settled one; `paidAmount` counts every
    // paid one, and `paidOpen` names those the book must not count again.
    const paidOpen = paid.filter((b) => !b.settled);
    return { open: ofOrder.filter((b) => !b.settled).map((b) => copy(b)!), paid: copy(paidOpen[0] ?? paid[0]), paidAmount, paidOpen: paidOpen.map((b) => b.booking_id) };
  };
  /** Takes the lease when it is free, ended, or `owner`'s, under a new token; `undefined` when another holds it. */
  const takeLease = (name: string, owner: string, leaseMs: number): number | undefined => {
    const at = now();
    const held = leases.get(name);
    if (held && held.owner !== owner && held.until >= at) return undefined;
    const token = ++tokens.last;
    leases.set(name, { owner, token, until: at + leaseMs });
    return token;
  };
  /** The hold's lease, while the hold is its current one and it has not ended: an ended lease is revived by nothing. */
  const current = (hold: LeaseHold) => {
    const held = leases.get(hold.lease);
    return held !== undefined && held.owner === hold.owner && held.token === hold.token && held.until >= now() ? held : undefined;
  };

  return { now, maxEntries, bookings, canceled, byKey, byCorrelation, byOrder, results, orphans, leases, copy, drop, result, track, setResult, deleteResult, orderState, takeLease, current };
}

type MemoryState = ReturnType<typeof memoryState>;

/** The methods of bookings and leases. */
function bookingMethods(state: MemoryState): Omit<PaymentStore, ResultMethods> {
  const { now, maxEntries, bookings, byKey, byCorrelation, byOrder, results, orphans, leases, copy, drop, orderState, takeLease, current } = state;
  return {
  async getBookingByKey({ key }) {
    const id = byKey.get(key);
    return copy(id === undefined ? undefined : bookings.get(id));
  },
  async findBookingByCorrelationId({ correlationId }) {
    const id = byCorrelation.get(correlationId);
    return copy(id === undefined ? undefined : bookings.get(id));
  },
  async getBookingState({ bookingId }) {
    const booking = bookings.get(bookingId);
    if (!booking) return undefined;
    const delivered = [...(results.get(booking.correlation_id) ?? [])].filter(([, row]) => row.delivered).map(([status]) => status);
    return { booking: copy(booking)!, delivered };
  },
  async getOrderState({ orderKey }) {
    return orderState(orderKey);
  },
  async beginBooking({ key, orderKey, lease, owner, leaseMs }) {
    const id = byKey.get(key);
    if (id !== undefined) return { status: 'booked', booking: copy(bookings.get(id))! };
    const token = takeLease(lease, owner, leaseMs);
    if (token === undefined) return { status: 'busy' };
    return { status: 'leased', token, order: orderState(orderKey) };
  },
  async acquireLease({ lease, owner, leaseMs }) {
    return takeLease(lease, owner, leaseMs);
  },
  async renewLease({ leaseMs, ...hold }) {
    const held = current(hold);
    if (!held) return false;
    held.until = now() + leaseMs;
    return true;
  },
  async releaseLease(hold) {
    const held = leases.get(hold.lease);
    if (held?.owner === hold.owner && held.token === hold.token) leases.delete(hold.lease);
  },
  async insertBooking({ booking, hold }) {
    const fresh = hold === undefined || current(hold) !== undefined;
    if (hold && fresh) leases.delete(hold.lease);
    if (byKey.has(booking.idempotency_key)) return 'taken';
    if (!fresh) return 'stale';
    // Its creation by this store's clock, as every lease: reconcile's age of it then agrees across instances.
    bookings.set(booking.booking_id, { ...copy(booking)!, created_at: now(), settled: false, checkUntil: 0, checkedAt: 0 });
    byKey.set(booking.idempotency_key, booking.booking_id);
    byCorrelation.set(booking.correlation_id, booking.booking_id);
    byOrder.set(booking.order_key, (byOrder.get(booking.order_key) ?? new Set()).add(booking.booking_id));
    orphans.delete(booking.correlation_id);
    while (bookings.size > maxEntries) drop(bookings.keys().next().value as string);
    return 'saved';
  },
  };
}

/** The contract's methods that `resultMethods` makes. */
type ResultMethods = 'claimResult' | 'completeResult' | 'releaseResult' | 'getResults' | 'claimOpenBookings' | 'releaseCheck' | 'prune';

/** The methods of results, reconcile's checks and pruning. */
function resultMethods(state: MemoryState): Pick<PaymentStore, ResultMethods> {
  const { now, bookings, canceled, byCorrelation, results, orphans, leases, copy, drop, result, track, setResult, deleteResult, current, orderState } = state;
  /** The bookings settled CANCELED after `since`, in the order of their cancels. */
  function* recentlyCanceled(since: number) {
    for (const [id, at] of canceled) if (at > since) yield bookings.get(id)!;
  }
  return {
  async claimResult({ correlationId, status, owner, leaseMs, hold, judge }) {
    const id = byCorrelation.get(correlationId);
    const stored = id === undefined ? undefined : bookings.get(id);
    const known: KnownResult[] = [];
    for (const [s, r] of results.get(correlationId) ?? []) known.push({ status: s, state: r.delivered ? 'delivered' : 'claimed' });
    const answer = (claim: ResultClaim) => ({ claim, booking: copy(stored), known });
    const row = result(correlationId, status);
    if (row?.delivered) return answer('delivered');
    const at = now();
    if (hold && !current(hold)) return answer('stale');
    if (row && row.owner !== owner && row.until >= at) return answer('busy');
    // A judged claim waits while another owner holds the order's paid lease; one process runs one step at a time.
    const paid = stored && judge ? leases.get(`paid:${stored.order_key}`) : undefined;
    if (paid && paid.owner !== owner && paid.until >= at) return answer('busy');
    const order = stored && judge ? orderState(stored.order_key) : undefined;
    setResult(correlationId, status, { created: row?.created ?? at, owner, until: at + leaseMs, delivered: false });
    if (status === 'SUCCESS') track(correlationId);
    return { ...answer('claimed'), ...(order && { order }) };
  },
  async completeResult({ correlationId, status, owner }) {
    const row = result(correlationId, status);
    if (!row || row.owner !== owner || row.delivered) return;
    row.delivered = true;
    if (status !== 'BOOKED' && status !== 'PENDING') {
      const id = byCorrelation.get(correlationId);
      const booking = id === undefined ? undefined : bookings.get(id);
      if (booking) {
        booking.settled = true;
        // Moved to the end: the map stays in the order of the cancels.
        canceled.delete(booking.booking_id);
        if (status === 'CANCELED') canceled.set(booking.booking_id, now());
      }
      track(correlationId);
    }
  },
  async releaseResult({ correlationId, status, owner }) {
    const row = result(correlationId, status);
    if (row && !row.delivered && row.owner === owner) {
      deleteResult(correlationId, status);
      if (status === 'SUCCESS') track(correlationId);
    }
  },
  async getResults({ correlationId }) {
    const known: KnownResult[] = [];
    for (const [status, row] of results.get(correlationId) ?? []) known.push({ status, state: row.delivered ? 'delivered' : 'claimed' });
    return known;
  },
  async claimOpenBookings({ olderThanMs, notCheckedForMs, limit, owner, leaseMs, canceledWithinMs }) {
    const at = now();
    const createdBefore = at - olderThanMs;
    const claimed: StoredBooking[] = [];
    const recheck = canceledWithinMs !== undefined;
    const candidates = recheck ? recentlyCanceled(at - canceledWithinMs) : bookings.values();
    for (const booking of candidates) {
      if (claimed.length >= limit) break;
      if (booking.settled !== recheck || booking.created_at > createdBefore) continue;
      if (booking.checkUntil >= at || booking.checkedAt > at - notCheckedForMs) continue;
      Object.assign(booking, { checkOwner: owner, checkUntil: at + leaseMs, checkedAt: at });
      claimed.push(copy(booking)!);
    }
    return claimed;
  },
  async releaseCheck({ bookingId, owner }) {
    const booking = bookings.get(bookingId);
    if (booking?.checkOwner === owner) booking.checkUntil = 0;
  },
  async prune({ before }) {
    let dropped = 0;
    for (const booking of [...bookings.values()]) {
      if (booking.created_at >= before) break;
      drop(booking.booking_id);
      dropped++;
    }
    for (const correlationId of [...orphans]) {
      for (const [status, row] of results.get(correlationId) ?? []) if (row.created < before) deleteResult(correlationId, status);
    }
    const at = now();
    for (const [name, lease] of leases) if (lease.until < Math.min(before, at)) leases.delete(name);
    return dropped;
  },
  };
}
