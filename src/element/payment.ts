/**
 * The element's payment code, loaded on demand by the first module (`wallet-pay-button.ts`): the flow
 * and everything it needs (booking client, session store, URL checks, the settings check), the set-up
 * check, the kept-booking and paid-order logic, the panels (drawn with Lit's templates, which come with
 * this module), the words of each state and the English texts. A page that only shows the button
 * never runs any of it.
 */
import type { ReactiveController, ReactiveElement } from '@lit/reactive-element';
import { html, nothing, type TemplateResult } from 'lit/html.js';
import { createBookingClient } from '../core/booking-client.js';
import { systemClock, type Clock } from '../core/clock.js';
import { IDLE_STATE, PaymentFlow, DEFAULT_TIMINGS, type FlowState } from '../core/flow/index.js';
import { CONTINUATION_PREFIX, sessionStorageOf } from '../core/kept.js';
import { createBrowserNavigator, type PageNavigator } from '../core/navigator.js';
import { createBookingStore, hasKeptBooking, isPaidHere, type KeptBooking } from '../core/session-store.js';
import { WalletPayEvent } from './events.js';
import { diagnoseFlowEvent, watchEndpoint } from './diagnostics.js';
import type { HandoffStatus } from './handoff/index.js';
import { isCrossOriginFramed } from '../core/frame.js';
import { readSettings, type SettingsResult } from '../core/settings.js';
import { checkProviderUrl, storeListingUrl, storePlatform } from '../core/urls.js';
import { action } from './action.js';
import { statusKey } from './status-keys.js';
import { VARIANTS, misspelledAttributes, oneOf, report, reportsSettled, type Notice } from './setup-check.js';
import { draw, view } from './view.js';
import { TEXTS_EN } from './i18n/en/texts.js';
import { WALLETS, names, orderWallets } from './wallets.js';
import { diagnoseReturnPage } from './diagnostics.js';
import { REQUEST_TIMEOUT_MS, askPaid } from './order-check.js';
import type { StringKey, StringTable } from './i18n/index.js';
import type { PaymentElement } from './host.js';
import { LABELS, langOf } from './i18n/lang.js';
import { chunkLoader, type ChunkFailure } from './chunk.js';
import { Load } from './load.js';
import type { EnvironmentSignals } from '../core/environment.js';
import type { SettingsController } from './settings-controller.js';

/** The hand-off's module (QR encoder, panel, its texts), loaded when a hand-off first shows. */
type HandoffModule = typeof import('./handoff/index.js');
const loadHandoff = chunkLoader((): Promise<HandoffModule> => import('./handoff/index.js'), (module) => typeof module.handoffPanel === 'function');
/** The in-app browser's panel and ways out, loaded when the panel first shows. */
type InAppModule = typeof import('./inapp-panel.js');
const loadInApp = chunkLoader((): Promise<InAppModule> => import('./inapp-panel.js'), (module) => typeof module.inAppPanel === 'function');

export { reportsSettled, draw, view, TEXTS_EN };

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

/**
 * Checks `host`'s whole set-up against `read`, one console warning per problem, each once per page:
 * for each result of the element's settings controller. Before a press (`onPaid` given), also asks
 * the shop's server whether the order is paid already, and hands `onPaid` the answer.
 */
export function checkSetup(host: PaymentElement, read: SettingsResult, onPaid?: (paid: boolean) => void): void {
  diagnoseReturnPage(host, read.ok ? read.settings.storageKey : read.storageKey);
  if (onPaid) askPaid(host, read, onPaid);
  void report([
    ...(read.ok ? [] : read.problems.map(({ message }) => ({ kind: 'problem' as const, message }))),
    ...oneOf('variant', host.variant, VARIANTS, 'dark'),
    ...oneOf('label', host.label ?? 'pay', LABELS, 'pay'),
    // The attribute names of the element's settings, as its class declares them (Lit's own list).
    ...misspelledAttributes(host.getAttributeNames(), (host.constructor as typeof ReactiveElement).observedAttributes),
    ...walletNotices(host.getAttribute('wallets'), host.getAttribute('wallet-order')),
  ]);
}

/**
 * The names of `wallets` the element has no words for, and those of `order` (`wallet-order`) that
 * `wallets` does not offer: each is ignored, and said once, naming the wallets it knows (or offers).
 */
export function walletNotices(wallets: string | null, order: string | null): Notice[] {
  const offered = orderWallets(wallets);
  return [
    ...names(wallets)
      .filter((name) => !WALLETS.includes(name))
      .map((name): Notice => ({ kind: 'wallet', name, known: WALLETS })),
    ...names(order)
      .filter((name) => !offered.includes(name))
      .map((name): Notice => ({ kind: 'wallet-order', name, offered })),
  ];
}

/**
 * What the element's first module shares with its payment code: its settings reader and hooks, set
 * there; the payment, built here. The glue between the two lives here, so the first module stays small.
 */
export interface PaymentLink {
  /** The element's one reader of its settings. */
  readonly settings: SettingsController;
  /** Makes the element's `loadsSettled` wait for a load. */
  readonly track: <T>(work: Promise<T>) => Promise<T>;
  /** The order is paid already (`true`: the payment is built, to show it), or not, or no answer came: a hold ends. */
  readonly paid: (paid?: boolean) => void;
  /** The funnel the element began when it showed the button. */
  funnel?: { id: string; at: number } | undefined;
  /** Takes a press of the pay button (`wallet`'s, if any) or of the offer to pay on the phone (`handoff` true). */
  readonly press: (handoff?: boolean, wallet?: string) => void;
  /** The wallet of the last press taken (a press while busy changes nothing: the flow ignores it). */
  pressed?: string | undefined;
  /** The element's payment, once built. */
  payment?: Payment | undefined;
}

/**
 * Plugs this module's settings check into the element's settings controller, once: each result then
 * goes to the element's payment, or to the set-up check alone while nothing was pressed.
 */
export function connect(host: PaymentElement, link: PaymentLink): void {
  // Plugged in once: connecting reads the settings, so a result means it is.
  if (link.settings.result) return;
  link.settings.connect((signals) => {
    const read = readHost(host, signals);
    // Before a press: the set-up check, and whether the order is paid already (then the payment comes,
    // to show it); any other answer ends a hold (askPaid, order-check.ts).
    if (link.payment) link.payment.configure(read);
    else checkSetup(host, read, link.paid);
    return read;
  });
}

/** The element's payment, built at its first ask and handed the settings read so far. */
export function paymentOf(host: PaymentElement, link: PaymentLink): Payment {
  if (link.payment) return link.payment;
  const payment = (link.payment = new Payment(host, link));
  const read = link.settings.result;
  if (read) payment.configure(read);
  else connect(host, link);
  return payment;
}

const ignore = (): void => {};

/** A hand-off shows in `state` (its panel, or its failure to load). */
const handoffShown = ({ name, booking }: Pick<FlowState, 'name' | 'booking'>): boolean | undefined =>
  booking?.handoff && (name === 'handoff' || name === 'stalled' || name === 'handoff-expired');

/**
 * What a payment renders for the element to draw (see {@link Payment.render}): the status region's
 * text, the choices drawn after the element's own parts, and why the hand-off's module (or the in-app
 * panel's) could not be loaded while it shows.
 */
type PaymentView = [status: string, panel: TemplateResult | typeof nothing, failure: ChunkFailure | undefined];

/**
 * One element's payment: its flow, the settings it is handed, the set-up check, and what it shows.
 * It keeps the flow in step with the page: the way back from the app or the provider's page
 * (`pageshow` from the back/forward cache, the page becoming visible again); no `unload` listener,
 * which would keep the page out of the back/forward cache.
 *
 * The flow is built lazily, on the first press or when the settings it is handed name an order this
 * tab may be coming back to (a kept booking, a paid order). The flow itself decides what settings mean
 * for a payment (`PaymentFlow.configure`); no lifecycle callback starts or resumes one.
 */
export class Payment implements ReactiveController {
  readonly #host: PaymentElement;
  /** What the element shares with its payment: its loads, its settings reader, its funnel. */
  readonly #link: PaymentLink;
  #flow: PaymentFlow | null = null;
  /** The settings last handed over, for a flow built later. */
  #settings: SettingsResult | undefined;
  /** The hand-off's module: asked for the first time a hand-off shows; "Try again" asks again after a failure. */
  readonly #handoff: Load<HandoffModule>;
  /** The in-app panel's module, likewise, for the in-app panel. */
  readonly #inApp: Load<InAppModule>;
  /** Whether the hand-off panel showed, and had focus, before this update. */
  #panelShown = false;
  #panelFocused = false;

  constructor(host: PaymentElement, link: PaymentLink) {
    this.#host = host;
    this.#link = link;
    this.#handoff = new Load(host);
    this.#inApp = new Load(host);
    host.addController(this);
  }

  /**
   * The element's settings, read when one changed, when it was attached, or at a press: the set-up
   * check warns about each problem, and the flow keeps them (and looks for its way back, see
   * `PaymentFlow.configure`).
   */
  configure(read: SettingsResult): void {
    checkSetup(this.#host, read);
    this.#settings = read;
    // A continuation from an in-app browser (continuation.ts) goes on first (its module removes it from
    // the address), then the way back, as on any load. Without that module the pay button stays.
    if (this.#host.ownerDocument.defaultView!.location.hash.startsWith(CONTINUATION_PREFIX))
      void this.#link.track(import('./inapp-continue.js').then((module) => module.continueHere(this.#host, read), () => true)).then((done) => done || this.configure(read));
    else if (this.#flow || this.#comingBack(read)) this.#run.configure(read);
  }

  /** A payment of this tab is under way, or this element's own order was paid in this tab. */
  #comingBack(read: SettingsResult): boolean {
    const storage = sessionStorageOf(this.#host.ownerDocument.defaultView);
    const key = read.ok ? read.settings.storageKey : read.storageKey;
    return hasKeptBooking(storage) || (!!key && isPaidHere(storage, key));
  }

  /** The flow, built on first use. */
  get #run(): PaymentFlow {
    if (this.#flow) return this.#flow;
    const host = this.#host;
    const win = () => host.ownerDocument.defaultView!;
    let browserNavigator: PageNavigator | undefined;
    const clock: Clock = host.clock ?? systemClock(win());
    this.#flow = new PaymentFlow({
      navigator: () => host.navigation ?? (browserNavigator ??= createBrowserNavigator(win())),
      store: createBookingStore(sessionStorageOf(win())),
      clock,
      client: (settings) =>
        createBookingClient({
          endpoint: settings.endpoint,
          fetch: (input, init) => watchEndpoint(win().fetch(input, init), input, host.getAttribute('endpoint')),
          bookTimeoutMs: settings.bookTimeoutMs,
          requestTimeoutMs: REQUEST_TIMEOUT_MS,
          isOnline: () => win().navigator.onLine,
          clock,
        }),
      isVisible: () => host.ownerDocument.visibilityState === 'visible',
      newKey: () => win().crypto.randomUUID(),
      timings: () => ({ ...DEFAULT_TIMINGS, ...host.timings }),
      emit: (event) => {
        diagnoseFlowEvent(event, host.getAttribute('allowed-hosts'));
        const { type, ...detail } = event;
        return host.dispatchEvent(new WalletPayEvent(type, detail as never));
      },
      onChange: () => host.requestUpdate(),
      funnel: this.#link.funnel,
    });
    if (host.isConnected) this.#listen(true);
    if (this.#settings) this.#flow.configure(this.#settings);
    return this.#flow;
  }

  hostConnected(): void {
    if (this.#flow) this.#listen(true);
  }

  hostDisconnected(): void {
    this.#listen(false);
    this.#flow?.dispose();
  }

  #listen(on: boolean): void {
    const doc = this.#host.ownerDocument;
    const method = on ? 'addEventListener' : 'removeEventListener';
    doc[method]('visibilitychange', this);
    doc.defaultView?.[method]('pageshow', this);
  }

  /** The page came back: restored from the back/forward cache, or visible again. */
  handleEvent(event: Event): void {
    if ((event as PageTransitionEvent).persisted ?? this.#host.ownerDocument.visibilityState === 'visible') this.#flow?.resume(event.type === 'visibilitychange');
  }

  hostUpdate(): void {
    if (this.#shown(this.state)?.status === 'initial') this.retry();
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

  /** The load of the chunk `state` shows: the hand-off's, the in-app panel's, or none. */
  #shown(state: FlowState): Load<HandoffModule> | Load<InAppModule> | undefined {
    return handoffShown(state) ? this.#handoff : state.name === 'inapp' ? this.#inApp : undefined;
  }

  #panel(): HTMLElement | null {
    return this.#host.renderRoot.querySelector<HTMLElement>('.handoff');
  }

  /** The shopper chose "Pay with the app on your phone" (with the settings configured at that press). */
  handOff(): void {
    this.#run.handOff();
  }

  /** The flow's state. */
  get state(): FlowState {
    return this.#flow?.state ?? IDLE_STATE;
  }

  /** The shopper pressed the button (`wallet`'s, where there are several; with the settings configured at that press). */
  start(wallet?: string): void {
    const flow = this.#run;
    const { name, booking } = flow.state;
    // Under the in-app panel the button is "Pay on the web": its booking's own web payment, or the web instead of the app.
    if (name !== 'inapp') flow.start(wallet);
    else if (booking?.web_payment) flow.continueWebPayment();
    else flow.payOnWeb();
  }

  /**
   * What `state` shows in `t`'s words, for the element to draw: the status region's text, the choices
   * after the element's own parts (nothing while `t` is not complete yet), and why the hand-off's
   * module (or the in-app panel's) could not be loaded while it shows (the element says it and offers
   * the way forward, as for its own code: "Try again" calls {@link Payment.retry}). Draws nothing itself.
   */
  render(state: FlowState, t: StringTable | undefined): PaymentView {
    const key = t && statusKey(state);
    const load = this.#shown(state);
    return [key ? t[key] : '', t ? this.#choices(state, t) : nothing, load?.status === 'error' ? load.failure : undefined];
  }

  /**
   * Asks for the module of the panel that shows, the hand-off's or the in-app one's (again, after a
   * failure); the element draws again when it settles.
   */
  retry(): void {
    const host = this.#host;
    const load = this.#shown(this.state);
    if (load === this.#handoff) this.#link.track(this.#handoff.ask(loadHandoff).then((module) => module.adoptHandoffStyles(host.renderRoot as ShadowRoot), ignore));
    else if (load) this.#link.track(this.#inApp.ask(loadInApp).catch(ignore));
    host.requestUpdate();
  }

  /** While the module of a panel is not in: after a failure, a panel of the ways that need no module; else nothing yet. */
  #fallback(load: Load<unknown>, part: 'pay-web' | 'pay-on-web', t: StringTable): TemplateResult | typeof nothing {
    const flow = this.#run;
    // Offline, say: the payment goes on (the page still checks it), the element says why the module is
    // not there and offers its way forward (see `render`); the panel keeps the other ways. In an in-app
    // browser its "Pay on the web" is the button's own: the open booking's web payment, not a new one.
    return load.status === 'error'
      ? html`<div part="panel" class="panel" role="group" aria-label=${t['panel.label']}>
${action(part, t[`action.${part}`], part === 'pay-web' ? () => this.start() : () => flow.payOnWeb())}${action('cancel', t['action.cancel'], () => flow.cancel())}</div>`
      : nothing;
  }

  #choices({ name, booking, canRetry, canStartAgain, paidUrl, error }: FlowState, t: StringTable): TemplateResult | typeof nothing {
    if (name === 'idle') return nothing;
    if (name === 'paid') {
      return paidUrl ? html`<a part="action see-order" class="action" href=${paidUrl}>${t['action.see-order']}</a>` : nothing;
    }
    const flow = this.#run;
    if (handoffShown({ name, booking })) {
      return this.#handoffPanel(booking!, name === 'handoff' ? 'waiting' : name === 'stalled' ? 'stalled' : 'expired', t);
    }
    const host = this.#host;
    if (name === 'inapp' && booking) return this.#inAppPanel(booking, t);
    const act = (part: string, run: () => void) => action(part, t[`action.${part}` as StringKey], run);
    // A booking the shop could not find is checked again before anything else is offered.
    if (name === 'error' && canRetry && error?.kind === 'booking-unconfirmed') return act('check-again', () => flow.retry());
    if (name === 'error' && canRetry) return act('retry', () => flow.retry());
    if (name === 'error' && canStartAgain) return act('start-again', () => (this.#link.settings.read(), flow.startAgain()));
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
        ${stalled ? act('check-again', () => flow.checkAgain()) : nothing}
        ${app ? act('pay-on-web', () => flow.payOnWeb()) : nothing}
        ${!stalled && booking.web_payment ? act('continue-web', () => flow.continueWebPayment()) : nothing}
        ${act('cancel', () => flow.cancel())}
      </div>
    `;
  }

  /** The in-app browser's secondary ways forward for `booking`, once the panel's module is in (asked for here, the first time it shows). */
  #inAppPanel(booking: KeptBooking, t: StringTable): TemplateResult | typeof nothing {
    const module = this.#inApp.value;
    return module ? module.inAppPanel(this.#host, booking, this.#run, t) : this.#fallback(this.#inApp, 'pay-web', t);
  }

  /** The hand-off's panel, once its module is in (asked for here, the first time one shows). */
  #handoffPanel(booking: KeptBooking, status: HandoffStatus, t: StringTable): TemplateResult | typeof nothing {
    const host = this.#host;
    const module = this.#handoff.value;
    if (!module) return this.#fallback(this.#handoff, 'pay-on-web', t);
    // Kept bookings come back from storage: checked again, against their own settings, before they become a code.
    const deeplink = checkProviderUrl(booking.deeplink, booking.settings.allowedHosts);
    if (!deeplink.ok) return nothing;
    return module.flowHandoffPanel({ deeplink: deeplink.url, status }, this.#run, langOf(host), host.strings);
  }
}

/**
 * What the element's first module reads of this module, as one object: the first module imports it
 * by name, so the bundler does not build this module's namespace object (with a getter per export)
 * for it, and a retry, which imports the chunk's own URL, finds the same object.
 */
export const api = { Payment, connect, paymentOf, reportsSettled, TEXTS_EN, view, draw };
