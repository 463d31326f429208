/**
 * Whether the order is paid already, asked of the shop's server before anything is pressed
 * (`POST {endpoint}/order`): a shopper who paid and comes back in a fresh tab (nothing kept in it: the
 * browser dropped the old tab, or they followed the shop's link again) sees the order paid, with no
 * button that would pay it again. Its own module beside the set-up check, which runs it.
 */
import { createBookingClient } from '../core/booking-client.js';
import { systemClock } from '../core/clock.js';
import { paidUrl } from '../core/flow/booking.js';
import { createBookingStore, sessionStorageOf } from '../core/session-store.js';
import type { SettingsResult } from '../core/settings.js';
import type { PaymentHost } from './host.js';

/** Timeout of status, cancel and order requests, in ms. */
export const REQUEST_TIMEOUT_MS = 8000;

/** The orders each element asked about: once per order, not at every render. */
const asked = new WeakMap<HTMLElement, Set<string>>();

/**
 * Asks once per element and order; `answered` runs with the answer. Paid: the order is remembered as
 * paid in this tab and `answered(true)` runs (the element loads its payment, which shows it paid). A
 * server without the route (404, 405), an unpaid order, any failure, or settings that name no order
 * to ask about answer `false` and change nothing: the button works as before (a hold on a return
 * address ends), and the server still refuses to book a paid order. An order asked about already
 * answers nothing more.
 */
export function askPaid(host: PaymentHost, read: SettingsResult, answered: (paid: boolean) => void): void {
  const settings = read.ok && read.settings;
  if (!settings || !settings.endpoint || !Object.keys(settings.order).length) return answered(false);
  const key = settings.storageKey;
  const seen = asked.get(host) ?? new Set<string>();
  asked.set(host, seen);
  if (seen.has(key)) return;
  seen.add(key);
  const win = host.ownerDocument.defaultView!;
  const client = createBookingClient({
    endpoint: settings.endpoint,
    // Not watched like the payment's requests: an older server's 404 page is no set-up mistake.
    fetch: (input, init) => win.fetch(input, init),
    bookTimeoutMs: settings.bookTimeoutMs,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    isOnline: () => win.navigator.onLine,
    clock: host.clock ?? systemClock(win),
  });
  client.order({ order: settings.order }).then(
    ({ paid }) => {
      if (paid) createBookingStore(sessionStorageOf(win)).setPaid(key, { booking_id: '', url: paidUrl(settings) });
      answered(paid);
    },
    // Every failure leaves the button as it was.
    () => answered(false),
  );
}
