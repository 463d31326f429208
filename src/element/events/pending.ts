import type { FlowEvent } from '../../core/flow.js';
import { WalletPayEvent } from './base.js';

/** Detail of {@link WalletPayPendingEvent}. */
export type WalletPayPendingEventDetail = Omit<Extract<FlowEvent, { type: 'pending' }>, 'type'>;

/** Fired when a status check answers BOOKED or PENDING and the element keeps checking. */
export class WalletPayPendingEvent extends WalletPayEvent<WalletPayPendingEventDetail> {
  constructor(detail: WalletPayPendingEventDetail) {
    super('wallet-pay-pending', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-pending': WalletPayPendingEvent;
  }
}
