import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import type { OrderReference } from './contract.js';
import { isEnvironmentSetting, resolveEnvironment, type EnvironmentSetting } from './environment.js';
import { createBookingClient } from './booking-client.js';
import type { FlowConfig, FlowState, FlowTimings } from './flow.js';
import { isCrossOriginFramed } from './frame.js';
import type { PageNavigator } from './navigator.js';
import { PaymentController } from './payment-controller.js';
import { STRINGS_EN, type StringKey } from './strings.js';
import { styles } from './styles.js';
import { checkProviderUrl, parseList, resolveEndpoint, storeListingUrl, storePlatform } from './urls.js';

/** Timeout of status and cancel requests, in ms. */
const REQUEST_TIMEOUT_MS = 8000;

/**
 * A "pay with wallet" button: books the payment through the merchant's own server and takes the
 * shopper to the wallet app (mobile), the provider's payment page (desktop) or hands over to the
 * host app (WebView), then routes to the success or failure page by the payment's status.
 *
 * @slot - The button's label (default "Pay with wallet").
 * @fires wallet-pay-booked - The proxy booked the payment.
 * @fires wallet-pay-navigate - Just before leaving the page; cancelable (the host routes itself).
 * @fires wallet-pay-webview - In a WebView, instead of booking: the host app takes over.
 * @fires wallet-pay-pending - A status check answered BOOKED or PENDING; checking continues.
 * @fires wallet-pay-success - The payment succeeded.
 * @fires wallet-pay-failure - The payment failed, was cancelled or reverted.
 * @fires wallet-pay-cancel - The shopper cancelled the payment.
 * @fires wallet-pay-error - A failure the shopper is told about (request, refused URL, framing, set-up).
 * @csspart base - The wrapper of everything.
 * @csspart button - The native pay button.
 * @csspart status - The `role="status"` region.
 * @csspart panel - The choices shown when the app did not open or the payment is waiting.
 * @csspart action - Every secondary action (links and buttons in the panel, retry, check again).
 * @csspart open-app - The link that opens the wallet app.
 * @csspart get-app - The store link.
 * @csspart pay-on-web - "Pay on the web instead".
 * @csspart cancel - "Cancel payment".
 * @csspart check-again - "Check again".
 * @csspart retry - "Try again".
 * @cssprop --wallet-pay-background - Button background (default #4a1f7a).
 * @cssprop --wallet-pay-color - Button text colour (default #ffffff).
 * @cssprop --wallet-pay-radius - Corner radius (default 8px).
 * @cssprop --wallet-pay-min-height - Button height; never below 44px (default 48px).
 * @cssprop --wallet-pay-focus-ring - Focus outline colour (default #1a73e8).
 * @cssprop --wallet-pay-gap - Space between the parts (default 0.5rem).
 * @cssprop --wallet-pay-font - Font shorthand (default inherit).
 * @cssprop --wallet-pay-status-color - Status text colour (default inherit).
 */
export class WalletPayButton extends LitElement {
  static override styles = styles;

  /** Base URL of the merchant's proxy (`{endpoint}/book`, `/status`, `/cancel`); may be relative. */
  @property() endpoint = '';
  /** The merchant's order id, sent as `order: { id }` when no `order` property is set. */
  @property({ attribute: 'order-id' }) orderId = '';
  /** The merchant's order reference (a JSON object); wins over `order-id`. Never put a price here. */
  @property({ attribute: false }) order: OrderReference | null = null;
  /** `auto` (the spec's rule, read at click time), `desktop`, `mobile` or `webview`. */
  @property() environment: EnvironmentSetting = 'auto';
  /** Where to go when the payment succeeded (`booking_id` and `status` are appended). */
  @property({ attribute: 'success-url' }) successUrl = '';
  /** Where to go when it failed or was cancelled (`booking_id` and `status` are appended). */
  @property({ attribute: 'failure-url' }) failureUrl = '';
  /** Space-separated hosts the deeplink and the web-payment page may be on. */
  @property({ attribute: 'allowed-hosts' }) allowedHosts = '';
  /** Space-separated origins, besides the page's own, the success and failure URLs may be on. */
  @property({ attribute: 'return-origins' }) returnOrigins = '';
  /** Android package of the wallet app, for the Play Store link. */
  @property({ attribute: 'android-package' }) androidPackage = '';
  /** Numeric App Store id of the wallet app, for the App Store link. */
  @property({ attribute: 'ios-app-id' }) iosAppId = '';
  /** Lets the element take payments inside a cross-origin frame. */
  @property({ type: Boolean, attribute: 'allow-framed' }) allowFramed = false;
  /** Timeout of the book request, in ms (the app must open within the click's 5 s activation). */
  @property({ type: Number, attribute: 'booking-timeout' }) bookingTimeout = 3500;
  /** Disables the button. */
  @property({ type: Boolean, reflect: true }) disabled = false;
  /** Replaces the browser navigator (tests, hosts that route themselves). */
  @property({ attribute: false }) navigation: PageNavigator | null = null;
  /** Overrides of the flow's delays (fallback panel, status backoff, the five-minute check). */
  @property({ attribute: false }) timings: Partial<FlowTimings> = {};

  private readonly payment = new PaymentController(this);

  /** The flow's current state (read-only). */
  get paymentState(): FlowState {
    return this.payment.state;
  }

  /** The settings of a payment, as the attributes say now; bad values become a set-up problem. */
  flowConfig(): FlowConfig {
    const win = this.ownerDocument.defaultView!;
    const pageUrl = win.location.href;
    const endpoint = this.endpoint ? resolveEndpoint(this.endpoint, pageUrl) : null;
    const order = this.order ?? (this.orderId ? { id: this.orderId } : null);
    let problem: string | null = null;
    if (!isEnvironmentSetting(this.environment)) problem = `environment="${this.environment}" is not auto, desktop, mobile or webview.`;
    else if (this.endpoint && !endpoint) problem = `endpoint="${this.endpoint}" is not an http(s) URL.`;
    else if (!Number.isFinite(this.bookingTimeout) || this.bookingTimeout <= 0) problem = 'booking-timeout must be a positive number of ms.';
    const environment = resolveEnvironment(isEnvironmentSetting(this.environment) ? this.environment : 'auto', {
      userAgent: win.navigator.userAgent,
      maxTouchPoints: win.navigator.maxTouchPoints,
      innerWidth: win.innerWidth,
    });
    return {
      endpoint: endpoint?.href ?? null,
      client: endpoint
        ? createBookingClient({
            endpoint,
            fetch: (input, init) => win.fetch(input, init),
            bookTimeoutMs: this.bookingTimeout,
            requestTimeoutMs: REQUEST_TIMEOUT_MS,
            isOnline: () => win.navigator.onLine,
          })
        : null,
      order,
      environment,
      successUrl: this.successUrl || null,
      failureUrl: this.failureUrl || null,
      pageUrl,
      allowedHosts: parseList(this.allowedHosts),
      returnOrigins: parseList(this.returnOrigins),
      blockedByFrame: !this.allowFramed && isCrossOriginFramed(win),
      problem,
    };
  }

  override render(): TemplateResult {
    const state = this.payment.state;
    return html`<div part="base" class="base">
      <button
        part="button"
        class="button"
        type="button"
        ?disabled=${this.disabled}
        aria-busy=${state.busy ? 'true' : 'false'}
        aria-describedby="status"
        @click=${this.onPay}
      >
        <slot>${STRINGS_EN['button.pay']}</slot>
      </button>
      <div id="status" part="status" class="status" role="status">${state.message ? STRINGS_EN[state.message] : ''}</div>
      ${this.renderChoices(state)}
    </div>`;
  }

  private renderChoices(state: FlowState): TemplateResult | typeof nothing {
    const flow = this.payment.flow;
    const action = (part: string, key: StringKey, run: () => void) =>
      html`<button part="action ${part}" class="action" type="button" @click=${run}>${STRINGS_EN[key]}</button>`;
    const booking = state.booking;
    if (state.name === 'error' && state.canRetry) return action('retry', 'action.retry', () => flow.retry());
    if (!booking) return nothing;
    if (state.name === 'stalled') {
      return html`<div part="panel" class="panel" role="group" aria-label=${STRINGS_EN['panel.label']}>
        ${action('check-again', 'action.check-again', () => flow.checkAgain())}
        ${action('cancel', 'action.cancel', () => flow.cancel())}
      </div>`;
    }
    if (state.name !== 'app-fallback' && state.name !== 'pending') return nothing;
    if (booking.channel === 'web') {
      return html`<div part="panel" class="panel" role="group" aria-label=${STRINGS_EN['panel.label']}>
        ${action('cancel', 'action.cancel', () => flow.cancel())}
      </div>`;
    }
    const win = this.ownerDocument.defaultView!;
    // Kept bookings come back from storage: checked again before they become a link.
    const deeplink = checkProviderUrl(booking.deeplink, parseList(this.allowedHosts));
    const store = storeListingUrl(storePlatform(win.navigator.userAgent), this.androidPackage, this.iosAppId);
    return html`<div part="panel" class="panel" role="group" aria-label=${STRINGS_EN['panel.label']}>
      ${deeplink.ok ? html`<a part="action open-app" class="action" href=${deeplink.url.href}>${STRINGS_EN['action.open-app']}</a>` : nothing}
      ${store ? html`<a part="action get-app" class="action" href=${store} target="_blank" rel="noopener">${STRINGS_EN['action.get-app']}</a>` : nothing}
      ${action('pay-on-web', 'action.pay-on-web', () => flow.payOnWeb())}
      ${action('cancel', 'action.cancel', () => flow.cancel())}
    </div>`;
  }

  private onPay(): void {
    if (this.disabled) return;
    this.payment.flow.start();
  }
}
