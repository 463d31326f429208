/**
 * What the payment handler remembers between requests, and the rules that keep a payment single
 * when several processes share it: the bookings it made (one per `Idempotency-Key`), leases that
 * serialize the books of one order, claims that hand each final result to the merchant once, and
 * claims that let one instance at a time check an open booking.
 *
 * Two stores implement it: the in-memory store (`memory-store.ts`) keeps these rules inside one
 * process and is meant for tests, demos and a single development server; production with several
 * processes (or restarts) uses the PostgreSQL store from `wallet-pay-button/server/postgres`.
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
  /**
   * What the order's paid bookings (as {@link paid} counts them) add up to, in rupees: a book charges the
   * order's total less this. A store that leaves it out counts {@link paid}'s amount alone.
   */
  paidAmount?: number;
}

/** What {@link PaymentStore.beginBooking} is asked: a book of `key` for the order `orderKey`. */
export interface BookingStart {
  /** The `Idempotency-Key`. */
  key: string;
  /** The order's canonical key ({@link StoredBooking.order_key}). */
  orderKey: string;
  /** The name of the lease that serializes the books of the order (the handler uses `order:{orderKey}`). */
  lease: string;
  owner: string;
  now: number;
  /** The lease ends here (ms since the epoch) unless its owner renews it ({@link PaymentStore.acquireLease}) or releases it. */
  until: number;
}

/** The outcome of {@link PaymentStore.beginBooking}. */
export type BookingOpening =
  /** The key has a booking: nothing was taken. */
  | { status: 'booked'; booking: StoredBooking }
  /** Another owner holds the order's lease: nothing was read or taken; try again later. */
  | { status: 'busy' }
  /** The lease is the caller's now, and `order` was read after it was taken (so it holds what the lease's previous holder saved). */
  | { status: 'leased'; order: OrderState };

/** What {@link PaymentStore.getBookingState} answers: a booking and the results of it already delivered. */
export interface BookingState {
  booking: StoredBooking;
  /** Statuses of this booking whose result was delivered (a claim of them answers `delivered`). */
  delivered: PaymentStatus[];
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
 * - **One payable booking per order**: {@link beginBooking} (and {@link getOrderState}) answer, in one
 *   read, the order's open bookings and whether it is already paid (a known `SUCCESS` not followed by a
 *   delivered refund), so a book cannot miss a payment whose result was delivered between two reads.
 * - **Leases** ({@link acquireLease}): a named lock with an end time. The handler holds `order:{order_key}`
 *   while it books an order, so books for one order are serialized across instances; it keeps the lease
 *   short and renews it while its work runs, so a holder that died loses it within seconds.
 * - **A book in two steps**: {@link beginBooking} answers the key's booking, or takes the order's lease
 *   and reads the order's state after taking it, as one atomic step; {@link insertBooking} saves the
 *   new booking and ends the lease as another. A database store does each in one round trip.
 * - **Result claims** ({@link claimResult}): before `onPaymentResult` is called for a booking and final
 *   status, the handler claims it; {@link completeResult} marks it delivered (and the booking settled),
 *   {@link releaseResult} gives it back when the hook threw. A claim whose lease ended (its process died
 *   inside the hook) may be claimed again: delivery is once when the hook succeeds, at least once when
 *   a process dies inside it.
 * - **Check claims** ({@link claimOpenBookings}): `reconcile()` claims the open bookings it asks the
 *   service about, so each is checked by one instance at a time.
 * - **Retention**: {@link prune} drops what was made before a time.
 * - **Availability**: a call that cannot be answered in time, or whose database cannot be reached,
 *   rejects with `StoreUnavailableError` (store-errors.ts); each call changes all it changes or nothing.
 */
export interface PaymentStore {
  /** The booking made for `key`, if any. */
  getBookingByKey(key: string): Promise<StoredBooking | undefined>;
  /**
   * Saves a new booking; `false` (nothing saved) when its `idempotency_key` already has one. With
   * `release`, ends that lease of its owner in the same atomic step, saved or not (so the next holder
   * of the order's lease finds the booking).
   */
  insertBooking(booking: StoredBooking, release?: { lease: string; owner: string }): Promise<boolean>;
  /**
   * Starts a book, atomically: the key's booking when it has one (no lease taken); else the order's
   * lease for `owner` (see {@link acquireLease}) and, read after taking it, the order's state; else
   * `busy`. When the key's booking shows up once the lease is taken, the lease is let go and the
   * booking answered.
   */
  beginBooking(start: BookingStart): Promise<BookingOpening>;
  getBooking(bookingId: string): Promise<StoredBooking | undefined>;
  /** The booking with the statuses of it already delivered, in one read (a status check's first step). */
  getBookingState(bookingId: string): Promise<BookingState | undefined>;
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
