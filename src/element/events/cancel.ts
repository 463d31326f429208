import type { FlowEvent } from '../../core/flow.js';
import { WalletPayEvent } from './base.js';

/** Detail of {@link WalletPayCancelEvent}. */
export type WalletPayCancelEventDetail = Omit<Extract<FlowEvent, { type: 'cancel' }>, 'type'>;

/** Fired when the shopper cancelled the payment and the proxy confirmed it. */
export class WalletPayCancelEvent extends WalletPayEvent<WalletPayCancelEventDetail> {
  constructor(detail: WalletPayCancelEventDetail) {
    super('wallet-pay-cancel', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-cancel': WalletPayCancelEvent;
  }
}
