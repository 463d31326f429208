/**
 * The ways forward inside a third-party in-app browser (Facebook's, Instagram's, TikTok's, ...), drawn
 * on the page instead of any script-made navigation: there, a script that navigates to an app link
 * just loads the link's web page. "Pay on the web" is always offered; the wallet app by a real link
 * the shopper taps (no redirect hop); the phone's own browser by the link the platform honours, else
 * by copying the page's address. Never the desktop's code for a phone: the shopper is on the phone.
 */
import { html, nothing, type TemplateResult } from 'lit/html.js';
import type { LeftFor } from '../core/flow/index.js';
import type { BrowserWay } from '../core/open-in-browser.js';
import type { StringTable } from './i18n/index.js';
import { action } from './action.js';

/** Whether the page's address was copied, or must be copied by hand (no clipboard, or it refused). */
export type CopyState = 'copied' | 'manual' | null;

/** What the panel's actions do. */
interface InAppActions {
  payOnWeb(): void;
  cancel(): void;
  left(to: LeftFor): void;
  copy(url: string): void;
}

/** What the panel shows: the checked deeplink (or none), the way to the browser, the copy state. */
interface InAppView {
  deeplink: URL | null;
  way: BrowserWay;
  copied: CopyState;
}

/** The in-app panel (part `panel inapp`). */
export function inAppPanel({ deeplink, way, copied }: InAppView, actions: InAppActions, t: StringTable): TemplateResult {
  return html`
    <div part="panel inapp" class="panel" role="group" aria-label=${t['panel.label']}>
      ${action('pay-web', t['action.pay-web'], actions.payOnWeb)}
      ${deeplink
        ? html`<a part="action open-app" class="action" href=${deeplink.href} @click=${() => actions.left('app')}>${t['action.open-app']}</a>`
        : nothing}
      ${way?.kind === 'link'
        ? html`<a part="action open-browser" class="action" href=${way.href} @click=${() => actions.left('browser')}>${t['action.open-browser']}</a>`
        : way
          ? action('copy-link', t['action.copy-link'], () => actions.copy(way.url))
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
