/**
 * The legs of a payment that leave this page or hand it on, once a booking answered: to the
 * provider's web page, to the wallet app, to the shopper's phone (the hand-off's code), or to the
 * app around a WebView. Every provider address is
 * checked against the allowed hosts first; a refused one ends the attempt and cancels its booking.
 */
import type { WebPaymentInstruction } from '../../protocol/contract.js';
import type { KeptBooking } from '../session-store.js';
import type { BookedAttempt } from '../strategies.js';
import { checkProviderUrl } from '../urls.js';
import { cancelQuietly, refusedUrlMessage, webPaymentNavigation, webviewEvent, type Attempt } from './booking.js';
import { clientFor, fail, keep, live, setState, step, type FlowContext } from './context.js';
import type { Run } from './runs.js';
import { waitFor } from './waiting.js';

/**
 * Checks a provider URL; a refused one ends the attempt with an error and `null`. The booking it
 * came with is cancelled (best effort): it must not stay open at the service until it expires.
 */
export function checked(ctx: FlowContext, run: Run, kept: KeptBooking, raw: string | undefined): URL | null {
  if (!live(ctx, run)) return null;
  const { allowedHosts, storageKey } = kept.settings;
  const check = checkProviderUrl(raw, allowedHosts);
  if (check.ok) return check.url;
  cancelQuietly(clientFor(ctx, kept.settings), kept);
  // That booking is over: trying again is a new attempt, with a new key.
  ctx.attempt = null;
  ctx.deps.store.setAttempt(storageKey, null);
  ctx.retry = () => ctx.again.pay(kept.settings, false);
  fail(ctx, 'url-refused', refusedUrlMessage(raw, check.reason, kept), { extra: { reason: check.reason, url: raw ?? '' }, canRetry: true });
  return null;
}

/** The booking answered a web payment: the shopper leaves for the provider's page. */
export function followWebPayment(ctx: FlowContext, run: Run, { kept, result }: BookedAttempt): void {
  kept.web_payment = result.web_payment!;
  navigateWebPayment(ctx, run, kept, kept.web_payment);
}

/**
 * Leaves for `kept`'s web payment (its address checked, also when it comes back from storage), as a
 * GET or a form POST, unless the host routes itself (it cancelled the `navigate` event).
 */
export function navigateWebPayment(ctx: FlowContext, run: Run, kept: KeptBooking, instruction: WebPaymentInstruction): void {
  const url = checked(ctx, run, kept, instruction.url);
  if (!url) return;
  keep(ctx, kept);
  const navigation = webPaymentNavigation(url, instruction, kept.booking_id);
  setState(ctx, 'redirecting', kept);
  step(ctx, 'left', { booking_id: kept.booking_id, to: 'web' }, kept);
  // A host that routes itself keeps the element usable; the kept booking answers the next press.
  if (!ctx.deps.emit(navigation.event)) setState(ctx, 'idle', null);
  else if (navigation.post) ctx.deps.navigator().postForm(navigation.url, navigation.fields);
  else ctx.deps.navigator().assign(navigation.url);
}

/** Opens the wallet app at the booking's deeplink and, if the page is still visible later, offers the fallback panel. */
export function openApp(ctx: FlowContext, run: Run, { kept, result }: BookedAttempt): void {
  const checkedUrl = checked(ctx, run, kept, result.deeplink);
  if (!checkedUrl) return;
  const url = (kept.deeplink = checkedUrl.href);
  keep(ctx, kept);
  setState(ctx, 'opening-app', kept);
  step(ctx, 'left', { booking_id: kept.booking_id, to: 'app' }, kept);
  // Synchronously after the booking's answer: still inside the click's activation window.
  if (ctx.deps.emit({ type: 'navigate', reason: 'app', url, method: 'GET', booking_id: kept.booking_id })) {
    ctx.deps.navigator().openApp(url);
  }
  ctx.runs.later(run, ctx.deps.timings().fallbackDelayMs, () => {
    // Hidden means the app (probably) took over; the way back is resume(), not a panel.
    if (ctx.state.name === 'opening-app' && ctx.deps.isVisible()) setState(ctx, 'app-fallback', kept);
  });
}

/**
 * The hand-off's code shows (its deeplink checked like any provider URL) and this page checks the
 * booking's status with the usual backoff while the shopper pays on the phone.
 */
export function showCode(ctx: FlowContext, run: Run, { kept, result }: BookedAttempt): void {
  const url = checked(ctx, run, kept, result.deeplink);
  if (!url) return;
  kept.deeplink = url.href;
  keep(ctx, kept);
  step(ctx, 'left', { booking_id: kept.booking_id, to: 'phone' }, kept);
  waitFor(ctx, run, kept, 'BOOKED', 0);
}

/**
 * Offers the payment to a host app (the cancelable `webview` event). Taken: nothing more here. Not
 * taken: the in-app path goes on, when the settings allow a booking; else the set-up is named.
 */
export function handOver(ctx: FlowContext, attempt: Attempt): boolean {
  const { settings } = attempt;
  if (!ctx.deps.emit(webviewEvent(settings))) {
    ctx.attempt = null;
    setState(ctx, 'webview', null);
    return true;
  }
  if (settings.endpoint && settings.allowedHosts.length && Object.keys(settings.order).length) return false;
  ctx.attempt = null;
  ctx.retry = null;
  fail(ctx, 'config', 'No host app took the payment (no preventDefault() on wallet-pay-webview), and endpoint, order-id or allowed-hosts is missing to pay in this browser.');
  return true;
}
