/**
 * The in-app browser's chunk: the secondary ways forward inside a third-party in-app browser
 * (Facebook's, Instagram's, TikTok's, ...). The other end of its escape, the continuation address
 * opened in the phone's own browser, is inapp-continue.ts's.
 *
 * The panel shows while the page follows a booking made there (the element's own button, "Pay on the
 * web", is the primary way): the wallet app by a real link the shopper taps (a script that navigates
 * to an app link there just loads the link's web page), the phone's own browser by the link the
 * platform honours or by copying, and "Cancel". The way to the browser carries the booking, not the
 * page: its address is the continuation of this booking (continuation.ts), which the other browser's
 * element resumes without the in-app browser's cookies, while this page keeps following the booking.
 * Never the desktop's code for a phone: the shopper is on the phone.
 *
 * A chunk of its own (with the table of ways out, open-in-browser.ts): the payment code imports it
 * when the panel first shows, so only a shopper in an in-app browser downloads it.
 */
import { html, nothing, type TemplateResult } from 'lit/html.js';
import type { PaymentFlow } from '../core/flow/index.js';
import { browserWay, continuationAddress } from '../core/open-in-browser.js';
import type { KeptBooking } from '../core/session-store.js';
import { checkProviderUrl } from '../core/urls.js';
import { action } from './action.js';
import type { PaymentElement } from './host.js';
import type { StringTable } from './i18n/index.js';

/** Whether the continuation was copied, or must be copied by hand (no clipboard, or it refused). */
export type CopyState = 'copied' | 'manual' | null;

/** Each element's copy state, for the booking it was made for. */
const copies = new WeakMap<PaymentElement, [bookingId: string, state: CopyState]>();

/**
 * The continuation address of `booking` on the page in `win`: its web payment, else its deeplink, with
 * its ids and receipt; the page's own address when the booking carries neither or the page has none.
 */
export function escapeAddress(win: Window, booking: KeptBooking): string {
  const { booking_id, correlation_id, receipt, web_payment, deeplink } = booking;
  const way = web_payment ? { web_payment } : deeplink ? { deeplink } : null;
  return (way && continuationAddress(win.location.href, { booking_id, correlation_id, ...(receipt && { receipt }), ...way })) || win.location.href;
}

/**
 * The in-app panel (part `panel inapp`) of `host` for `booking`, the one its page follows: the
 * secondary ways only, outlined under the element's filled button. The booking's deeplink is checked
 * again (kept bookings come back from storage) before it becomes a link; the way to the phone's
 * browser comes from the continuation address and the user agent.
 */
export function inAppPanel(host: PaymentElement, booking: KeptBooking, flow: PaymentFlow, t: StringTable): TemplateResult {
  const win = host.ownerDocument.defaultView!;
  const deeplink = checkProviderUrl(booking.deeplink, booking.settings.allowedHosts);
  const way = browserWay(escapeAddress(win, booking), win.navigator.userAgent);
  const kept = copies.get(host);
  const copied = kept?.[0] === booking.booking_id ? kept[1] : null;
  const done = (state: CopyState) => {
    copies.set(host, [booking.booking_id, state]);
    if (state === 'copied') flow.left('browser');
    host.requestUpdate();
    // The address to copy by hand gets the focus (and is selected), ready for the system's copy menu.
    if (state === 'manual') void host.updateComplete.then(() => host.renderRoot.querySelector<HTMLInputElement>('.copy-field')?.focus());
  };
  // The Clipboard API needs a secure context and may refuse: the address is then shown to copy by hand.
  const copy = (url: string) =>
    Promise.resolve()
      .then(() => win.navigator.clipboard.writeText(url))
      .then(
        () => done('copied'),
        () => done('manual'),
      );
  // Divs, not paragraphs: no margins beside the panel's own gap. The live region exists before it
  // speaks; empty, it adds no space between the actions, so it comes last, with the address to copy.
  return html`
    <div part="panel inapp" class="panel" role="group" aria-labelledby="inapp-label">
      <div id="inapp-label" class="note">${t['panel.label']}</div>
      ${deeplink.ok
        ? html`<a part="action open-app" class="action" href=${deeplink.url.href} @click=${() => flow.left('app')}>${t['action.open-app']}</a>`
        : nothing}
      ${way?.kind === 'link'
        ? html`<a part="action open-browser" class="action" href=${way.href} @click=${() => flow.left('browser')}>${t['action.open-browser']}</a>`
        : way
          ? action('copy-link', t['action.copy-link'], () => copy(way.url))
          : nothing}
      ${action('cancel', t['action.cancel'], () => flow.cancel())}
      <div class="note" aria-live="polite">${copied === 'copied' ? t['status.link-copied'] : copied === 'manual' ? t['status.copy-manually'] : nothing}</div>
      ${copied === 'manual' && way
        ? html`<input part="copy-field" class="copy-field" readonly .value=${way.url} aria-label=${t['action.copy-link']} @focus=${(event: Event) => (event.target as HTMLInputElement).select()} />`
        : nothing}
    </div>
  `;
}
