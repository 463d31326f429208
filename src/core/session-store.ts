/**
 * Keeps the in-flight booking across the trip to the wallet app or the provider's page, in
 * `sessionStorage` (per tab, gone when the tab closes): enough to ask its status on the way back.
 */
import type { Channel } from '../protocol/contract.js';

/** What is kept of a booking while the shopper is away. */
export interface KeptBooking {
  booking_id: string;
  correlation_id: string;
  channel: Channel;
  /** The attempt's Idempotency-Key. */
  idempotency_key: string;
  /** When the booking was made, in ms since the epoch. */
  started_at: number;
  /** The deeplink, kept so the "open the app" link survives a reload. */
  deeplink?: string;
}

/** Storage for kept bookings, keyed by endpoint and order. */
export interface BookingStore {
  load(key: string): KeptBooking | null;
  save(key: string, booking: KeptBooking): void;
  clear(key: string): void;
  /**
   * The unfinished attempt (`<environment>:<Idempotency-Key>`), kept before its book request is sent, so
   * a reload during the request retries with the same key instead of booking a second time.
   */
  attempt(key: string): string | null;
  /** Keeps an unfinished attempt, or forgets it (`null`). */
  setAttempt(key: string, attempt: string | null): void;
}

const PREFIX = 'wallet-pay-button:';

/** The storage key of one endpoint + order pair. */
export function bookingKey(endpoint: string, order: unknown): string {
  return `${PREFIX}${endpoint}|${JSON.stringify(order)}`;
}

/** The window's `sessionStorage`, or `null` where reading it throws (sandboxed frames, blocked storage). */
export function sessionStorageOf(win: Window | null): Storage | null {
  try {
    return win?.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * True when `storage` may hold a kept booking (a key of ours), without parsing anything: an element
 * checks this on connect and builds its flow only when the answer is yes.
 */
export function hasKeptBooking(storage: Storage | null): boolean {
  try {
    for (let i = 0; i < (storage?.length ?? 0); i++) if (storage!.key(i)?.startsWith(PREFIX)) return true;
  } catch {
    // Blocked storage keeps nothing.
  }
  return false;
}

function isKeptBooking(value: unknown): value is KeptBooking {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.booking_id === 'string' &&
    typeof v.correlation_id === 'string' &&
    (v.channel === 'app' || v.channel === 'web') &&
    typeof v.idempotency_key === 'string' &&
    typeof v.started_at === 'number' &&
    Number.isFinite(v.started_at) &&
    (v.deeplink === undefined || typeof v.deeplink === 'string')
  );
}

/** A {@link BookingStore} over a `Storage` (`sessionStorage`); a missing or failing storage keeps nothing. */
export function createBookingStore(storage: Storage | null): BookingStore {
  return {
    load(key) {
      try {
        const raw = storage?.getItem(key);
        if (!raw) return null;
        const parsed: unknown = JSON.parse(raw);
        if (isKeptBooking(parsed)) return parsed;
        // Something else wrote under our key: it cannot be trusted to route the shopper.
        storage?.removeItem(key);
        return null;
      } catch {
        return null;
      }
    },
    save(key, booking) {
      try {
        storage?.setItem(key, JSON.stringify(booking));
      } catch {
        // Private modes and full quotas throw; the payment still works, only the way back is weaker.
      }
    },
    clear(key) {
      try {
        storage?.removeItem(key);
      } catch {
        // See save().
      }
    },
    attempt(key) {
      try {
        return storage?.getItem(`${key}#attempt`) ?? null;
      } catch {
        return null;
      }
    },
    setAttempt(key, attempt) {
      try {
        if (attempt) storage?.setItem(`${key}#attempt`, attempt);
        else storage?.removeItem(`${key}#attempt`);
      } catch {
        // See save().
      }
    },
  };
}

/** An in-memory {@link BookingStore}, for tests and hosts without storage. */
export function createMemoryBookingStore(): BookingStore & { entries: Map<string, KeptBooking>; attempts: Map<string, string> } {
  const entries = new Map<string, KeptBooking>();
  const attempts = new Map<string, string>();
  return {
    entries,
    attempts,
    load: (key) => entries.get(key) ?? null,
    save: (key, booking) => void entries.set(key, booking),
    clear: (key) => void entries.delete(key),
    attempt: (key) => attempts.get(key) ?? null,
    setAttempt: (key, attempt) => void (attempt ? attempts.set(key, attempt) : attempts.delete(key)),
  };
}
