/**
 * The sandbox's bookings as held: found by id and by the merchant's (product code, transaction_uuid),
 * and bounded, so a long soak or a busy test suite cannot grow the sandbox without bound. It holds
 * the bookings and decides which one goes; the rules of what a booking may become live in `service.ts`.
 */
import type { SandboxBooking } from './service.js';

/**
 * Bookings kept: past this, each new booking drops the oldest one that is final (or expired). An
 * open booking is never dropped, since a shopper may still be paying it.
 */
export const MAX_BOOKINGS = 10_000;

/** A booking's idempotency key: one per product code and transaction_uuid. */
function transactionKey(productCode: string, transactionUuid: string): string {
  return `${productCode}\u0000${transactionUuid}`;
}

/** The bookings, by id and by transaction, oldest first, at most `max` of them while any can go. */
export class BookingLedger {
  private readonly byId = new Map<string, SandboxBooking>();
  private readonly byTransaction = new Map<string, SandboxBooking>();

  /** `now` is the sandbox's clock (expiry makes an unpaid booking droppable); `max` defaults to {@link MAX_BOOKINGS}. */
  constructor(
    private readonly now: () => number,
    private readonly max = MAX_BOOKINGS,
  ) {}

  /** The booking held under `bookingId` (the object itself: the service changes it in place). */
  get(bookingId: string): SandboxBooking | undefined {
    return this.byId.get(bookingId);
  }

  /** True when a booking has this id. */
  has(bookingId: string): boolean {
    return this.byId.has(bookingId);
  }

  /** The booking of a merchant's transaction, if one was made. */
  ofTransaction(productCode: string, transactionUuid: string): SandboxBooking | undefined {
    return this.byTransaction.get(transactionKey(productCode, transactionUuid));
  }

  /** Holds a new booking; past `max`, the oldest closed or expired one goes. */
  add(booking: SandboxBooking): void {
    this.put(booking);
    if (this.byId.size > this.max) this.dropOldestClosed();
  }

  /** The ids held, oldest first. */
  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** Copies of every booking as held, without applying expiry (for the state file). */
  snapshot(): SandboxBooking[] {
    return [...this.byId.values()].map((booking) => structuredClone(booking));
  }

  /** Takes back bookings from a {@link snapshot}, e.g. after a restart (copies; no bound applied). */
  restore(bookings: readonly SandboxBooking[]): void {
    for (const booking of bookings) this.put(structuredClone(booking));
  }

  private put(booking: SandboxBooking): void {
    this.byId.set(booking.booking_id, booking);
    this.byTransaction.set(transactionKey(booking.product_code, booking.transaction_uuid), booking);
  }

  private dropOldestClosed(): void {
    const now = this.now();
    for (const [id, booking] of this.byId) {
      const closed = booking.status !== 'BOOKED' && booking.status !== 'PENDING';
      if (closed || now >= booking.expires_at) {
        this.byId.delete(id);
        this.byTransaction.delete(transactionKey(booking.product_code, booking.transaction_uuid));
        return;
      }
    }
  }
}
