import type { FlowEvent } from '../flow.js';

/** Detail of {@link WalletPayCancelEvent}. */
export type WalletPayCancelEventDetail = Omit<Extract<FlowEvent, { type: 'cancel' }>, 'type'>;

/** Fired when the shopper cancelled the payment and the proxy confirmed it. */
export class WalletPayCancelEvent extends Event {
  /** The event's payload. */
  readonly detail: WalletPayCancelEventDetail;

  constructor(detail: WalletPayCancelEventDetail) {
    super('wallet-pay-cancel', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-cancel': WalletPayCancelEvent;
  }
}
