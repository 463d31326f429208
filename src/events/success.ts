import type { FlowEvent } from '../flow.js';

/** Detail of {@link WalletPaySuccessEvent}. */
export type WalletPaySuccessEventDetail = Omit<Extract<FlowEvent, { type: 'success' }>, 'type'>;

/** Fired when the payment succeeded (status SUCCESS), before going to the success page. */
export class WalletPaySuccessEvent extends Event {
  /** The event's payload. */
  readonly detail: WalletPaySuccessEventDetail;

  constructor(detail: WalletPaySuccessEventDetail) {
    super('wallet-pay-success', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-success': WalletPaySuccessEvent;
  }
}
