/**
 * The ways forward inside a third-party in-app browser (Facebook's, Instagram's, TikTok's, ...), drawn
 * on the page instead of any script-made navigation: there, a script that navigates to an app link
 * just loads the link's web page. "Pay on the web" is always offered; the wallet app by a real link
 * the shopper taps (no redirect hop); the phone's own browser by the link the platform honours, else
 * by copying the page's address. Never the desktop's code for a phone: the shopper is on the phone.
 *
 * A chunk of its own (with the table of ways out, open-in-browser.ts): the payment code imports it
 * when the panel first shows, so only a shopper in an in-app browser downloads it.
 */
import { html, nothing, type TemplateResult } from 'lit/html.js';
import type { LeftFor } from '../core/flow/index.js';
import { browserWay } from '../core/open-in-browser.js';
import type { StringTable } from './i18n/index.js';
import { action } from './action.js';

/** Whether the page's address was copied, or must be copied by hand (no clipboard, or it refused). */
export type CopyState = 'copied' | 'manual' | null;

/** What the panel's actions do. */
export interface InAppActions {
  payOnWeb(): void;
  cancel(): void;
  left(to: LeftFor): void;
  /** The page's address was copied (`copied`), or the clipboard refused it (`manual`). */
  copied(state: CopyState): void;
}

/** What the panel shows: the checked deeplink (or none) and the copy state. */
export interface InAppView {
  deeplink: URL | null;
  copied: CopyState;
}

/**
 * The in-app panel (part `panel inapp`) for the page in `win`: its way to the phone's browser comes
 * from the page's address and user agent.
 */
export function inAppPanel(win: Window, { deeplink, copied }: InAppView, actions: InAppActions, t: StringTable): TemplateResult {
  const way = browserWay(win.location.href, win.navigator.userAgent);
  // The Clipboard API needs a secure context and may refuse: the address is then shown to copy by hand.
  const copy = (url: string) =>
    Promise.resolve()
      .then(() => win.navigator.clipboard.writeText(url))
      .then(
        () => actions.copied('copied'),
        () => actions.copied('manual'),
      );
  return html`
    <div part="panel inapp" class="panel" role="group" aria-label=${t['panel.label']}>
      ${action('pay-web', t['action.pay-web'], actions.payOnWeb)}
      ${deeplink
        ? html`<a part="action open-app" class="action" href=${deeplink.href} @click=${() => actions.left('app')}>${t['action.open-app']}</a>`
        : nothing}
      ${way?.kind === 'link'
        ? html`<a part="action open-browser" class="action" href=${way.href} @click=${() => actions.left('browser')}>${t['action.open-browser']}</a>`
        : way
          ? action('copy-link', t['action.copy-link'], () => copy(way.url))
          : nothing}
      <p class="note" aria-live="polite">
        ${copied === 'copied' ? t['status.link-copied'] : copied === 'manual' ? t['status.copy-manually'] : nothing}
      </p>
      ${copied === 'manual' && way
        ? html`<input part="copy-field" class="copy-field" readonly .value=${way.url} aria-label=${t['action.copy-link']} @focus=${(event: Event) => (event.target as HTMLInputElement).select()} />`
        : nothing}
      ${action('cancel', t['action.cancel'], actions.cancel)}
    </div>
  `;
}
