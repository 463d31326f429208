/**
 * What the payment handler remembers between requests, and the rules that keep a payment single
 * when several processes share it: the bookings it made (one per `Idempotency-Key`), fenced leases
 * that serialize the books of one order, claims that hand each final result to the merchant once, and
 * claims that let one instance at a time check an open booking.
 *
 * The in-memory store (`memory-store.ts`) keeps these rules inside one process and is meant for tests,
 * demos and a single development server; production with several processes (or restarts) uses the
 * PostgreSQL, MySQL or Redis store (`wallet-pay-button/server/postgres`, `/mysql`, `/redis`). A store
 * of your own passes the suite of `wallet-pay-button/server/store-suite`.
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
  /**
   * The name of the provider adapter that made it (`'esewa-intent'`, `'esewa-epay'`, `'khalti'`): the
   * adapter that checks and cancels it. Bookings saved before the field existed read as `'esewa-intent'`.
   */
  provider: string;
  /**
   * Text the adapter keeps with the booking (`''` when none), saved and read back unchanged: the store
   * never reads it.
   */
  provider_data: string;
  /**
   * Milliseconds since the epoch, by the store's clock when {@link PaymentStore.insertBooking} saved it
   * (the value the handler passes is replaced), so reconcile's age of a booking does not depend on
   * which instance's clock made it.
   */
  created_at: number;
}

/** What {@link PaymentStore.getOrderState} (and a leased {@link PaymentStore.beginBooking}) answers about one order, read at one moment. */
export interface OrderState {
  /** The order's bookings that are not settled (no final result delivered), oldest first. */
  open: StoredBooking[];
  /**
   * A booking of the order that is paid: a `SUCCESS` result of it is delivered, or claimed by an
   * instance delivering it, and no `REVERTED` result of it (a refund) has been delivered. `undefined`
   * when none is. Of several, one not settled yet (its delivery runs) before a settled one: a book
   * counts {@link paidAmount}, then each open booking the service calls paid but those of {@link paidOpen}.
   */
  paid: StoredBooking | undefined;
  /**
   * What the order's paid bookings (as {@link paid} counts them) add up to, in rupees: a book charges the
   * order's total less this. A store that leaves it out counts {@link paid}'s amount alone, which is
   * right only while an order has at most one paid booking.
   */
  paidAmount?: number;
  /**
   * The open bookings {@link paidAmount} counts already, by id: each paid and not settled (a `SUCCESS`
   * of it claimed by an instance delivering it). A book adds each other open booking the service calls
   * paid, so a store that gives `paidAmount` gives this too (without it, of two such bookings one would
   * count twice); left out with `paidAmount`, {@link paid} alone is counted.
   */
  paidOpen?: string[];
}

/**
 * A holder's hold on a fenced lease: its name, its owner, and the fencing token it was given when it
 * took the lease. Writes made under it are refused once another owner took the lease over.
 */
export interface LeaseHold {
  lease: string;
  owner: string;
  token: number;
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
  /** The lease ends this long after the store takes it, by the store's clock, unless renewed ({@link PaymentStore.renewLease}). */
  leaseMs: number;
}

/** The outcome of {@link PaymentStore.beginBooking}. */
export type BookingOpening =
  /** The key has a booking: nothing was taken. */
  | { status: 'booked'; booking: StoredBooking }
  /** Another owner holds the order's lease: nothing was read or taken; try again later. */
  | { status: 'busy' }
  /**
   * The lease is the caller's now, under a fencing token greater than any the lease had before, and
   * `order` was read after it was taken (so it holds what the lease's previous holders saved).
   */
  | { status: 'leased'; token: number; order: OrderState };

/** What {@link PaymentStore.getBookingState} answers: a booking and the results of it already delivered. */
export interface BookingState {
  booking: StoredBooking;
  /** Statuses of this booking whose result was delivered (a claim of them answers `delivered`). */
  delivered: PaymentStatus[];
}

/** One result of a booking as the store knows it (see {@link PaymentStore.getResults}). */
export interface KnownResult {
  status: PaymentStatus;
  /** `claimed`: an instance is delivering it (or died doing so); `delivered`: the hook took it. */
  state: 'claimed' | 'delivered';
}

/** What {@link PaymentStore.insertBooking} saves. */
export interface BookingInsert {
  booking: StoredBooking;
  /**
   * The order's lease the booking was made under: the booking is saved only while this hold is the
   * lease's current one, checked in the same atomic step, and the lease ends in that step (saved or not).
   */
  hold?: LeaseHold;
}

/**
 * The outcome of {@link PaymentStore.insertBooking}: `saved`; `taken` (the key has a booking already,
 * nothing saved); `stale` (the key had none, but `hold` is no longer the lease's: nothing saved).
 */
export type BookingInsertion = 'saved' | 'taken' | 'stale';

/** What {@link PaymentStore.claimResult} is asked. */
export interface ResultClaimRequest {
  /** The booking, by its correlation id (callbacks name it only so). */
  correlationId: string;
  status: PaymentStatus;
  owner: string;
  /** The claim ends this long after the store takes it, by the store's clock. */
  leaseMs: number;
  /** When the claim is made under an order's lease: refused (`stale`) once that hold is no longer the lease's. */
  hold?: LeaseHold;
  /**
   * Judge the claim against the booking's order: the store reads the order's state and claims in one
   * atomic step, serialized with every other judged claim of the order (under the lease
   * `paid:{order_key}`: `busy` while another owner holds that lease by {@link PaymentStore.acquireLease}),
   * and answers that state ({@link ResultClaimAnswer.order}). Of two `SUCCESS` results of one order
   * claimed at once, the second therefore reads the first as paid.
   */
  judge?: boolean;
}

/** What {@link PaymentStore.claimResult} answers, all read in the atomic step of the claim. */
export interface ResultClaimAnswer {
  claim: ResultClaim;
  /** The booking with the claim's correlation id; `undefined` when the store has none. */
  booking: StoredBooking | undefined;
  /** The booking's results claimed or delivered before this claim (as {@link PaymentStore.getResults} reads them). */
  known: KnownResult[];
  /**
   * With `judge`, when the booking is known and the claim is `claimed`: its order's state read before
   * this claim was recorded (a lapsed earlier claim of this result counts the booking paid already).
   */
  order?: OrderState;
}

/**
 * The outcome of {@link PaymentStore.claimResult}: `claimed`; `delivered` (it was delivered already);
 * `busy` (another owner holds a live claim); `stale` (the claim's `hold` is no longer the lease's:
 * nothing claimed).
 */
export type ResultClaim = 'claimed' | 'delivered' | 'busy' | 'stale';

/** Names one result of a booking and the owner of its claim. */
export interface ResultRef {
  correlationId: string;
  status: PaymentStatus;
  owner: string;
}

/** What {@link PaymentStore.claimOpenBookings} claims. */
export interface OpenBookingClaim {
  /**
   * Only bookings saved at least this many ms ago, by the store's clock (compared with
   * {@link StoredBooking.created_at}): instances whose clocks disagree find the same bookings.
   */
  olderThanMs: number;
  /**
   * Only bookings no check claimed in the last this many ms (by the store's clock; 0 skips none): once
   * per pass, and not again soon after another instance checked them.
   */
  notCheckedForMs: number;
  /** At most this many, also while other claims run at once: a booking claimed is one the caller is told of. */
  limit: number;
  owner: string;
  /** The claim ends this long after the store takes it, by the store's clock; another instance may check the booking after it. */
  leaseMs: number;
  /**
   * When given, the claim hands out, instead of open bookings, the bookings settled by a delivered
   * `CANCELED` less than this many ms ago (by the store's clock, from when {@link PaymentStore.completeResult}
   * marked it) and settled by nothing else since, under the same rules of age, checks and lease: a
   * stale app screen can still pay a booking the kit cancelled, and reconcile asks about it again. A
   * store without it hands out open bookings only, which this pass has checked, so it answers none.
   */
  canceledWithinMs?: number;
}

/**
 * Storage used by `createPaymentHandler`. Every method takes one object, is asynchronous and is
 * atomic on its own: the rules below hold across every process that shares the store.
 *
 * - **The store's clock**: every lease and claim starts and ends by the store's own clock (a database
 *   store reads its server's, the memory store its own), never the caller's, so instances whose clocks
 *   disagree, or a call that waited for a connection, still agree on who holds what.
 * - **One booking per key**: {@link insertBooking} relies on a unique key, never on a read before it.
 * - **One payable booking per order**: {@link beginBooking} answers, in one read, the order's open
 *   bookings and whether it is already paid (see {@link OrderState}), so a book cannot miss a payment
 *   whose result was delivered between two reads.
 * - **Fenced order leases**: {@link beginBooking} takes the lease `order:{order_key}` (free, ended, or
 *   the caller's own) and hands out a fencing token greater than any before it; {@link renewLease}
 *   extends it while the token is current; a booking ({@link insertBooking}) or a result claim
 *   ({@link claimResult}) made under a `hold` whose token is no longer current is refused (`stale`) in
 *   the same atomic step that would record it. A hold is current only until its lease ends by the
 *   store's clock, taken over or not, and nothing renews an ended lease: a write that reaches the store
 *   after its lease ended (a paused holder, or a database that held the write while the kit gave up on
 *   it and cancelled its booking) saves nothing.
 * - **A book in two steps**: {@link beginBooking} answers the key's booking, or takes the order's lease
 *   and reads the order's state after taking it, as one atomic step; {@link insertBooking} saves the
 *   new booking and ends the lease as another. A database store does each in one round trip.
 * - **Result claims** ({@link claimResult}): before `onPaymentResult` is called for a booking and final
 *   status, the handler claims it; {@link completeResult} marks it delivered (and the booking settled),
 *   {@link releaseResult} gives it back when the hook threw. A claim whose lease ended (its process died
 *   inside the hook) may be claimed again: delivery is once when the hook succeeds within the lease, at
 *   least once when a process dies inside it. {@link getResults} reads which results of a booking are
 *   claimed or delivered, without claiming anything. A judged claim reads its order and claims in one
 *   atomic step, serialized per order, so one `SUCCESS` delivery costs two round trips and of two
 *   payments of an order at once exactly one reads the other as paid.
 * - **Check claims** ({@link claimOpenBookings}): `reconcile()` claims the open bookings it asks the
 *   service about, so each is checked by one instance at a time, and, the same way, the bookings
 *   settled `CANCELED` a short while ago (a payment can land after the kit's cancel).
 * - **Creation time**: {@link insertBooking} stamps `created_at` by the store's clock, and
 *   {@link claimOpenBookings} measures a booking's age by it too.
 * - **Retention**: {@link prune} drops what was made before a time.
 * - **Availability**: a call that cannot be answered in time, or whose database cannot be reached,
 *   rejects with `StoreUnavailableError` (store-errors.ts): the store reads its own driver's errors, and
 *   the handler reads nothing else. Each call changes all it changes or nothing.
 * - **Bookings as written**: every field of a {@link StoredBooking} reads back as saved, its
 *   `provider` and `provider_data` too; a store that opens data of a release before those fields reads
 *   its bookings as `'esewa-intent'` with `''`.
 */
export interface PaymentStore {
  /** The booking made for `key`, if any. */
  getBookingByKey(query: { key: string }): Promise<StoredBooking | undefined>;
  /** Callbacks name the booking only by its correlation id. */
  findBookingByCorrelationId(query: { correlationId: string }): Promise<StoredBooking | undefined>;
  /** The booking with the statuses of it already delivered, in one read (a status check's first step). */
  getBookingState(query: { bookingId: string }): Promise<BookingState | undefined>;
  /** The order's open bookings and its paid booking, if any (see {@link OrderState}), in one read by an index. */
  getOrderState(query: { orderKey: string }): Promise<OrderState>;
  /**
   * Starts a book, atomically: the key's booking when it has one (no lease taken); else the order's
   * lease for `owner` under a new fencing token and, read after taking it, the order's state; else
   * `busy`. When the key's booking shows up once the lease is taken, the lease is let go and the
   * booking answered. The kit starts each book under an owner of its own, so a start that reaches the
   * store late (a client sending a command again after it reconnects) finds the lease another's.
   */
  beginBooking(start: BookingStart): Promise<BookingOpening>;
  /**
   * Takes the lease `lease` for `owner` when it is free, ended, or `owner`'s, for `leaseMs` by the
   * store's clock, under a new fencing token (answered); `undefined`, and nothing changed, when another
   * owner holds it. A judged {@link claimResult} of the order is `busy` while another owner holds
   * `paid:{order_key}`: a merchant's tool can hold back the order's payments by it.
   */
  acquireLease(request: { lease: string; owner: string; leaseMs: number }): Promise<number | undefined>;
  /** Extends a hold by `leaseMs` from now (the store's clock): `false`, and nothing changed, once its token is no longer the lease's or its lease ended. */
  renewLease(renewal: LeaseHold & { leaseMs: number }): Promise<boolean>;
  /** Ends a hold (nothing when the lease was taken over since). */
  releaseLease(hold: LeaseHold): Promise<void>;
  /** Saves a new booking, unless its key has one or its `hold` went stale (see {@link BookingInsert}). */
  insertBooking(insert: BookingInsert): Promise<BookingInsertion>;
  /**
   * Claims the delivery of one final result (booking and status: a refund after a success is a new
   * result); see {@link ResultClaim}. Answers, from the same atomic step, what delivery needs to judge
   * it (see {@link ResultClaimAnswer}), so a delivery costs the claim and its completion.
   */
  claimResult(claim: ResultClaimRequest): Promise<ResultClaimAnswer>;
  /**
   * Marks a result claimed by `owner` delivered; a final status settles the booking (it leaves the open
   * lists), and the store keeps when (by its clock) and by which status, the last one delivered: a
   * booking settled `CANCELED` is rechecked for a while ({@link OpenBookingClaim.canceledWithinMs}).
   */
  completeResult(result: ResultRef): Promise<void>;
  /** Gives a result claimed by `owner` back (the hook threw), so the next status check, callback or pass retries. */
  releaseResult(result: ResultRef): Promise<void>;
  /** The results of a booking that are claimed or delivered, one per status, in one read; claims nothing. */
  getResults(query: { correlationId: string }): Promise<KnownResult[]>;
  /** Claims open bookings for a status check (see {@link OpenBookingClaim}), oldest first, by an index. */
  claimOpenBookings(claim: OpenBookingClaim): Promise<StoredBooking[]>;
  /** Ends a check claim early, once the check is done. */
  releaseCheck(check: { bookingId: string; owner: string }): Promise<void>;
  /** Drops bookings (with their keys), results and ended leases made before `before` (ms since the epoch); returns how many bookings. */
  prune(query: { before: number }): Promise<number>;
}
