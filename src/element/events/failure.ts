import type { FlowEvent } from '../../core/flow.js';
import { WalletPayEvent } from './base.js';

/** Detail of {@link WalletPayFailureEvent}. */
export type WalletPayFailureEventDetail = Omit<Extract<FlowEvent, { type: 'failure' }>, 'type'>;

/** Fired when the payment ended without success (FAILED, CANCELED, REVERTED), before going to the failure page. */
export class WalletPayFailureEvent extends WalletPayEvent<WalletPayFailureEventDetail> {
  constructor(detail: WalletPayFailureEventDetail) {
    super('wallet-pay-failure', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-failure': WalletPayFailureEvent;
  }
}
