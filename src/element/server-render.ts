/**
 * The button's first render as HTML, for the server to write into the page: the element with its
 * shadow root as Declarative Shadow DOM (`<template shadowrootmode="open">`, the styles inside), so the
 * browser paints the pay button, at its final size, from the HTML alone. When the element's script
 * arrives, the element adopts that shadow root and renders the same markup into it: nothing moves. A
 * short inline script (optional) remembers a press made before then and makes it again on the
 * element's own button once it is defined, so a click on a button that is not live yet starts the
 * payment instead of doing nothing.
 *
 * DOM-free: runs in Node, edge runtimes and any server that can call JavaScript.
 */
import { detectEnvironment, MOBILE_MAX_WIDTH } from '../core/environment.js';
import { isRenderedAttribute } from './attribute-names.js';
import { LABELS_EN } from './i18n/en/labels.js';
import { LABELS_NE } from './i18n/ne/labels.js';
import { isNepali, wordingOf } from './i18n/lang.js';
import { styles } from './styles.js';
import { orderWallets } from './wallets.js';

/** An attribute's value: a string or number is written; `true` writes the bare attribute; `false`, `null` and `undefined` leave it out. */
export type AttributeValue = string | number | boolean | null | undefined;

/** Options of {@link renderWalletPayButton}. */
export interface RenderOptions {
  /**
   * The shopper's user agent (the request's `User-Agent` header). With `environment` unset or `auto`,
   * the element shows the desktop's "Pay with the app on your phone" under the button on a desktop
   * only; given the user agent, the first render makes the same choice, so the offer does not appear
   * (or go) when the script arrives (a phone's user agent gets the offer hidden on a narrow touch
   * screen, shown on a tablet wider than 768 px, as the element does). Without it, the offer is
   * rendered only for `environment="desktop"`.
   */
  userAgent?: string;
  /** The page's language when the element has no `lang` attribute (`ne`: the Nepali texts). */
  lang?: string;
  /**
   * The page's address as the request named it (a path and query will do). On a provider's return
   * address (its query names a `booking_id`, or Khalti's `pidx`) the buttons are written held, in place
   * and invisible, as the element holds them until `/order` says whether the order is paid: a shopper
   * who paid is never shown a pay button, also before the script runs.
   */
  url?: string;
  /** A Content-Security-Policy nonce for the inline `<style>` and `<script>` (a strict page needs one). */
  nonce?: string;
  /**
   * Writes the inline script that keeps a press made before the element's script ran (default `true`).
   * Without it the early press does nothing: leave it on unless the page forbids inline scripts and
   * has no nonce.
   */
  earlyPress?: boolean;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Whether `url` is a provider's return address: the parameters the element's first module reads in
 * the page's query (`isReturnPage` in core/kept.ts; a test holds the two to the same answers).
 */
export function isReturnAddress(url: string): boolean {
  const query = new URL(url, 'http://localhost').searchParams;
  return query.has('booking_id') || query.has('pidx');
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Set on the host while a press made before the element's script ran waits; its value says which
 * button: `pay`, `handoff` (the offer), or a wallet's name (its `button-<wallet>` part).
 */
const EARLY_PRESS_ATTRIBUTE = 'data-early-press';

/**
 * Records a press on a button that is not live yet: once per page, on the document, in the capture
 * phase. The click is retargeted to the host; the shadow path tells the pay button (and its wallet)
 * from the offer.
 * `aria-busy` shows at once that the press was taken (the styles give it a progress cursor and a
 * lighter button, at the same size). Once the element is defined and has rendered, the press is made
 * again on its own button, so it goes the element's ordinary way; the element needs no code for it.
 */
const EARLY_PRESS_SCRIPT =
  `(function(d){if(d.__walletPayEarly)return;d.__walletPayEarly=1;var A='${EARLY_PRESS_ATTRIBUTE}',c=window.customElements;` +
  `d.addEventListener('click',function(e){var t=e.target,h=t&&t.closest&&t.closest('wallet-pay-button');` +
  `if(!h||!c||c.get('wallet-pay-button'))return;` +
  // The first button on the path inside the host; a host without a shadow root (a page with the
  // :not(:defined) rule instead) is its pay button as a whole.
  `var p=e.composedPath?e.composedPath():[t],k=null,i;for(i=0;i<p.length&&p[i]!==h;i++)if(p[i].localName==='button'){k=p[i];break}` +
  `if(k?k.disabled:h.shadowRoot&&t===h)return;var o=!!k&&k.classList.contains('action'),w=h.hasAttribute(A),` +
  `m=k&&/(?:^| )button-(\\S+)/.exec(k.getAttribute('part'));` +
  `h.setAttribute(A,o?'handoff':m?m[1]:'pay');if(k&&!o)k.setAttribute('aria-busy','true');if(w)return;` +
  `c.whenDefined('wallet-pay-button').then(function(){return h.updateComplete}).then(function(){var v=h.getAttribute(A);` +
  `if(v===null)return;h.removeAttribute(A);var b=h.shadowRoot&&h.shadowRoot.querySelector('[part~="'+(v==='handoff'?'pay-on-phone':v==='pay'?'button':'button-'+v)+'"]');` +
  `if(b&&h.isConnected)b.click()})},true)})(document)`;

/**
 * The inline script that keeps a press made before the element's script ran, for a page that writes
 * the tag itself (with the documented `:not(:defined)` rule) instead of {@link renderWalletPayButton}:
 * put it in a `<script>` before the first button. The press is made again on the element's own button
 * once it is defined.
 */
export function earlyPressScript(): string {
  return EARLY_PRESS_SCRIPT;
}

/**
 * The HTML of a `<wallet-pay-button>` with its first render as Declarative Shadow DOM, for the server
 * to write where the button goes. `attributes` are the element's attributes, as on the tag
 * (`{ endpoint: '/api/pay', 'order-id': 'A-1001', 'allowed-hosts': '…' }`); the values are escaped.
 *
 * @throws TypeError when an attribute name is none of the element's own (`order-id`, `allowed-hosts`, …)
 * nor `id`, `class`, `dir`, `hidden`, `title`, `slot`, `data-…` or `aria-…`: an `on…` handler or
 * `style` is refused, whatever its value.
 */
export function renderWalletPayButton(attributes: Readonly<Record<string, AttributeValue>>, options: RenderOptions = {}): string {
  let tagAttributes = '';
  for (const [name, value] of Object.entries(attributes)) {
    if (!isRenderedAttribute(name)) {
      throw new TypeError(
        `renderWalletPayButton: ${JSON.stringify(name)} is not an attribute of <wallet-pay-button>: use the lower-case names of the tag (order-id, allowed-hosts, …), or id, class, dir, hidden, title, slot, data-… and aria-….`,
      );
    }
    if (value === false || value === null || value === undefined) continue;
    tagAttributes += value === true ? ` ${name}` : ` ${name}="${escapeAttribute(String(value))}"`;
  }
  const read = (name: string): string | undefined => {
    const value = attributes[name];
    return value === false || value === null || value === undefined ? undefined : value === true ? '' : String(value);
  };
  const nepali = isNepali(read('lang') ?? options.lang ?? '');
  const label = wordingOf(read('label'));
  const texts = nepali ? LABELS_NE : LABELS_EN;
  const disabled = read('disabled') !== undefined ? ' disabled' : '';
  // The element's own rule for the offer (wallet-pay-button.ts, render()). The user agent says phone,
  // WebView or desktop; a phone's user agent on a viewport wider than 768 px (a tablet) is a desktop to
  // the element, which the server cannot see: the offer is written, and hidden by the same width rule
  // (with touch) that the element applies, so both choose the same first render.
  const environment = read('environment') ?? 'auto';
  const path = (innerWidth: number) => options.userAgent !== undefined && detectEnvironment({ userAgent: options.userAgent, maxTouchPoints: 5, innerWidth });
  const at = (innerWidth: number) => path(innerWidth) === 'desktop';
  // Someone else's in-app browser (the apps' tokens, whatever the width): the button reads "Pay on the
  // web", the one path that completes there, as the element's first render does.
  const inapp = environment === 'inapp' || (environment === 'auto' && path(MOBILE_MAX_WIDTH) === 'inapp');
  const text = texts[inapp ? 'button.pay-web' : (`button.${label}` as const)];
  const desktop = environment === 'desktop' || (environment === 'auto' && at(MOBILE_MAX_WIDTH));
  const wide = !desktop && environment === 'auto' && at(MOBILE_MAX_WIDTH + 1);
  const offer =
    read('phone-handoff') !== 'off' && (desktop || wide)
      ? `<button part="action pay-on-phone" class="action" type="button"${disabled}>${escapeText(texts['handoff.offer'])}</button>`
      : '';
  const nonce = options.nonce === undefined ? '' : ` nonce="${escapeAttribute(options.nonce)}"`;
  // The element's viewport rule (settings-controller.ts) with a touch screen: a phone, no offer.
  const narrow = offer && wide ? `<style${nonce}>@media (max-width: ${MOBILE_MAX_WIDTH}.98px) and (any-pointer: coarse){[part~="pay-on-phone"]{display:none}}</style>` : '';
  const script = options.earlyPress === false ? '' : `<script${nonce}>${EARLY_PRESS_SCRIPT}</script>`;
  // Held on a return address, as the element's first module holds them (visibility, so nothing moves).
  const held = options.url !== undefined && isReturnAddress(options.url) ? `<style${nonce}>.button,[part~="pay-on-phone"]{visibility:hidden}</style>` : '';
  // The element's buttons: with two wallets or more, one per wallet (view.ts) before the one
  // pay button, which hides; else that one alone.
  const wallets = orderWallets(read('wallets'), read('wallet-order'));
  const button = (part: string, content: string, hidden = '') =>
    `<button part="${part}" class="button" type="button"${hidden}${disabled} aria-busy="false" aria-describedby="status">${content}</button>`;
  const buttons =
    wallets.length > 1
      ? wallets.map((wallet) => button(`button button-${wallet}`, `<slot name="logo-${wallet}"></slot>${escapeText(texts[`wallet.${wallet}` as keyof typeof texts])}`)).join('') +
        button('button', `<slot>${escapeText(text)}</slot>`, ' hidden')
      : button('button', `<slot>${escapeText(text)}</slot>`);
  return (
    `<wallet-pay-button${tagAttributes}><template shadowrootmode="open"><style${nonce}>${styles.cssText}</style>` +
    `${held}${buttons}${narrow}${offer}<div id="status" part="status" class="status" role="status"></div></template></wallet-pay-button>${script}`
  );
}
