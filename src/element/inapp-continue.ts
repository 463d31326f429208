/**
 * The other end of an in-app browser's escape: the continuation address (continuation.ts) opened in
 * the phone's own browser, where the in-app browser's cookies, and so the shop's session, did not
 * travel. The booking it carries goes on here without them: its status is asked with its ids and
 * receipt (`/status` needs no session), and its payment followed once its address passed the allowed
 * hosts, as a fresh booking's does.
 *
 * A chunk of its own: the payment code imports it only when the page's address carries a
 * continuation, so no other shopper downloads it.
 */
import { createBookingClient } from '../core/booking-client.js';
import { readContinuation, withoutContinuation } from '../core/continuation.js';
import { ids, webPaymentNavigation } from '../core/flow/booking.js';
import { createBrowserNavigator } from '../core/navigator.js';
import { createBookingStore, sessionStorageOf, type KeptBooking } from '../core/session-store.js';
import type { SettingsResult } from '../core/settings.js';
import { isFinalStatus, type PaymentStatus } from '../protocol/contract.js';
import { WalletPayEvent } from './events.js';
import type { PaymentElement } from './host.js';
import { REQUEST_TIMEOUT_MS } from './order-check.js';

/**
 * Goes on, in this browser, with the payment the page's address carries (a continuation opened from
 * an in-app browser). The continuation leaves the address at once, so a reload or a shared address
 * does not replay it. Its payment's address is checked against `read`'s allowed hosts and the booking's
 * status asked (with its receipt: no session needed): an open web booking is kept in this tab and its
 * web payment followed, as a fresh one is (`true`: the page leaves); a paid one, or an app booking, is
 * kept for the flow to resume (paid, or its app link to tap); an expired, cancelled or refused one, or
 * one the server cannot answer for, leaves the pay button, the way forward.
 */
export async function continueHere(host: PaymentElement, read: SettingsResult): Promise<boolean> {
  const win = host.ownerDocument.defaultView!;
  const href = win.location.href;
  win.history.replaceState(win.history.state, '', withoutContinuation(href));
  const found = read.ok ? readContinuation(href, read.settings.allowedHosts) : null;
  if (!read.ok || !found?.ok) return false;
  const { settings } = read;
  const { booking_id, correlation_id, receipt, web_payment } = found.continuation;
  const kept: KeptBooking = { booking_id, correlation_id, channel: web_payment ? 'web' : 'app', idempotency_key: '', started_at: Date.now(), settings };
  if (receipt) kept.receipt = receipt;
  if (web_payment) kept.web_payment = web_payment;
  else kept.deeplink = found.url.href;
  const client = createBookingClient({ endpoint: settings.endpoint, fetch: (input, init) => win.fetch(input, init), bookTimeoutMs: settings.bookTimeoutMs, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  let status: PaymentStatus;
  try {
    ({ status } = await client.status(ids(kept)));
  } catch {
    return false;
  }
  if (status !== 'SUCCESS' && isFinalStatus(status)) return false;
  createBookingStore(sessionStorageOf(win)).save(settings.storageKey, kept);
  if (status !== 'BOOKED' || !web_payment) return false;
  const navigation = webPaymentNavigation(found.url, web_payment, booking_id);
  const { type, ...detail } = navigation.event;
  // A host that routes itself cancels the event and leaves with the detail's address itself.
  if (host.dispatchEvent(new WalletPayEvent(type, detail as never))) {
    const navigator = host.navigation ?? createBrowserNavigator(win);
    if (navigation.post) navigator.postForm(navigation.url, navigation.fields);
    else navigator.assign(navigation.url);
  }
  return true;
}
