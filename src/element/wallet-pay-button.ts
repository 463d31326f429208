import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { OrderReference } from '../protocol/contract.js';
import type { Clock } from '../core/clock.js';
import { detectEnvironment, type EnvironmentSetting } from '../core/detect-environment.js';
import type { FlowTimings } from '../core/flow/index.js';
import { IDLE_STATE } from '../core/flow/idle.js';
import type { FlowState } from '../core/flow/state.js';
import { bookingKey, hasKeptBooking, isPaidHere, sessionStorageOf } from '../core/kept.js';
import type { PageNavigator } from '../core/navigator.js';
import type { HandoffStrings } from './i18n/index.js';
import { LABELS_EN } from './i18n/en/labels.js';
import { LABELS_NE } from './i18n/ne/labels.js';
import type { Payment } from './payment.js';
import type { StringTable } from './i18n/index.js';
import type { TextKey } from './i18n/index.js';
import { LABELS, isNepali, langOf } from './i18n/lang.js';
import type { VARIANTS } from './setup-check.js';
import { ChunkError, chunkLoader, reloadButton, reportMissing, type ChunkFailure } from './chunk.js';
import { styles } from './styles.js';

/** The button's look: `dark` (the brand colour, for light pages), `light` (for dark pages), `outline`, or `auto` (follows `prefers-color-scheme`). */
export type WalletPayVariant = (typeof VARIANTS)[number];
/** The button's wording. */
export type WalletPayLabel = (typeof LABELS)[number];


/** What the payment module exports; the element loads it with `import()` (see `paymentLoader`). */
export type PaymentModule = typeof import('./payment.js');
type Texts = Readonly<Record<TextKey, string>>;

// Per page, not per element: one download, whichever button asks first. A failed load is tried again
// at the next ask (the shopper's "Try again"), under a fresh URL where the engine keeps the failure.
let loaded: PaymentModule | undefined;
const paymentChunk = chunkLoader(() => import('./payment.js'), (module) => typeof module.Payment === 'function');
const loadPayment = (): Promise<PaymentModule> => paymentChunk().then((module) => (loaded = module));
let nepaliTexts: Texts | undefined;
/** The Nepali texts could not be loaded: English stands in until a press loads them. */
let nepaliFailed = false;
const nepaliChunk = chunkLoader(() => import('./i18n/ne/messages.js'), (module) => typeof module.TEXTS_NE === 'object');
const loadNepali = (): Promise<Texts> =>
  nepaliChunk().then(
    ({ TEXTS_NE }) => (nepaliTexts = TEXTS_NE),
    (error: unknown) => {
      nepaliFailed = true;
      throw error;
    },
  );
const ignore = (): void => {};


/**
 * A "pay with wallet" button: books the payment through the merchant's own server and takes the
 * shopper to the wallet app (mobile), the provider's payment page (desktop) or hands over to the
 * host app (WebView), then routes to the success or failure page by the payment's status.
 *
 * Its texts follow the `lang` of the element or of its nearest ancestor that has one (`ne` → Nepali,
 * otherwise English); `strings` replaces any of them.
 *
 * @slot - The button's label (default: the `label` variant's text, e.g. "Pay with wallet").
 * @fires wallet-pay-booked - The proxy booked the payment.
 * @fires wallet-pay-navigate - Just before leaving the page; cancelable (the host routes itself).
 * @fires wallet-pay-webview - In a WebView, instead of booking: the host app takes over.
 * @fires wallet-pay-pending - A status check answered BOOKED or PENDING; checking continues.
 * @fires wallet-pay-success - The payment succeeded.
 * @fires wallet-pay-failure - The payment failed, was cancelled or reverted.
 * @fires wallet-pay-cancel - The shopper cancelled the payment.
 * @fires wallet-pay-error - A failure the shopper is told about (request, refused URL, framing, set-up).
 * The host itself is the layout box (a column: button, status, panel); there is no wrapper part, so
 * style the `wallet-pay-button` element for what a wrapper would take (e.g. `gap`, `flex-direction`).
 * @csspart button - The native pay button.
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
export class WalletPayButton extends LitElement {
  static override styles = styles;
  // No property has an initial value: creating an element sets nothing and schedules nothing; unset
  // settings read `undefined` and the defaults apply where they are read. Every property still has an
  // accessor on the prototype, so frameworks (React) see properties, not attributes. `disabled`,
  // `variant` and `full-width` live in their attributes (the styles select on those), behind the
  // accessors below, so nothing is reflected at render time.
  static override properties = {
    endpoint: {},
    orderId: { attribute: 'order-id' },
    order: { attribute: false },
    environment: {},
    successUrl: { attribute: 'success-url' },
    failureUrl: { attribute: 'failure-url' },
    allowedHosts: { attribute: 'allowed-hosts' },
    returnOrigins: { attribute: 'return-origins' },
    androidPackage: { attribute: 'android-package' },
    iosAppId: { attribute: 'ios-app-id' },
    allowFramed: { type: Boolean, attribute: 'allow-framed' },
    // A number, or the attribute's own text when it is none: the set-up warning then names what was written.
    bookingTimeout: { attribute: 'booking-timeout', converter: (value: string | null) => (value === null ? undefined : value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value) },
    disabled: { type: Boolean, noAccessor: true },
    variant: { noAccessor: true },
    fullWidth: { type: Boolean, attribute: 'full-width', noAccessor: true },
    label: {},
    strings: { attribute: false },
    navigation: { attribute: false },
    timings: { attribute: false },
    clock: { attribute: false },
    phoneHandoff: { attribute: 'phone-handoff' },
    langAttr: { attribute: 'lang' },
  };

  /** Base URL of the merchant's proxy (`{endpoint}/book`, `/status`, `/cancel`); may be relative. */
  endpoint?: string;
  /** The merchant's order id, sent as `order: { id }` when no `order` property is set. */
  orderId?: string;
  /** The merchant's order reference (a JSON object); wins over `order-id`. Never put a price here. */
  order?: OrderReference | null;
  /** `auto` (default: the spec's rule, read at click time), `desktop`, `mobile` or `webview`. */
  environment?: EnvironmentSetting;
  /** Where to go when the payment succeeded (`booking_id` and `status` are appended). */
  successUrl?: string;
  /** Where to go when it failed or was cancelled (`booking_id` and `status` are appended). */
  failureUrl?: string;
  /** Space-separated hosts the deeplink and the web-payment page may be on. */
  allowedHosts?: string;
  /** Space-separated origins, besides the page's own, the success and failure URLs may be on. */
  returnOrigins?: string;
  /** Android package of the wallet app, for the Play Store link. */
  androidPackage?: string;
  /** Numeric App Store id of the wallet app, for the App Store link. */
  iosAppId?: string;
  /** Lets the element take payments inside a cross-origin frame. */
  allowFramed?: boolean;
  /** Timeout of the book request, in ms (default 3500: the app must open within the click's 5 s activation). */
  bookingTimeout?: number;
  /** The wording of the button: `pay` (default), `checkout`, `buy` or `donate`. */
  label?: WalletPayLabel;
  /** Replacements for any shopper-facing text, over the language's table (the hand-off's `handoff.*` keys too). */
  strings?: Partial<StringTable & HandoffStrings> | null;
  /**
   * `off` hides "Pay with the app on your phone" (part `pay-on-phone`), the desktop's offer to pay by
   * scanning a code with the wallet app on a phone. Any other value, or none, shows it on the desktop path.
   */
  phoneHandoff?: string;
  /** Replaces the browser navigator (tests, hosts that route themselves). */
  navigation?: PageNavigator | null;
  /** Overrides of the flow's delays (fallback panel, status backoff, the five-minute check). */
  timings?: Partial<FlowTimings>;
  /**
   * Replaces the window's timers, for tests that move time by hand. Read when the flow is built.
   * @internal
   */
  clock?: Clock | null;
  /**
   * Mirrors the `lang` attribute so a change re-renders the texts; the native `lang` property stays
   * the public API.
   * @internal
   */
  private langAttr?: string;

  /** Disables the button (the `disabled` attribute). */
  get disabled(): boolean {
    return this.hasAttribute('disabled');
  }
  set disabled(value: boolean) {
    this.toggleAttribute('disabled', !!value);
    this.requestUpdate();
  }

  /** The look: `dark` (default), `light`, `outline` or `auto` (light on a dark colour scheme); the `variant` attribute. */
  get variant(): WalletPayVariant {
    return (this.getAttribute('variant') ?? 'dark') as WalletPayVariant;
  }
  set variant(value: WalletPayVariant | null | undefined) {
    // Unset means the default look, not the word "undefined" (which would read as a set-up error).
    if (value === undefined || value === null) this.removeAttribute('variant');
    else this.setAttribute('variant', value);
  }

  /** Makes the button as wide as its container (the `full-width` attribute). */
  get fullWidth(): boolean {
    return this.hasAttribute('full-width');
  }
  set fullWidth(value: boolean) {
    this.toggleAttribute('full-width', !!value);
  }

  /**
   * Loads the payment module; tests replace it (a failing import, say). Read when the module is needed.
   * @internal
   */
  paymentLoader?: () => Promise<PaymentModule>;

  #module?: PaymentModule;
  #payment?: Payment;
  /** Pressed, and waiting for the payment module. */
  #waiting = false;
  /** Why the payment module could not be loaded: "Try again" (network), the shop's set-up (missing) or a reload. */
  #failed: ChunkFailure | null = null;
  /** Loads the element is waiting for, so `updateComplete` settles only once they are in. */
  #loads = new Set<Promise<unknown>>();
  #askedNepali = false;
  /** The set-up was checked since the last change of a setting. */
  #checked = false;

  /** The flow's current state (read-only). */
  get paymentState(): FlowState {
    return (
      this.#payment?.state ??
      (this.#failed
        ? { ...IDLE_STATE, name: 'error', canRetry: this.#failed === 'network', error: { kind: this.#failed === 'missing' ? 'config' : this.#offline() ? 'offline' : 'network' } }
        : { ...IDLE_STATE, busy: this.#waiting })
    );
  }

  /** A shadow root that came with the page (`renderWalletPayButton`) is emptied, then rendered afresh in this task. */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    this.shadowRoot?.replaceChildren();
    return super.createRenderRoot();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const win = this.ownerDocument.defaultView;
    // A kept booking (or this order, paid in this tab) means the shopper is coming back: the payment
    // code asks where the payment stands.
    const storage = sessionStorageOf(win);
    if (hasKeptBooking(storage) || this.#paidHere(storage)) this.#load().catch(ignore);
    else if (win) {
      // The payment code comes while the shopper reads the page, so the click rarely waits for it;
      // with it comes the set-up check (updated()).
      const prefetch = () => this.#prefetch();
      if (win.requestIdleCallback) win.requestIdleCallback(prefetch, { timeout: 2000 });
      else win.setTimeout(prefetch, 500);
    }
    for (const type of ['pointerenter', 'focusin', 'touchstart']) this.addEventListener(type, this.#prefetch, { passive: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const type of ['pointerenter', 'focusin', 'touchstart']) this.removeEventListener(type, this.#prefetch);
  }

  /** True when this tab paid this element's order (endpoint and order as set when it connects). */
  #paidHere(storage: Storage | null): boolean {
    const order = this.order ?? (this.orderId ? { id: this.orderId } : null);
    if (!this.endpoint || !order) return false;
    try {
      return isPaidHere(storage, bookingKey(new URL(this.endpoint, this.ownerDocument.baseURI).href, order));
    } catch {
      return false;
    }
  }

  /** The shopper is about to press, or the page went idle: fetch what a press needs, ignore failures. */
  #prefetch = (): void => {
    // Tracked: once it is under way, `updateComplete` includes the set-up check that comes with it.
    this.#track(loadPayment()).catch(ignore);
    if (this.#nepali()) loadNepali().catch(ignore);
  };

  /**
   * Checks the whole set-up (console warnings) when the payment code is in and whenever a setting
   * changes; the check is part of the payment code, so a page that never loads it never pays for it.
   */
  protected override updated(changed: PropertyValues): void {
    // A state change of the flow is no new setting: nothing to check again.
    if (changed.size) this.#checked = false;
    const module = loaded ?? this.#module;
    if (this.#checked || !module) return;
    this.#checked = true;
    module.checkSetup(this, this.#payment);
  }

  /** A chunk that did not come while the device is offline: the shopper's connection is named. */
  #offline(): boolean {
    return this.ownerDocument.defaultView?.navigator.onLine === false;
  }

  #nepali(): boolean {
    return isNepali(langOf(this));
  }

  /** Waits for `work` before `updateComplete` resolves. */
  #track<T>(work: Promise<T>): Promise<T> {
    const tracked = work.finally(() => {
      this.#loads.delete(tracked);
      this.requestUpdate();
    });
    this.#loads.add(tracked);
    return tracked;
  }

  /**
   * Resolves once the loads under way (the payment code, the Nepali texts, the hand-off) have settled
   * and the element has rendered what they brought, including what a press then started. For tests and
   * hosts that wait for the element to be ready; `updateComplete` is about rendering only, so a chunk
   * that never loads never holds it.
   * @internal
   */
  async loadsSettled(): Promise<void> {
    do {
      await Promise.allSettled(this.#loads);
      await this.updateComplete;
    } while (this.#loads.size || this.isUpdatePending);
  }

  /** Loads the Nepali texts, once per press: a failed load is not retried in a loop of renders. */
  #askNepali(): void {
    if (this.#askedNepali) return;
    this.#askedNepali = true;
    this.#track(loadNepali()).catch(ignore);
  }

  /** Loads the payment module (and the Nepali texts on a Nepali page) and builds this element's payment. */
  #load(): Promise<Payment> {
    if (this.#nepali()) this.#askNepali();
    return this.#track(
      (this.paymentLoader ?? loadPayment)().then((module) => {
        this.#module = module;
        return (this.#payment ??= new module.Payment(this, (work) => this.#track(work)));
      }),
    );
  }

  /** The pay button (`handoff` false) or the offer to pay on the phone (`handoff` true) was pressed. */
  #press(handoff = false): void {
    if (this.disabled) return;
    if (!nepaliTexts) this.#askedNepali = false;
    const run = (pay: Payment) => (handoff ? pay.handOff() : pay.start());
    if (this.#payment) run(this.#payment);
    else if (!this.#waiting) {
      this.#waiting = true;
      this.#failed = null;
      void this.#track(
        this.#load().then(
          (pay) => {
            this.#waiting = false;
            if (this.isConnected) run(pay);
          },
          (error: unknown) => {
            this.#waiting = false;
            this.#failed = error instanceof ChunkError ? error.failure : 'network';
            if (this.#failed === 'missing') reportMissing(this, error as ChunkError);
          },
        ),
      );
    }
    // Now, not at the next render: assistive technology hears at once that the press was taken.
    this.renderRoot.querySelector('.button')?.setAttribute('aria-busy', String(this.paymentState.busy));
    this.requestUpdate();
  }

  override render(): TemplateResult {
    const state = this.paymentState;
    const ne = this.#nepali();
    // A Nepali page whose texts could not be loaded speaks English rather than nothing.
    const rest = ne ? (nepaliTexts ?? (nepaliFailed ? this.#module?.TEXTS_EN : undefined)) : this.#module?.TEXTS_EN;
    // The Nepali texts load with the payment code; a language that became Nepali later loads them here.
    if (ne && !rest && this.#payment) this.#askNepali();
    const t = { ...(ne ? LABELS_NE : LABELS_EN), ...rest, ...this.strings } as StringTable;
    const label = (LABELS as readonly string[]).includes(this.label!) ? this.label! : 'pay';
    const win = this.ownerDocument.defaultView;
    const environment = this.environment ?? 'auto';
    // Desktop only, and only while nothing is under way: a shopper never holds two open bookings.
    const offer =
      this.phoneHandoff !== 'off' &&
      !state.booking &&
      (state.name === 'idle' || state.name === 'error' || (state.name === 'done' && state.outcome !== 'SUCCESS')) &&
      (environment === 'desktop' ||
        (environment === 'auto' && !!win && detectEnvironment({ userAgent: win.navigator.userAgent, maxTouchPoints: win.navigator.maxTouchPoints, innerWidth: win.innerWidth }) === 'desktop'));
    const [status, choices] = this.#failed
      ? [t[`error.${this.#failed === 'network' && this.#offline() ? 'offline' : this.#failed}`], this.#failed === 'missing' ? nothing : this.#failed === 'reload' ? reloadButton(this, t) : html`<button part="action retry" class="action" type="button" @click=${() => this.#press()}>${t['action.retry']}</button>`]
      : this.#payment && rest
        ? this.#payment.view(t)
        : [nothing, nothing];
    return html`
      <button
        part="button"
        class="button"
        type="button"
        ?disabled=${this.disabled || state.name === 'paid'}
        aria-busy=${state.busy}
        aria-describedby="status"
        @click=${() => this.#press()}
      >
        <slot>${t[`button.${label as 'pay'}`]}</slot>
      </button>
      ${offer
        ? html`<button part="action pay-on-phone" class="action" type="button" ?disabled=${this.disabled} @click=${() => this.#press(true)}>
            ${this.strings?.['handoff.offer'] ?? (ne ? LABELS_NE : LABELS_EN)['handoff.offer']}
          </button>`
        : nothing}
      <div id="status" part="status" class="status" role="status">${status}</div>
      ${choices}
    `;
  }
}
