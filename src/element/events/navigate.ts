import type { FlowEvent } from '../../core/flow.js';
import { WalletPayEvent } from './base.js';

/** Detail of {@link WalletPayNavigateEvent}. */
export type WalletPayNavigateEventDetail = Omit<Extract<FlowEvent, { type: 'navigate' }>, 'type'>;

/** Fired just before the element leaves the page (provider page, app, success or failure page). Cancelable: `preventDefault()` stops the navigation so a single-page app can route itself. */
export class WalletPayNavigateEvent extends WalletPayEvent<WalletPayNavigateEventDetail> {
  constructor(detail: WalletPayNavigateEventDetail) {
    super('wallet-pay-navigate', detail, true);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-navigate': WalletPayNavigateEvent;
  }
}
