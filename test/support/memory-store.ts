/** An in-memory booking store for the flow's unit tests (the element uses sessionStorage). */
import type { BookingStore, KeptBooking, PaidOrder } from '../../src/core/session-store.js';

/** A {@link BookingStore} over two maps the test can read. */
export function createMemoryBookingStore(): BookingStore & { entries: Map<string, KeptBooking>; attempts: Map<string, string> } {
  const entries = new Map<string, KeptBooking>();
  const attempts = new Map<string, string>();
  const paid = new Map<string, PaidOrder>();
  return {
    entries,
    attempts,
    load: (key) => entries.get(key) ?? null,
    save: (key, booking) => void entries.set(key, booking),
    clear: (key) => void entries.delete(key),
    attempt: (key) => attempts.get(key) ?? null,
    setAttempt: (key, attempt) => void (attempt ? attempts.set(key, attempt) : attempts.delete(key)),
    paid: (key) => paid.get(key) ?? null,
    setPaid: (key, order) => void paid.set(key, order),
  };
}
