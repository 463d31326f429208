import type { FlowEvent } from '../flow.js';

/** Detail of {@link WalletPayWebviewEvent}. */
export type WalletPayWebviewEventDetail = Omit<Extract<FlowEvent, { type: 'webview' }>, 'type'>;

/** Fired in a WebView instead of booking: the host app takes the payment over with this detail. */
export class WalletPayWebviewEvent extends Event {
  /** The event's payload. */
  readonly detail: WalletPayWebviewEventDetail;

  constructor(detail: WalletPayWebviewEventDetail) {
    super('wallet-pay-webview', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-webview': WalletPayWebviewEvent;
  }
}
