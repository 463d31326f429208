import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { OrderReference } from '../protocol/contract.js';
import type { Clock } from '../core/clock.js';
import type { EnvironmentSetting } from '../core/environment.js';
import { IDLE_STATE, type FlowState, type FlowTimings } from '../core/flow.js';
import { isCrossOriginFramed } from '../core/frame.js';
import type { PageNavigator } from '../core/navigator.js';
import { hasKeptBooking, sessionStorageOf } from '../core/session-store.js';
import { readSettings, type SettingsProblem, type SettingsResult } from '../core/settings.js';
import { checkProviderUrl, storeListingUrl, storePlatform } from '../core/urls.js';
import { statusKey } from './messages.js';
import { PaymentController } from './payment-controller.js';
import { misspelledAttributes, warnOnce } from './setup-check.js';
import { stringsFor, type StringKey, type StringTable } from './strings.js';
import { styles } from './styles.js';

/** The button's look: `dark` (the brand colour, for light pages), `light` (for dark pages), `outline`, or `auto` (follows `prefers-color-scheme`). */
export type WalletPayVariant = 'dark' | 'light' | 'outline' | 'auto';
/** The button's wording. */
export type WalletPayLabel = 'pay' | 'checkout' | 'buy' | 'donate';

const VARIANTS = ['dark', 'light', 'outline', 'auto'];
const LABELS = ['pay', 'checkout', 'buy', 'donate'];

/**
 * A look-only mistake when `value` is not in `list`: warned about, never in the way of a payment (the
 * default look or wording is used instead).
 */
const oneOf = (attribute: string, value: string, list: string[], fallback: string): SettingsProblem[] =>
  list.includes(value)
    ? []
    : [{ kind: 'config', attribute, value, message: `${attribute}="${value}" is not one of: ${list.join(', ')}; the default (${fallback}) is used.` }];

/** The language in force at `node`, as the browser finds it: the nearest `lang`, across shadow roots. */
function langOf(node: Element): string | null {
  for (let at: Element | null = node; at; ) {
    const found = at.closest('[lang]');
    if (found) return found.getAttribute('lang');
    const root = at.getRootNode();
    at = root instanceof ShadowRoot ? root.host : null;
  }
  return null;
}

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
 * @csspart start-again - "Start again": a new payment, after the shop lost track of the last one.
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
    bookingTimeout: { type: Number, attribute: 'booking-timeout' },
    disabled: { type: Boolean, noAccessor: true },
    variant: { noAccessor: true },
    fullWidth: { type: Boolean, attribute: 'full-width', noAccessor: true },
    label: {},
    strings: { attribute: false },
    navigation: { attribute: false },
    timings: { attribute: false },
    clock: { attribute: false },
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
  /** Replacements for any shopper-facing text, over the language's table. */
  strings?: Partial<StringTable> | null;
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

  #payment?: PaymentController;

  /** The payment controller, built on first use: most buttons are never pressed. */
  get #pay(): PaymentController {
    return (this.#payment ??= new PaymentController(this, () => this.#read()));
  }

  /** The flow's current state (read-only). */
  get paymentState(): FlowState {
    return this.#payment?.state ?? IDLE_STATE;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A kept booking means the shopper is coming back: the controller asks where the payment stands.
    if (!this.#payment && hasKeptBooking(sessionStorageOf(this.ownerDocument.defaultView))) void this.#pay;
  }

  /** The settings of a payment as the attributes say now, read once when the shopper acts. */
  #read(): SettingsResult {
    const win = this.ownerDocument.defaultView!;
    return readSettings(this, {
      pageUrl: win.location.href,
      // Relative settings resolve like the page's own links and requests: against its base URL.
      baseUrl: this.ownerDocument.baseURI,
      signals: { userAgent: win.navigator.userAgent, maxTouchPoints: win.navigator.maxTouchPoints, innerWidth: win.innerWidth },
      framed: isCrossOriginFramed(win),
    });
  }

  /** The attribute names of the element's settings. */
  static get #attributes(): string[] {
    return Object.entries(WalletPayButton.properties).flatMap(([name, options]) =>
      'attribute' in options ? (typeof options.attribute === 'string' ? [options.attribute] : []) : [name.toLowerCase()],
    );
  }

  #checked = false;

  /** Checks the whole set-up when the element connects and whenever a setting changes. */
  protected override updated(changed: PropertyValues): void {
    // A state change of the flow is no new setting: nothing to check again.
    if (this.#checked && !changed.size) return;
    this.#checked = true;
    const read = this.#read();
    // The paid order may not be this one any more (a single-page app moved on).
    if (this.paymentState.name === 'paid') this.#pay.flow.resume(read);
    warnOnce([
      ...(read.ok ? [] : read.problems),
      ...oneOf('variant', this.variant, VARIANTS, 'dark'),
      ...oneOf('label', this.label ?? 'pay', LABELS, 'pay'),
      ...misspelledAttributes(this.getAttributeNames(), WalletPayButton.#attributes),
    ]);
  }

  #press(): void {
    if (!this.disabled) this.#pay.flow.start(this.#read());
  }

  override render(): TemplateResult {
    const state = this.paymentState;
    const t = stringsFor(langOf(this), this.strings);
    const label = LABELS.includes(this.label!) ? this.label! : 'pay';
    const message = statusKey(state);
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
        <slot>${t[`button.${label}`]}</slot>
      </button>
      <div id="status" part="status" class="status" role="status">${message ? t[message] : nothing}</div>
      ${this.#choices(state, t)}
    `;
  }

  #choices({ name, booking, canRetry, canStartAgain, paidUrl }: FlowState, t: StringTable): TemplateResult | typeof nothing {
    // Idle offers no choice, and an element that was never pressed has no flow to create for it.
    if (name === 'idle') return nothing;
    if (name === 'paid') {
      return paidUrl ? html`<a part="action see-order" class="action" href=${paidUrl}>${t['action.see-order']}</a>` : nothing;
    }
    const flow = this.#pay.flow;
    const action = (part: string, key: StringKey, run: () => void) => html`
      <button part="action ${part}" class="action" type="button" @click=${run}>${t[key]}</button>
    `;
    if (name === 'error' && canRetry) return action('retry', 'action.retry', () => flow.retry());
    if (name === 'error' && canStartAgain) return action('start-again', 'action.start-again', () => flow.startAgain(this.#read()));
    const stalled = name === 'stalled';
    if (!booking || (!stalled && name !== 'app-fallback' && name !== 'pending')) return nothing;
    const app = !stalled && booking.channel === 'app';
    const nav = this.ownerDocument.defaultView!.navigator;
    // Kept bookings come back from storage: checked again, against their own settings, before they become a link.
    const deeplink = app && checkProviderUrl(booking.deeplink, booking.settings.allowedHosts);
    const store = app && storeListingUrl(storePlatform(nav.userAgent), this.androidPackage, this.iosAppId);
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
