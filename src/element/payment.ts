/**
 * The element's payment code, loaded on demand by the first module (`wallet-pay-button.ts`): the flow
 * and everything it needs (booking client, session store, URL checks, settings), the panels, the words
 * of each state and the English texts. A page that only shows the button never runs any of it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { FlowState } from '../core/flow.js';
import { isCrossOriginFramed } from '../core/frame.js';
import { readSettings, type SettingsProblem, type SettingsResult } from '../core/settings.js';
import { checkProviderUrl, storeListingUrl, storePlatform } from '../core/urls.js';
import { statusKey } from './messages.js';
import { PaymentController } from './payment-controller.js';
import { misspelledAttributes, warnOnce } from './setup-check.js';
import type { StringKey, StringTable } from './strings.js';
import { LABELS, VARIANTS, WalletPayButton } from './wallet-pay-button.js';

export { TEXTS_EN } from './strings-en.js';

/**
 * A look-only mistake when `value` is not in `list`: warned about, never in the way of a payment (the
 * default look or wording is used instead).
 */
const oneOf = (attribute: string, value: string, list: readonly string[], fallback: string): SettingsProblem[] =>
  list.includes(value)
    ? []
    : [{ kind: 'config', attribute, value, message: `${attribute}="${value}" is not one of: ${list.join(', ')}; the default (${fallback}) is used.` }];

/** The settings of a payment as `host`'s attributes say now, read once when the shopper acts. */
function readHost(host: WalletPayButton): SettingsResult {
  const win = host.ownerDocument.defaultView!;
  return readSettings(host, {
    pageUrl: win.location.href,
    // Relative settings resolve like the page's own links and requests: against its base URL.
    baseUrl: host.ownerDocument.baseURI,
    signals: { userAgent: win.navigator.userAgent, maxTouchPoints: win.navigator.maxTouchPoints, innerWidth: win.innerWidth },
    framed: isCrossOriginFramed(win),
  });
}

/** The attribute names of the element's settings. */
function attributeNames(): string[] {
  return Object.entries(WalletPayButton.properties).flatMap(([name, options]) =>
    'attribute' in options ? (typeof options.attribute === 'string' ? [options.attribute] : []) : [name.toLowerCase()],
  );
}

/**
 * Checks `host`'s whole set-up, one console warning per problem; the element calls it once the
 * payment code is in and whenever a setting changes.
 */
export function checkSetup(host: WalletPayButton, payment: Payment | undefined): void {
  const read = readHost(host);
  // The paid order may not be this one any more (a single-page app moved on).
  if (payment?.state.name === 'paid') payment.resume(read);
  warnOnce([
    ...(read.ok ? [] : read.problems),
    ...oneOf('variant', host.variant, VARIANTS, 'dark'),
    ...oneOf('label', host.label ?? 'pay', LABELS, 'pay'),
    ...misspelledAttributes(host.getAttributeNames(), attributeNames()),
  ]);
}

/** One element's payment: its flow, the settings it reads when the shopper acts, and what it shows. */
export class Payment {
  readonly #host: WalletPayButton;
  readonly #controller: PaymentController;

  constructor(host: WalletPayButton) {
    this.#host = host;
    this.#controller = new PaymentController(host, () => readHost(host));
  }

  /** The flow's state. */
  get state(): FlowState {
    return this.#controller.state;
  }

  /** The shopper pressed the button. */
  start(): void {
    this.#controller.flow.start(readHost(this.#host));
  }

  /** Asks again where the payment stands, with the settings of the moment. */
  resume(read: SettingsResult): void {
    this.#controller.flow.resume(read);
  }

  /** The status region's text and the choices of the current state, in `t`'s words. */
  view(t: StringTable): [string | typeof nothing, TemplateResult | typeof nothing] {
    const state = this.state;
    const key = statusKey(state);
    return [key ? t[key] : nothing, this.#choices(state, t)];
  }

  #choices({ name, booking, canRetry, canStartAgain, paidUrl }: FlowState, t: StringTable): TemplateResult | typeof nothing {
    if (name === 'idle') return nothing;
    if (name === 'paid') {
      return paidUrl ? html`<a part="action see-order" class="action" href=${paidUrl}>${t['action.see-order']}</a>` : nothing;
    }
    const flow = this.#controller.flow;
    const host = this.#host;
    const action = (part: string, key: StringKey, run: () => void) => html`
      <button part="action ${part}" class="action" type="button" @click=${run}>${t[key]}</button>
    `;
    if (name === 'error' && canRetry) return action('retry', 'action.retry', () => flow.retry());
    if (name === 'error' && canStartAgain) return action('start-again', 'action.start-again', () => flow.startAgain(readHost(host)));
    const stalled = name === 'stalled';
    if (!booking || (!stalled && name !== 'app-fallback' && name !== 'pending')) return nothing;
    const app = !stalled && booking.channel === 'app';
    const nav = host.ownerDocument.defaultView!.navigator;
    // Kept bookings come back from storage: checked again, against their own settings, before they become a link.
    const deeplink = app && checkProviderUrl(booking.deeplink, booking.settings.allowedHosts);
    const store = app && storeListingUrl(storePlatform(nav.userAgent), host.androidPackage, host.iosAppId);
    return html`
      <div part="panel" class="panel" role="group" aria-label=${t['panel.label']}>
        ${deeplink && deeplink.ok
          ? html`<a part="action open-app" class="action" href=${deeplink.url.href}>${t['action.open-app']}</a>`
          : nothing}
        ${store
          ? html`<a part="action get-app" class="action" href=${store} target="_blank" rel="noopener">${t['action.get-app']}</a>`
          : nothing}
        ${stalled ? action('check-again', 'action.check-again', () => flow.checkAgain()) : nothing}
        ${app ? action('pay-on-web', 'action.pay-on-web', () => flow.payOnWeb()) : nothing}
        ${!stalled && booking.web_payment ? action('continue-web', 'action.continue-web', () => flow.continueWebPayment()) : nothing}
        ${action('cancel', 'action.cancel', () => flow.cancel())}
      </div>
    `;
  }
}
