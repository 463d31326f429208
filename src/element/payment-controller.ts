/**
 * Connects a {@link PaymentFlow} to the page's lifecycle: the way back from the app or the provider's
 * page (`pageshow` from the back/forward cache, the page becoming visible again). No `unload`
 * listener: it would keep the page out of the back/forward cache.
 *
 * The flow is built lazily, on the first press or when the settings it is handed name an order this
 * tab may be coming back to (a kept booking, a paid order): most buttons on a page are never pressed,
 * and their elements then cost no flow and no page listener. The flow itself decides what settings
 * mean for a payment (`PaymentFlow.configure`); no lifecycle callback starts or resumes one.
 */
import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { createBookingClient } from '../core/booking-client.js';
import { systemClock, type Clock } from '../core/clock.js';
import { IDLE_STATE, PaymentFlow, DEFAULT_TIMINGS, type FlowState, type FlowTimings } from '../core/flow/index.js';
import { hasKeptBooking, isPaidHere, sessionStorageOf } from '../core/kept.js';
import { createBrowserNavigator, type PageNavigator } from '../core/navigator.js';
import { createBookingStore } from '../core/session-store.js';
import type { SettingsResult } from '../core/settings.js';
import { WalletPayEvent } from './events.js';
import { diagnoseFlowEvent, watchEndpoint } from './diagnostics.js';

/** Timeout of status, cancel and order requests, in ms. */
export const REQUEST_TIMEOUT_MS = 8000;

/** What the controller needs from its element. */
export interface PaymentHost extends ReactiveControllerHost, HTMLElement {
  /** A replacement navigator (tests, hosts with their own router); the browser's when unset. */
  navigation?: PageNavigator | null;
  /** Overrides of the flow's delays. */
  timings?: Partial<FlowTimings>;
  /** A replacement clock (tests); the window's when unset. */
  clock?: Clock | null;
}

/** Runs one element's payment flow and keeps it in step with the page. */
export class PaymentController implements ReactiveController {
  #flow: PaymentFlow | null = null;
  readonly #host: PaymentHost;
  /** The settings last handed over, for a flow built later. */
  #read: SettingsResult | undefined;

  /** The funnel the element began when it showed the button. */
  readonly #funnel: { id: string; at: number } | undefined;

  constructor(host: PaymentHost, funnel?: { id: string; at: number }) {
    this.#host = host;
    this.#funnel = funnel;
    host.addController(this);
  }

  /** The element's settings: the flow, once there is one (or the tab may be coming back to this order), keeps them. */
  configure(read: SettingsResult): void {
    this.#read = read;
    if (this.#flow || this.#comingBack(read)) this.flow.configure(read);
  }

  /** The flow, built on first use; the element calls its actions. */
  get flow(): PaymentFlow {
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
      funnel: this.#funnel,
    });
    if (host.isConnected) this.#listen(true);
    if (this.#read) this.#flow.configure(this.#read);
    return this.#flow;
  }

  /** The flow's state, for rendering. */
  get state(): FlowState {
    return this.#flow?.state ?? IDLE_STATE;
  }

  hostConnected(): void {
    if (this.#flow) this.#listen(true);
  }

  /** A payment of this tab is under way, or this element's own order was paid in this tab. */
  #comingBack(read: SettingsResult): boolean {
    const storage = sessionStorageOf(this.#host.ownerDocument.defaultView);
    const key = read.ok ? read.settings.storageKey : read.storageKey;
    return hasKeptBooking(storage) || (!!key && isPaidHere(storage, key));
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
}
