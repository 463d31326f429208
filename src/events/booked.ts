import type { FlowEvent } from '../flow.js';

/** Detail of {@link WalletPayBookedEvent}. */
export type WalletPayBookedEventDetail = Omit<Extract<FlowEvent, { type: 'booked' }>, 'type'>;

/** Fired when the merchant's proxy has booked the payment. */
export class WalletPayBookedEvent extends Event {
  /** The event's payload. */
  readonly detail: WalletPayBookedEventDetail;

  constructor(detail: WalletPayBookedEventDetail) {
    super('wallet-pay-booked', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-booked': WalletPayBookedEvent;
  }
}
