import type { FlowEvent } from '../flow.js';

/** Detail of {@link WalletPayFailureEvent}. */
export type WalletPayFailureEventDetail = Omit<Extract<FlowEvent, { type: 'failure' }>, 'type'>;

/** Fired when the payment ended without success (FAILED, CANCELED, REVERTED), before going to the failure page. */
export class WalletPayFailureEvent extends Event {
  /** The event's payload. */
  readonly detail: WalletPayFailureEventDetail;

  constructor(detail: WalletPayFailureEventDetail) {
    super('wallet-pay-failure', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-failure': WalletPayFailureEvent;
  }
}
