import type { FlowEvent } from '../flow.js';

/** Detail of {@link WalletPayNavigateEvent}. */
export type WalletPayNavigateEventDetail = Omit<Extract<FlowEvent, { type: 'navigate' }>, 'type'>;

/** Fired just before the element leaves the page (provider page, app, success or failure page). Cancelable: `preventDefault()` stops the navigation so a single-page app can route itself. */
export class WalletPayNavigateEvent extends Event {
  /** The event's payload. */
  readonly detail: WalletPayNavigateEventDetail;

  constructor(detail: WalletPayNavigateEventDetail) {
    super('wallet-pay-navigate', { bubbles: true, composed: true, cancelable: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-navigate': WalletPayNavigateEvent;
  }
}
