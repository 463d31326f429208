/**
 * The element's payment code, loaded on demand by the first module (`wallet-pay-button.ts`): the flow
 * and everything it needs (booking client, session store, URL checks, the settings check), the set-up
 * check, the kept-booking and paid-order logic, the panels (drawn with Lit's templates, which come with
 * this module), the words of each state and the English texts. A page that only shows the button
 * never runs any of it.
 */
import type { ReactiveController, ReactiveElement } from '@lit/reactive-element';
import { html, nothing, type TemplateResult } from 'lit/html.js';
import type { FlowState } from '../core/flow/index.js';
import type { KeptBooking } from '../core/session-store.js';
import type { HandoffStatus } from './handoff/index.js';
import { isCrossOriginFramed } from '../core/frame.js';
import { readSettings, type SettingsResult } from '../core/settings.js';
import { checkProviderUrl, storeListingUrl, storePlatform } from '../core/urls.js';
import { browserWay } from '../core/open-in-browser.js';
import { inAppPanel, type CopyState } from './inapp-panel.js';
import { statusKey } from './messages.js';
import { PaymentController } from './payment-controller.js';
import { VARIANTS, misspelledAttributes, oneOf, report } from './setup-check.js';
import { diagnoseReturnPage } from './diagnostics.js';
import { askPaid } from './order-check.js';
import type { StringKey, StringTable } from './i18n/index.js';
import type { PaymentElement } from './host.js';
import { LABELS, langOf } from './i18n/lang.js';
import { ChunkError, chunkLoader, reloadPage, reportMissing } from './chunk.js';
import { Load } from './load.js';
import type { EnvironmentSignals } from '../core/environment.js';

/** The hand-off's module (QR encoder, panel, its texts), loaded when a hand-off first shows. */
type HandoffModule = typeof import('./handoff/index.js');
const loadHandoff = chunkLoader((): Promise<HandoffModule> => import('./handoff/index.js'), (module) => typeof module.handoffPanel === 'function');

export { reportsSettled } from './setup-check.js';
/** Draws what a payment renders into the element's shadow root: Lit's `render`, which comes with this module. */
export { render as draw } from 'lit/html.js';
export { TEXTS_EN } from './i18n/en/messages.js';

/**
 * Reads and checks `host`'s settings with the page's `signals` of the moment: the check the element's
 * settings controller plugs in once this module is in.
 */
export function readHost(host: PaymentElement, signals: EnvironmentSignals): SettingsResult {
  const win = host.ownerDocument.defaultView!;
  return readSettings(host, {
    pageUrl: win.location.href,
    // Relative settings resolve like the page's own links and requests: against its base URL.
    baseUrl: host.ownerDocument.baseURI,
    signals,
    framed: isCrossOriginFramed(win),
  });
}

/** The attribute names of the element's settings, as its class declares them. */
function attributeNames(host: PaymentElement): string[] {
  return [...(host.constructor as typeof ReactiveElement).elementProperties].flatMap(([name, options]) =>
    'attribute' in options ? (typeof options.attribute === 'string' ? [options.attribute] : []) : [String(name).toLowerCase()],
  );
}

/**
 * Checks `host`'s whole set-up against `read`, one console warning per problem, each once per page:
 * for each result of the element's settings controller. Before a press (`onPaid` given), also asks
 * the shop's server whether the order is paid already; `onPaid` runs when it is.
 */
export function checkSetup(host: PaymentElement, read: SettingsResult, onPaid?: () => void): void {
  diagnoseReturnPage(host, read.ok ? read.settings.storageKey : read.storageKey);
  if (onPaid) askPaid(host, read, onPaid);
  void report([
    ...(read.ok ? [] : read.problems.map(({ message }) => ({ kind: 'problem' as const, message }))),
    ...oneOf('variant', host.variant, VARIANTS, 'dark'),
    ...oneOf('label', host.label ?? 'pay', LABELS, 'pay'),
    ...misspelledAttributes(host.getAttributeNames(), attributeNames(host)),
  ]);
}

/** What the element gives its payment. */
export interface PaymentOptions {
  /** Makes the element's `loadsSettled` wait for a load (the hand-off's module). */
  track?: <T>(work: Promise<T>) => Promise<T>;
  /** Has the element's settings controller read the settings of this moment and configure this payment. */
  read?: () => void;
  /** The funnel the element began when it showed the button. */
  funnel?: { id: string; at: number } | undefined;
}

/** One element's payment: its flow, the settings it is handed, the set-up check, and what it shows. */
export class Payment implements ReactiveController {
  readonly #host: PaymentElement;
  readonly #controller: PaymentController;
  readonly #track: <T>(work: Promise<T>) => Promise<T>;
  readonly #read: () => void;
  /** The hand-off's module: asked for the first time a hand-off shows; "Try again" asks again after a failure. */
  readonly #handoff = new Load<HandoffModule>();
  /** The in-app panel's copy of the page's address, for the booking it was made for. */
  #copied: [string, CopyState] | null = null;
  /** Whether the hand-off panel showed, and had focus, before this update. */
  #panelShown = false;
  #panelFocused = false;

  constructor(host: PaymentElement, { track = (work) => work, read = () => {}, funnel }: PaymentOptions = {}) {
    this.#host = host;
    this.#track = track;
    this.#read = read;
    this.#controller = new PaymentController(host, funnel);
    host.addController(this);
  }

  /**
   * The element's settings, read when one changed, when it was attached, or at a press: the set-up
   * check warns about each problem, and the flow keeps them (and looks for its way back, see
   * `PaymentFlow.configure`).
   */
  configure(read: SettingsResult): void {
    checkSetup(this.#host, read);
    this.#controller.configure(read);
  }

  hostUpdate(): void {
    const { name, booking } = this.state;
    if (booking?.handoff && (name === 'handoff' || name === 'handoff-expired' || name === 'stalled') && this.#handoff.status === 'initial') this.#loadHandoff();
    const panel = this.#panel();
    this.#panelShown = !!panel;
    this.#panelFocused = !!panel?.matches(':focus-within');
  }

  /** Focus follows the hand-off: into its panel when it opens, back to the pay button when it closes. */
  hostUpdated(): void {
    const panel = this.#panel();
    if (panel && !this.#panelShown) panel.focus();
    else if (!panel && this.#panelFocused) this.#host.renderRoot.querySelector<HTMLElement>('.button')?.focus();
  }

  #panel(): HTMLElement | null {
    return this.#host.renderRoot.querySelector<HTMLElement>('.handoff');
  }

  /** The shopper chose "Pay with the app on your phone" (with the settings configured at that press). */
  handOff(): void {
    this.#controller.flow.handOff();
  }

  /** The flow's state. */
  get state(): FlowState {
    return this.#controller.state;
  }

  /** The shopper pressed the button (with the settings configured at that press). */
  start(): void {
    this.#controller.flow.start();
  }

  /**
   * What `state` shows in `t`'s words, for the element to draw: the status region's text, and the
   * choices after the element's own parts (nothing while `t` is not complete yet). Draws nothing itself.
   */
  render(state: FlowState, t: StringTable | undefined): { status: string; panel: TemplateResult | typeof nothing } {
    const key = t && statusKey(state);
    return { status: key ? t[key] : '', panel: t ? this.#choices(state, t) : nothing };
  }

  /** Asks for the hand-off's module (again, after a failure); the element draws again when it settles. */
  #loadHandoff(): void {
    const host = this.#host;
    this.#track(
      this.#handoff.ask(loadHandoff).then(
        (module) => module.adoptHandoffStyles(host.renderRoot as ShadowRoot),
        (error: unknown) => {
          if (error instanceof ChunkError && error.failure === 'missing') reportMissing(host, error);
        },
      ),
    );
    host.requestUpdate();
  }

  #choices({ name, booking, canRetry, canStartAgain, paidUrl, error }: FlowState, t: StringTable): TemplateResult | typeof nothing {
    if (name === 'idle') return nothing;
    if (name === 'paid') {
      return paidUrl ? html`<a part="action see-order" class="action" href=${paidUrl}>${t['action.see-order']}</a>` : nothing;
    }
    const flow = this.#controller.flow;
    if (booking?.handoff && (name === 'handoff' || name === 'handoff-expired' || name === 'stalled')) {
      return this.#handoffPanel(booking, name === 'handoff' ? 'waiting' : name === 'stalled' ? 'stalled' : 'expired', t);
    }
    const host = this.#host;
    if (name === 'inapp' && booking) return this.#inApp(booking, t);
    const action = (part: string, key: StringKey, run: () => void) => html`
      <button part="action ${part}" class="action" type="button" @click=${run}>${t[key]}</button>
    `;
    // A booking the shop could not find is checked again before anything else is offered.
    if (name === 'error' && canRetry && error?.kind === 'booking-unconfirmed') return action('check-again', 'action.check-again', () => flow.retry());
    if (name === 'error' && canRetry) return action('retry', 'action.retry', () => flow.retry());
    if (name === 'error' && canStartAgain) return action('start-again', 'action.start-again', () => (this.#read(), flow.startAgain()));
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

  /**
   * The in-app browser's ways forward for `booking`: its deeplink checked again (kept bookings come
   * back from storage) before it becomes a link, and the way to the phone's own browser.
   */
  #inApp(booking: KeptBooking, t: StringTable): TemplateResult {
    const host = this.#host;
    const win = host.ownerDocument.defaultView!;
    const flow = this.#controller.flow;
    const deeplink = checkProviderUrl(booking.deeplink, booking.settings.allowedHosts);
    const copied = this.#copied?.[0] === booking.booking_id ? this.#copied[1] : null;
    const copy = (url: string) => {
      const done = (state: CopyState) => {
        this.#copied = [booking.booking_id, state];
        if (state === 'copied') flow.left('browser');
        host.requestUpdate();
        // The address to copy by hand gets the focus (and is selected), ready for the system's copy menu.
        if (state === 'manual') void host.updateComplete.then(() => host.renderRoot.querySelector<HTMLInputElement>('.copy-field')?.focus());
      };
      // The Clipboard API needs a secure context and may refuse: the address is then shown to copy by hand.
      Promise.resolve()
        .then(() => win.navigator.clipboard.writeText(url))
        .then(() => done('copied'), () => done('manual'));
    };
    return inAppPanel(
      { deeplink: deeplink.ok ? deeplink.url : null, way: browserWay(win.location.href, win.navigator.userAgent), copied },
      { payOnWeb: () => flow.payOnWeb(), cancel: () => flow.cancel(), left: (to) => flow.left(to), copy },
      t,
    );
  }

  /** The hand-off's panel, once its module is in (asked for here, the first time one shows). */
  #handoffPanel(booking: KeptBooking, status: HandoffStatus, t: StringTable): TemplateResult | typeof nothing {
    const host = this.#host;
    const { value: module, status: load, failure } = this.#handoff;
    const flow = this.#controller.flow;
    if (!module) {
      if (load === 'error') {
        // Offline, say: the payment goes on (the page still checks it); the code comes on "Try again".
        // A missing file is the shop's set-up, and only a reload repeats a load the engine holds failed.
        return html`<div part="panel" class="panel" role="group" aria-label=${t['panel.label']}>
          <p class="status">${t[`error.${failure!}`]}</p>
          ${failure === 'network'
            ? html`<button part="action retry" class="action" type="button" @click=${() => this.#loadHandoff()}>${t['action.retry']}</button>`
            : failure === 'reload'
              ? html`<button part="action reload" class="action" type="button" @click=${() => reloadPage(host)}>${t['action.reload']}</button>`
              : nothing}
          <button part="action pay-on-web" class="action" type="button" @click=${() => flow.payOnWeb()}>${t['action.pay-on-web']}</button>
          <button part="action cancel" class="action" type="button" @click=${() => flow.cancel()}>${t['action.cancel']}</button>
        </div>`;
      }
      return nothing;
    }
    // Kept bookings come back from storage: checked again, against their own settings, before they become a code.
    const deeplink = checkProviderUrl(booking.deeplink, booking.settings.allowedHosts);
    if (!deeplink.ok) return nothing;
    return module.handoffPanel(
      { deeplink: deeplink.url, status },
      { useComputer: () => flow.payOnWeb(), cancel: () => flow.cancel(), newCode: () => flow.newCode(), checkAgain: () => flow.checkAgain() },
      module.handoffStringsFor(langOf(host), host.strings),
    );
  }
}
