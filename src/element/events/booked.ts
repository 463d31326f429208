import type { FlowEvent } from '../../core/flow.js';
import { WalletPayEvent } from './base.js';

/** Detail of {@link WalletPayBookedEvent}. */
export type WalletPayBookedEventDetail = Omit<Extract<FlowEvent, { type: 'booked' }>, 'type'>;

/** Fired when the merchant's proxy has booked the payment. */
export class WalletPayBookedEvent extends WalletPayEvent<WalletPayBookedEventDetail> {
  constructor(detail: WalletPayBookedEventDetail) {
    super('wallet-pay-booked', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-booked': WalletPayBookedEvent;
  }
}
