/**
 * Connects a {@link PaymentFlow} to the page's lifecycle: the way back from the app or the provider's
 * page (`pageshow` from the back/forward cache, the page becoming visible again, a fresh load with a
 * kept booking). No `unload` listener: it would keep the page out of the back/forward cache.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PaymentFlow, DEFAULT_TIMINGS, type FlowConfig, type FlowState, type FlowTimings } from './flow.js';
import { createBrowserNavigator, type PageNavigator } from './navigator.js';
import { createBookingStore } from './session-store.js';
import { WalletPayBookedEvent } from './events/booked.js';
import { WalletPayNavigateEvent } from './events/navigate.js';
import { WalletPayWebviewEvent } from './events/webview.js';
import { WalletPayPendingEvent } from './events/pending.js';
import { WalletPaySuccessEvent } from './events/success.js';
import { WalletPayFailureEvent } from './events/failure.js';
import { WalletPayCancelEvent } from './events/cancel.js';
import { WalletPayErrorEvent } from './events/error.js';

/** What the controller needs from its element. */
export interface PaymentHost extends ReactiveControllerHost, HTMLElement {
  /** The payment settings, read when the shopper acts. */
  flowConfig(): FlowConfig;
  /** A replacement navigator (tests, hosts with their own router); the browser's when `null`. */
  navigation: PageNavigator | null;
  /** Overrides of the flow's delays. */
  timings: Partial<FlowTimings>;
}

/** The DOM event class of each flow event. */
const EVENTS = {
  booked: WalletPayBookedEvent,
  navigate: WalletPayNavigateEvent,
  webview: WalletPayWebviewEvent,
  pending: WalletPayPendingEvent,
  success: WalletPaySuccessEvent,
  failure: WalletPayFailureEvent,
  cancel: WalletPayCancelEvent,
  error: WalletPayErrorEvent,
};

/** Runs one element's payment flow and keeps it in step with the page. */
export class PaymentController implements ReactiveController {
  /** The flow; the element calls its actions. */
  readonly flow: PaymentFlow;
  #browserNavigator: PageNavigator | null = null;
  readonly #host: PaymentHost;

  constructor(host: PaymentHost) {
    this.#host = host;
    host.addController(this);
    const win = () => host.ownerDocument.defaultView!;
    this.flow = new PaymentFlow({
      config: () => host.flowConfig(),
      navigator: () => host.navigation ?? (this.#browserNavigator ??= createBrowserNavigator(win())),
      store: createBookingStore(safeSessionStorage(win)),
      clock: {
        now: () => Date.now(),
        setTimeout: (callback, ms) => win().setTimeout(callback, ms),
        clearTimeout: (handle) => win().clearTimeout(handle as number),
      },
      isVisible: () => host.ownerDocument.visibilityState === 'visible',
      newKey: () => win().crypto.randomUUID(),
      timings: () => ({ ...DEFAULT_TIMINGS, ...host.timings }),
      emit: ({ type, ...detail }) => host.dispatchEvent(new EVENTS[type](detail as never)),
      onChange: () => host.requestUpdate(),
    });
  }

  /** The flow's state, for rendering. */
  get state(): FlowState {
    return this.flow.state;
  }

  hostConnected(): void {
    const doc = this.#host.ownerDocument;
    doc.addEventListener('visibilitychange', this.#onVisibility);
    doc.defaultView?.addEventListener('pageshow', this.#onPageShow);
    // A fresh load (or a re-attach) with a kept booking: ask where the payment stands.
    queueMicrotask(() => {
      if (this.#host.isConnected) this.flow.resume();
    });
  }

  hostDisconnected(): void {
    const doc = this.#host.ownerDocument;
    doc.removeEventListener('visibilitychange', this.#onVisibility);
    doc.defaultView?.removeEventListener('pageshow', this.#onPageShow);
    this.flow.dispose();
  }

  readonly #onVisibility = (): void => {
    if (this.#host.ownerDocument.visibilityState === 'visible') this.flow.resume();
  };

  readonly #onPageShow = (event: PageTransitionEvent): void => {
    if (event.persisted) this.flow.resume();
  };
}

function safeSessionStorage(win: () => Window): Storage | null {
  try {
    return win().sessionStorage;
  } catch {
    // Storage access can throw (sandboxed frames, blocked storage).
    return null;
  }
}
