/**
 * Keeps the in-flight booking across the trip to the wallet app or the provider's page, in
 * `sessionStorage` (per tab, gone when the tab closes): enough to ask its status on the way back.
 */
import type { Channel, WebPaymentInstruction } from '../protocol/contract.js';
import { isRecord } from '../protocol/values.js';
import { PAID_PREFIX, hasKey, isBookingKey } from './kept.js';
import { isPaymentSettings, type PaymentSettings } from './settings.js';

export { sessionStorageOf } from './kept.js';

/**
 * True when `storage` may hold a kept booking (a key of ours), without parsing anything: the payment
 * code builds an element's flow at once only when the answer is yes. A paid order does not count here:
 * only its own checkout shows it ({@link isPaidHere}), so buttons of other orders on later pages of the
 * tab still build nothing.
 */
export function hasKeptBooking(storage: Storage | null): boolean {
  return hasKey(storage, isBookingKey);
}

/** True when this tab paid the order under `key` (settings.ts's `bookingKey`): its checkout shows it paid. */
export function isPaidHere(storage: Storage | null, key: string): boolean {
  try {
    return storage?.getItem(PAID_PREFIX + key) != null;
  } catch {
    return false;
  }
}

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
  /** An `app` booking made for the shopper's phone from a desktop (the QR hand-off): the way back shows the code again. */
  handoff?: true;
  /** A booking made in a third-party in-app browser (or a WebView no host took): the way back shows the in-app panel. */
  inapp?: true;
  /** The funnel's attempt id and when the attempt began, so the steps after a reload share them. */
  attempt_id?: string;
  attempt_at?: number;
  /** The server's receipt of the booking, sent back with status and cancel requests. */
  receipt?: string;
  /** The web payment instruction, kept so the shopper can go back to the payment page. */
  web_payment?: WebPaymentInstruction;
  /** The settings the payment started with: the way back follows them, not the attributes of the moment. */
  settings: PaymentSettings;
}

/** Storage for kept bookings, keyed by endpoint and order. */
export interface BookingStore {
  /**
   * The booking kept under `key`. One kept before bookings carried their settings takes `current`
   * (the settings that found it), so a shopper coming back across an upgrade keeps the way back.
   */
  load(key: string, current: PaymentSettings | null): KeptBooking | null;
  save(key: string, booking: KeptBooking): void;
  clear(key: string): void;
  /**
   * The unfinished attempt (`<environment>:<Idempotency-Key>`), kept before its book request is sent, so
   * a reload during the request retries with the same key instead of booking a second time.
   */
  attempt(key: string): string | null;
  /** Keeps an unfinished attempt, or forgets it (`null`). */
  setAttempt(key: string, attempt: string | null): void;
  /** The paid order under `key` (this tab paid it): its booking and its success page. */
  paid(key: string): PaidOrder | null;
  /** Remembers that the order under `key` was paid. */
  setPaid(key: string, paid: PaidOrder): void;
}

/** An order this tab paid, remembered so coming back to its checkout shows it paid. */
export interface PaidOrder {
  booking_id: string;
  /** The success page, checked when it was followed; `null` when there is none. */
  url: string | null;
}

// Unfinished attempts live under their own prefix: they must not make later pages build a flow.
const ATTEMPT_PREFIX = 'wallet-pay-attempt:';

function isWebPayment(value: unknown): value is WebPaymentInstruction {
  return (
    isRecord(value) &&
    typeof value.url === 'string' &&
    (value.method === 'GET' || value.method === 'POST') &&
    (value.fields === undefined || (isRecord(value.fields) && Object.values(value.fields).every((field) => typeof field === 'string')))
  );
}

/** An optional field: absent, or passing `check`. */
const optional = (value: unknown, check: (value: unknown) => boolean) => value === undefined || check(value);
const isString = (value: unknown) => typeof value === 'string';
const isTrue = (value: unknown) => value === true;

function isKeptBooking(value: unknown): value is Omit<KeptBooking, 'settings'> & { settings?: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    optional(v.settings, isPaymentSettings) &&
    isString(v.booking_id) &&
    isString(v.correlation_id) &&
    (v.channel === 'app' || v.channel === 'web') &&
    isString(v.idempotency_key) &&
    Number.isFinite(v.started_at) &&
    optional(v.deeplink, isString) &&
    optional(v.handoff, isTrue) &&
    optional(v.inapp, isTrue) &&
    optional(v.attempt_id, isString) &&
    optional(v.attempt_at, Number.isFinite) &&
    optional(v.web_payment, isWebPayment)
  );
}

/** A {@link BookingStore} over a `Storage` (`sessionStorage`); a missing or failing storage keeps nothing. */
export function createBookingStore(storage: Storage | null): BookingStore {
  return {
    load(key, current) {
      try {
        const raw = storage?.getItem(key);
        if (!raw) return null;
        const parsed: unknown = JSON.parse(raw);
        if (isKeptBooking(parsed)) {
          const settings = (parsed.settings as PaymentSettings | undefined) ?? current;
          return settings ? { ...parsed, settings } : null;
        }
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
        return storage?.getItem(ATTEMPT_PREFIX + key) ?? null;
      } catch {
        return null;
      }
    },
    paid(key) {
      try {
        const parsed: unknown = JSON.parse(storage?.getItem(PAID_PREFIX + key) ?? 'null');
        return isRecord(parsed) && typeof parsed.booking_id === 'string' && (parsed.url === null || typeof parsed.url === 'string')
          ? { booking_id: parsed.booking_id, url: parsed.url }
          : null;
      } catch {
        return null;
      }
    },
    setPaid(key, paid) {
      try {
        storage?.setItem(PAID_PREFIX + key, JSON.stringify(paid));
      } catch {
        // See save().
      }
    },
    setAttempt(key, attempt) {
      try {
        if (attempt) storage?.setItem(ATTEMPT_PREFIX + key, attempt);
        else storage?.removeItem(ATTEMPT_PREFIX + key);
      } catch {
        // See save().
      }
    },
  };
}
