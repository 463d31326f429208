/**
 * The storage keys of a kept booking and of a paid order, and the checks made on them. The element's
 * first module uses only {@link mayComeBack} (is anything of ours kept in this tab?) and
 * {@link isReturnPage}, which decide whether the payment code is loaded at once. What only the payment
 * code asks of them (a kept booking, a paid order: session-store.ts) goes with it.
 */
/** The prefix of a kept booking's key (settings.ts's `bookingKey`, with the payment code, writes the rest). */
export const BOOKING_PREFIX = 'wallet-pay-button:';
/** The prefix of an order this tab paid (the session store keeps it): its checkout shows it paid. */
export const PAID_PREFIX = 'wallet-pay-paid:';
/** How a continuation address's fragment begins (continuation.ts): a payment carried from an in-app browser. */
export const CONTINUATION_PREFIX = '#wallet-pay=';

/**
 * True when `win`'s tab keeps a booking or a paid order of ours, or its address carries a payment from
 * an in-app browser (a continuation): the shopper may be coming back, so the element loads its
 * payment code at once, which then looks for this element's own order.
 */
export function mayComeBack(win: Window | null): boolean {
  return hasKey(sessionStorageOf(win), (key) => isBookingKey(key) || key.startsWith(PAID_PREFIX)) || !!win?.location.hash.startsWith(CONTINUATION_PREFIX);
}

/**
 * True when `win`'s address is a payment's return: its query names the kit's `booking_id` (the intent
 * service's and eSewa's returns) or Khalti's `pidx`, read as parameters, not found as text.
 */
export function isReturnPage(win: Window | null): boolean {
  const query = new URLSearchParams(win?.location.search);
  return query.has('booking_id') || query.has('pidx');
}

/** True when a storage key names a kept booking (not an unfinished attempt, not someone else's). */
export function isBookingKey(key: string | null): boolean {
  return !!key?.startsWith(BOOKING_PREFIX);
}

/** The window's `sessionStorage`, or `null` where reading it throws (sandboxed frames, blocked storage). */
export function sessionStorageOf(win: Window | null): Storage | null {
  try {
    return win?.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** True when a key of `storage` passes `test`. Blocked storage keeps nothing. */
export function hasKey(storage: Storage | null, test: (key: string) => boolean): boolean {
  try {
    for (let i = 0; i < (storage?.length ?? 0); i++) if (test(storage!.key(i)!)) return true;
  } catch {
    // Blocked storage keeps nothing.
  }
  return false;
}
