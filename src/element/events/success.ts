import type { FlowEvent } from '../../core/flow.js';
import { WalletPayEvent } from './base.js';

/** Detail of {@link WalletPaySuccessEvent}. */
export type WalletPaySuccessEventDetail = Omit<Extract<FlowEvent, { type: 'success' }>, 'type'>;

/** Fired when the payment succeeded (status SUCCESS), before going to the success page. */
export class WalletPaySuccessEvent extends WalletPayEvent<WalletPaySuccessEventDetail> {
  constructor(detail: WalletPaySuccessEventDetail) {
    super('wallet-pay-success', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-success': WalletPaySuccessEvent;
  }
}
