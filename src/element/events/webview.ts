import type { FlowEvent } from '../../core/flow.js';
import { WalletPayEvent } from './base.js';

/** Detail of {@link WalletPayWebviewEvent}. */
export type WalletPayWebviewEventDetail = Omit<Extract<FlowEvent, { type: 'webview' }>, 'type'>;

/** Fired in a WebView instead of booking: the host app takes the payment over with this detail. */
export class WalletPayWebviewEvent extends WalletPayEvent<WalletPayWebviewEventDetail> {
  constructor(detail: WalletPayWebviewEventDetail) {
    super('wallet-pay-webview', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-webview': WalletPayWebviewEvent;
  }
}
