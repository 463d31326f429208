import type { PropertyValues } from '@lit/reactive-element';
import { IDLE_STATE } from '../core/flow/idle.js';
import type { FlowState } from '../core/flow/state.js';
import { LABELS_EN } from './i18n/en/labels.js';
import { LABELS_NE } from './i18n/ne/labels.js';
import type { Payment, PaymentLink } from './payment.js';
import type { Scene } from './view.js';
import type { StringTable, TextKey } from './i18n/index.js';
import { isNepali, langOf, wordingOf } from './i18n/lang.js';
import { actionButton, chunkLoader, payButton, reload, text } from './chunk.js';
import { orderWallets } from './wallets.js';
import { Load } from './load.js';
import { LOAD_STRATEGIES } from './load-strategies.js';
import { isReturnPage, mayComeBack } from '../core/kept.js';
import { SettingsController } from './settings-controller.js';
import { ButtonProperties } from './button-properties.js';
import { WalletPayEvent } from './events.js';
import { styles } from './styles.js';

export type { WalletPayLabel, WalletPayVariant } from './button-properties.js';

/** What the payment module gives the element (its `api`); the element loads it with `import()` (see `paymentLoader`). */
export type PaymentModule = (typeof import('./payment.js'))['api'];
type Texts = Readonly<Record<TextKey, string>>;

// Per page, not per element: one download, whichever button asks first. A failed load is tried again
// at the next ask (the shopper's "Try again"), under a fresh URL where the engine keeps the failure.
// The Nepali texts that could not be loaded leave English standing in until a press loads them.
const code = new Load<PaymentModule>();
// The payment code is read off its one `api` object, here and after a retry (which imports the chunk's
// own URL): a module that escaped whole would make the bundler build its namespace object.
const paymentChunk = chunkLoader(() => import('./payment.js').then(({ api }) => ({ api })), (module) => 'api' in module);
const loadCode = (): Promise<PaymentModule> => code.ask(() => paymentChunk().then(({ api }) => api));
const nepali = new Load<{ TEXTS_NE: Texts }>();
const nepaliChunk = chunkLoader(() => import('./i18n/ne/texts.js'), (module) => typeof module.TEXTS_NE === 'object');
const loadNepali = () => nepali.ask(nepaliChunk);
const ignore = (): void => {};

/**
 * A "pay with wallet" button: books the payment through the merchant's own server and takes the
 * shopper to the wallet app (mobile), the provider's payment page (desktop) or hands over to the
 * host app (WebView), then routes to the success or failure page by the payment's status.
 *
 * Its texts follow the `lang` of the element or of its nearest ancestor that has one (`ne` → Nepali,
 * otherwise English); `strings` replaces any of them.
 *
 * A Lit element on Lit's reactive core (`ReactiveElement`): the first module paints the button with a
 * few DOM calls, and Lit's templates come with the payment code, which then draws the whole shadow
 * root around the status region (view.ts). So the script every visitor of a checkout waits for
 * carries no template engine.
 *
 * @slot - The button's label (default: the `label` variant's text, e.g. "Pay with wallet").
 * @slot logo-esewa - A logo before "Pay with eSewa", with two wallets or more (none is shipped: use one you are licensed to use); `logo-khalti` likewise.
 * @fires wallet-pay-shown - Funnel: the button was shown (`attempt_id`, `elapsed_ms` on every funnel step).
 * @fires wallet-pay-pressed - Funnel: the shopper pressed the button (`path`; `wallet`, a wallet's button).
 * @fires wallet-pay-booked - The proxy booked the payment (`wallet`: pressed, else the server's; also on the outcome events).
 * @fires wallet-pay-left - Funnel: the shopper went to pay (`to`: `app`, `web`, `phone` or `browser`).
 * @fires wallet-pay-returned - Funnel: the page came back with a payment under way.
 * @fires wallet-pay-confirmed - Funnel: the payment reached a final `status`.
 * @fires wallet-pay-abandoned - Funnel: the shopper left without paying (`reason`); the button is ready again.
 * @fires wallet-pay-navigate - Just before leaving the page; cancelable (the host routes itself).
 * @fires wallet-pay-webview - In a WebView, before booking; cancelable: a host app that takes the payment calls `preventDefault()`, else the element goes on as in an in-app browser.
 * @fires wallet-pay-pending - A status check answered BOOKED or PENDING; checking continues.
 * @fires wallet-pay-success - The payment succeeded.
 * @fires wallet-pay-failure - The payment failed, was cancelled or reverted.
 * @fires wallet-pay-cancel - The shopper cancelled the payment.
 * @fires wallet-pay-error - A failure the shopper is told about (request, refused URL, framing, set-up).
 * The host itself is the layout box (a column: button, status, panel); there is no wrapper part, so
 * style the `wallet-pay-button` element for what a wrapper would take (e.g. `gap`, `flex-direction`).
 * @csspart button - The native pay button; with two wallets or more, each wallet's.
 * @csspart button-esewa - eSewa's button, with two wallets or more; `button-khalti` likewise.
 * @csspart status - The `role="status"` region.
 * @csspart panel - The choices shown when the app did not open or the payment is waiting.
 * @csspart action - Every secondary action (links and buttons in the panel, retry, check again).
 * @csspart open-app - The link that opens the wallet app.
 * @csspart get-app - The store link.
 * @csspart pay-on-web - "Pay on the web instead".
 * @csspart continue-web - "Continue to the payment page": back from the provider's page without paying.
 * @csspart see-order - The link to the success page of an order this tab paid already.
 * @csspart cancel - "Cancel payment".
 * @csspart check-again - "Check again".
 * @csspart retry - "Try again".
 * @csspart reload - "Reload the page": a part of the element only a reload can load again.
 * @csspart start-again - "Start again": a new payment, after the shop lost track of the last one.
 * @csspart pay-on-phone - "Pay with the app on your phone" (desktop only; `phone-handoff="off"` hides it).
 * @csspart handoff - The hand-off panel (also `panel`): the code, its steps and its actions.
 * @csspart qr - The hand-off's QR code (an SVG; its colours, quiet zone and minimum size cannot be themed).
 * @csspart handoff-status - The hand-off panel's status line.
 * @csspart open-here - "Open on this device" (the hand-off's deeplink as a link).
 * @csspart use-computer - "Use this computer instead".
 * @csspart new-code - "Get a new code" (the hand-off's booking expired).
 * @csspart inapp - The in-app browser's panel (also `panel`).
 * @csspart pay-web - "Pay on the web" (in an in-app browser).
 * @csspart open-browser - "Open in your browser": a link that hands the page to the phone's browser.
 * @csspart copy-link - "Copy link", where no such link works.
 * @csspart copy-field - The page's address to copy by hand, when the clipboard refuses.
 * @cssprop --wallet-pay-background - Button background (default: the variant's, #4a1f7a for `dark`).
 * @cssprop --wallet-pay-color - Button text colour (default: the variant's, #ffffff for `dark`).
 * @cssprop --wallet-pay-border-color - Button border colour (default: the variant's).
 * @cssprop --wallet-pay-accent - Border and text colour of the secondary actions (default: `--wallet-pay-background`, else the variant's).
 * @cssprop --wallet-pay-radius - Corner radius (default 8px).
 * @cssprop --wallet-pay-min-height - Button height; never below 44px (default 48px).
 * @cssprop --wallet-pay-focus-ring - Focus outline colour (default #1a73e8; #8ab4f8 on `light`).
 * @cssprop --wallet-pay-gap - Space between the parts (default 0.5rem).
 * @cssprop --wallet-pay-font - Font shorthand (default inherit).
 * @cssprop --wallet-pay-status-color - Status text colour (default inherit).
 */
export class WalletPayButton extends ButtonProperties {
  static override styles = styles;
  /**
   * Loads the payment module; tests replace it (a failing import, say). Read when the module is needed.
   * @internal
   */
  paymentLoader?: () => Promise<PaymentModule>;

  /** The one reader of the settings: the rendering reads its environment, the payment its result. */
  readonly #settings = new SettingsController(this);
  /** This element's load of the payment code (its `paymentLoader`, else the page's): for a press, a kept booking, a paid order. */
  readonly #code = new Load<PaymentModule>(this);
  /** Shared with the payment code, which builds this element's payment into it once it is in (`paymentOf`). */
  readonly #link: PaymentLink = {
    settings: this.#settings,
    track: (work) => this.#track(work),
    // The order is paid: the payment comes, to show it; not paid, or no answer: a hold ends.
    paid: (paid) => (paid ? this.#load().catch(ignore) : ((this.#hold = false), this.requestUpdate())),
    press: (handoff, wallet) => this.#press(handoff, wallet),
  };
  /** Loads the element is waiting for (see `loadsSettled`). */
  #loads = new Set<Promise<unknown>>();
  /** The parts this module draws: the pay button, the offer, the status, the way forward after a failed load. */
  #button?: HTMLButtonElement;
  #offer?: HTMLButtonElement;
  #status?: HTMLDivElement;
  #way?: HTMLButtonElement | undefined;
  /** With two wallets or more: their buttons, drawn here from the first render on, and the wallet of each. */
  #wallets: HTMLButtonElement[] = [];
  #names = '';
  /**
   * A return address (a provider's parameters in the page's address) in a tab that kept nothing, as
   * in the phone's other browser: the pay buttons wait, hidden in their place, until `/order` answers
   * (paid: the order shows paid; not paid, or no answer: they show).
   */
  #hold?: boolean;

  /** The flow's current state (read-only). */
  get paymentState(): FlowState {
    const { status, failure } = this.#code;
    return (
      this.#link.payment?.state ??
      (status === 'error'
        ? { ...IDLE_STATE, name: 'error', canRetry: failure === 'network', error: { kind: failure === 'missing' ? 'config' : this.#offline() ? 'offline' : 'network' } }
        : { ...IDLE_STATE, busy: status === 'pending' })
    );
  }

  /** What a shadow root that came with the page (`renderWalletPayButton`) held: the first render removes it. */
  #served?: ChildNode[];

  /** A shadow root that came with the page is kept painted until the first render draws it afresh. */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    this.#served = [...(this.shadowRoot?.childNodes ?? [])];
    return super.createRenderRoot();
  }

  /**
   * The payment code comes by the named strategies (load-strategies.ts): `kept` (this element's
   * payment at once) where a booking or a paid order is kept in this tab, `kept` too (the code alone,
   * with its `/order`) on a return address, else `idle`; and `intent`.
   */
  override connectedCallback(): void {
    super.connectedCallback();
    const win = this.ownerDocument.defaultView;
    const { kept, idle, intent } = LOAD_STRATEGIES;
    if (mayComeBack(win)) kept(this, () => this.#load().catch(ignore));
    // At once on a return address: `/order` comes with the payment code. Decided at the first attach only.
    else if ((this.#hold ??= isReturnPage(win))) kept(this, this.#prefetch);
    else if (win) idle(this, this.#prefetch);
    intent(this, this.#prefetch);
  }

  /** The shopper is about to press, or the page went idle: fetch what a press needs, ignore failures. */
  #prefetch = (): void => {
    // Tracked: once it is in, the set-up check runs (see `willUpdate`), and `loadsSettled` waits for it.
    // What is in is not tracked again: a hover, focus or touch of a settled element draws nothing.
    if (!code.value) this.#track(loadCode()).catch(ignore);
    // Tracked too: a hold says its status in Nepali once these texts are in.
    if (this.#nepali() && !nepali.value) this.#track(loadNepali()).catch(ignore);
  };

  /**
   * A setting changed: the settings controller reads them again before this render. Once the payment
   * code is on the page (this element's or another's), its settings check is plugged in.
   */
  protected override willUpdate(changed: PropertyValues): void {
    // A state change of the flow is no new setting.
    if (changed.size) this.#settings.changed();
    code.value?.connect(this, this.#link);
    // The Nepali texts load with the payment code; a language that became Nepali later loads them here
    // (the prefetch: the code is in), unless they failed (English stands in until a press loads them).
    if (this.#link.payment && !nepali.failure) this.#prefetch();
  }


  /** A chunk that did not come while the device is offline: the shopper's connection is named. */
  #offline(): boolean {
    // The browser's connection, which every window of it shares.
    return !navigator.onLine;
  }

  #nepali(): boolean {
    return isNepali(langOf(this));
  }

  /** Waits for `work` in `loadsSettled`, and draws again when it is done. */
  #track<T>(work: Promise<T>): Promise<T> {
    const tracked = work.finally(() => {
      this.#loads.delete(tracked);
      this.requestUpdate();
    });
    this.#loads.add(tracked);
    return tracked;
  }

  /**
   * Resolves once the loads under way (the payment code, the Nepali texts, the hand-off) have settled,
   * the set-up check's warnings are written, and the element has rendered what they brought,
   * including what a press then started. For tests and
   * hosts that wait for the element to be ready; `updateComplete` is about rendering only, so a chunk
   * that never loads never holds it.
   * @internal
   */
  async loadsSettled(): Promise<void> {
    do {
      await Promise.allSettled(this.#loads);
      // The set-up check's console warnings, whose sentences load when there is something to say.
      await (this.#code.value ?? code.value)?.reportsSettled();
      await this.updateComplete;
    } while (this.#loads.size || this.isUpdatePending);
  }

  /**
   * Loads the payment code (and the Nepali texts on a Nepali page) and builds this element's payment,
   * which the settings controller then hands the checked settings (the set-up check runs). A missing
   * file is the shop's set-up: said in the console and as an error event.
   */
  #load(): Promise<Payment> {
    if (this.#nepali()) this.#track(loadNepali()).catch(ignore);
    return this.#track(this.#code.ask(this.paymentLoader ?? loadCode).then((module) => module.paymentOf(this, this.#link)));
  }

  /** The pay button (`wallet`'s, if any) or the offer to pay on the phone (`handoff` true) was pressed. */
  #press(handoff?: boolean, wallet?: string): void {
    if (this.disabled) return;
    if (!this.paymentState.busy) this.#link.pressed = wallet;
    // The settings of this moment (the environment rule reads the page as it is at the press).
    const run = (pay: Payment) => (this.#settings.read(), handoff ? pay.handOff() : pay.start(wallet));
    if (this.#link.payment) run(this.#link.payment);
    // A press while the payment code is on its way, whoever asked for it (this press, a kept booking,
    // a paid order), awaits that load and is then made, as a press made after it would be: the flow
    // ignores a press while busy, so presses made meanwhile start one payment. A failed load shows
    // why with its way forward, and the next press asks for the code again.
    else this.#load().then((pay) => this.isConnected && run(pay), ignore);
    // Drawn now, not at the next render: assistive technology hears at once that the press was taken,
    // on the button that shows progress, whichever renderer drew it. (Later, the load or the payment's
    // flow asks for the render when its state changes.)
    this.requestUpdate();
    this.performUpdate();
  }

  /**
   * State becomes markup along one path, as in Lit's `LitElement.update()`: the markup of the state is
   * made before `super.update()`, and nothing else happens here (no event, no load). The status region
   * is drawn here, once, and says the status in place. Until the payment code is in, the first module
   * draws the rest (`#render`); once it is in, the code's templates draw the whole shadow root around
   * the region (`view`), committed after `super.update()` as `LitElement` commits its own.
   */
  protected override update(changed: PropertyValues): void {
    const state = this.paymentState;
    const ne = this.#nepali();
    // This element's code, else the page's (a hold's status is said before anything is pressed).
    const module = this.#code.value ?? code.value;
    // A Nepali page whose texts could not be loaded speaks English rather than nothing.
    const rest = ne ? (nepali.value?.TEXTS_NE ?? (nepali.status === 'error' ? module?.TEXTS_EN : undefined)) : module?.TEXTS_EN;
    // English under Nepali: the words for a failed load come with the Nepali texts, and stand in without them.
    const t = { ...LABELS_EN, ...(ne && LABELS_NE), ...rest, ...this.strings } as StringTable;
    const payment = this.#link.payment;
    // The payment's view of the state: its status, its panel, and why a panel's module did not load.
    const [said, panel, failure] = payment?.render(state, rest && t) ?? [];
    const failed = (this.#code.status === 'error' ? this.#code.failure : undefined) ?? failure;
    // Held in their place (the wallets' buttons take this one's visibility), unless the code did not come.
    const hold = this.#hold && !payment && code.status !== 'error';
    const environment = this.#settings.environment;
    // What both renderers draw, decided once: the wallets (where the payment code did not come, the one
    // pay button stands in: it asks for the code again), the button's words (in someone else's in-app
    // browser the web payment is the path that completes, strategies.ts `inapp`), whether the offer to
    // pay on the phone may show (desktop only), the status, and the way forward after a failed load
    // ("Try again", or "Reload the page"; none for a missing file).
    const scene: Scene = [
      code.status === 'error' ? [] : orderWallets(this.wallets, this.walletOrder),
      t[environment === 'inapp' ? 'button.pay-web' : (`button.${wordingOf(this.label)}` as const)],
      this.phoneHandoff !== 'off' && environment === 'desktop',
      failed ? t[`error.${failed === 'network' && this.#offline() ? 'offline' : failed}`] : hold ? (t['status.verifying'] ?? '') : (said ?? ''),
      failed === 'network' ? 'retry' : failed === 'reload' ? 'reload' : undefined,
      hold,
    ];
    // The status region is drawn once and kept by both renderers: its words change in place, where an
    // assistive technology that knows the region hears them (a new region may go unannounced).
    let region = this.#status;
    if (!region) {
      region = this.#status = this.ownerDocument.createElement('div');
      region.id = region.className = 'status';
      region.setAttribute('part', 'status');
      region.setAttribute('role', 'status');
      for (const node of this.#served!) node.remove();
      this.renderRoot.append(region);
    }
    text(region, scene[3]);
    const value = module?.view(this, this.#link, state, t, scene, panel);
    if (!value) this.#render(state.busy, t, scene, region);
    super.update(changed);
    if (value) module!.draw(value, this.renderRoot as ShadowRoot, region, { host: this });
  }

  /** The button was shown (drawn by the first update): the funnel begins. */
  protected override firstUpdated(): void {
    // Any window's `crypto` names an attempt; it has no `randomUUID` outside a secure context.
    const id = crypto.randomUUID?.() ?? Math.random().toString(36).slice(2);
    this.#link.funnel = { id, at: this.clock?.now() ?? Date.now() };
    this.dispatchEvent(new WalletPayEvent('shown', { attempt_id: id, elapsed_ms: 0 }));
  }

  /**
   * The first module's parts in `t`'s words, drawn with DOM calls (its bytes forbid a template
   * engine) until the payment code is in, around the status `region`: the pay button(s), the offer to
   * pay on the phone, and the way forward after a failed load. Nothing is under way before the code
   * is in but its load (`busy`), and no order is paid yet.
   */
  #render(busy: boolean, t: StringTable, [names, label, offer, , way, hold]: Scene, region: HTMLDivElement): void {
    const doc = this.ownerDocument;
    let button = this.#button;
    if (!button) region.before((button = this.#button = payButton(doc, 'button', () => this.#press())));
    const visibility = hold ? 'hidden' : '';
    // Two wallets or more: a button each before this one, which then hides (fewer is no choice: this
    // one books the server's first). Kept while the wallets stay the same: focus stays on the one pressed.
    if (`${names}` !== this.#names) {
      for (const old of this.#wallets) old.remove();
      this.#names = `${names}`;
      this.#wallets = names[1]
        ? names.map((wallet) => {
            const one = payButton(doc, `button button-${wallet}`, () => this.#press(false, wallet));
            (one.firstChild as HTMLSlotElement).name = `logo-${wallet}`;
            one.append('');
            return one;
          })
        : [];
      button.before(...this.#wallets);
    }
    // This button and the wallets' in its state, the pressed wallet's showing progress.
    [button, ...this.#wallets].forEach((one, i) => {
      one.disabled = this.disabled;
      one.style.visibility = visibility;
      one.setAttribute('aria-busy', String(busy && (!i || names[i - 1] === this.#link.pressed)));
      text(i ? one.lastChild! : one.firstChild!, i ? t[`wallet.${names[i - 1]}` as TextKey] : label);
    });
    button.hidden = !!this.#wallets[0];
    if (offer) {
      if (!this.#offer) region.before((this.#offer = actionButton(doc, 'action pay-on-phone', () => this.#press(true))));
      this.#offer.disabled = this.disabled;
      this.#offer.style.visibility = visibility;
      text(this.#offer, t['handoff.offer']);
    } else {
      this.#offer?.remove();
      this.#offer = undefined;
    }
    // Its part names the way (`action retry`, `action reload`): a new way replaces it.
    if (!this.#way?.part.contains(way!)) {
      this.#way?.remove();
      if ((this.#way = way && actionButton(doc, `action ${way}`, way === 'retry' ? () => this.#press() : () => reload(this)))) region.after(this.#way);
    }
    if (way) text(this.#way!, t[`action.${way}`]);
  }
}
