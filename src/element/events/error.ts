import type { FlowEvent } from '../../core/flow.js';
import { WalletPayEvent } from './base.js';

/** Detail of {@link WalletPayErrorEvent}. */
export type WalletPayErrorEventDetail = Omit<Extract<FlowEvent, { type: 'error' }>, 'type'>;

/** Fired on every failure the shopper sees: request failures, refused URLs, framing, set-up errors. */
export class WalletPayErrorEvent extends WalletPayEvent<WalletPayErrorEventDetail> {
  constructor(detail: WalletPayErrorEventDetail) {
    super('wallet-pay-error', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-error': WalletPayErrorEvent;
  }
}
