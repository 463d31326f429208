import type { FlowEvent } from '../flow.js';

/** Detail of {@link WalletPayPendingEvent}. */
export type WalletPayPendingEventDetail = Omit<Extract<FlowEvent, { type: 'pending' }>, 'type'>;

/** Fired when a status check answers BOOKED or PENDING and the element keeps checking. */
export class WalletPayPendingEvent extends Event {
  /** The event's payload. */
  readonly detail: WalletPayPendingEventDetail;

  constructor(detail: WalletPayPendingEventDetail) {
    super('wallet-pay-pending', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-pending': WalletPayPendingEvent;
  }
}
