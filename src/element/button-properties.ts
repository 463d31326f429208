/**
 * The element's settings as Lit declares them: each attribute and property a page sets, with its
 * JSDoc (the custom-elements manifest and the React wrapper read them from here). Apart from the
 * element's behaviour (`wallet-pay-button.ts`), which extends this class, so each reads on its own.
 */
import { ReactiveElement } from '@lit/reactive-element';
import type { OrderReference } from '../protocol/contract.js';
import type { Clock } from '../core/clock.js';
import type { EnvironmentSetting } from '../core/detect-environment.js';
import type { FlowTimings } from '../core/flow/index.js';
import type { PageNavigator } from '../core/navigator.js';
import type { HandoffStrings, StringTable } from './i18n/index.js';
import type { LABELS } from './i18n/lang.js';
import type { VARIANTS } from './setup-check.js';

/** The button's look: `dark` (the brand colour, for light pages), `light` (for dark pages), `outline`, or `auto` (follows `prefers-color-scheme`). */
export type WalletPayVariant = (typeof VARIANTS)[number];
/** The button's wording. */
export type WalletPayLabel = (typeof LABELS)[number];

/** The settings of `<wallet-pay-button>`: attributes, properties and their accessors (see {@link WalletPayButton}). */
export class ButtonProperties extends ReactiveElement {
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
    wallets: {},
    walletOrder: { attribute: 'wallet-order' },
  };

  /** Base URL of the merchant's proxy (`{endpoint}/book`, `/status`, `/cancel`); may be relative. */
  endpoint?: string;
  /** The merchant's order id, sent as `order: { id }` when no `order` property is set. */
  orderId?: string;
  /** The merchant's order reference (a JSON object); wins over `order-id`. Never put a price here. */
  order?: OrderReference | null;
  /** `auto` (default: the spec's rule and the in-app browsers' table, read at click time), `desktop`, `mobile`, `webview` or `inapp`. */
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
  /**
   * The wallets the shop's server offers, space-separated, in its order (`esewa khalti`: the merchant
   * writes its handler's `wallets.join(' ')`). Two or more show one button per wallet, each booking
   * its own, drawn by the payment code (the first render waits for it; a server render stays painted
   * meanwhile). Fewer show the one pay button, which books the server's first.
   */
  wallets?: string;
  /**
   * Wallets to show first, space-separated (as Stripe's `paymentMethodOrder`): the others follow in
   * the server's order. A name `wallets` does not offer is ignored, with a console warning.
   */
  walletOrder?: string;
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

}
