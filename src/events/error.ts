import type { FlowEvent } from '../flow.js';

/** Detail of {@link WalletPayErrorEvent}. */
export type WalletPayErrorEventDetail = Omit<Extract<FlowEvent, { type: 'error' }>, 'type'>;

/** Fired on every failure the shopper sees: request failures, refused URLs, framing, set-up errors. */
export class WalletPayErrorEvent extends Event {
  /** The event's payload. */
  readonly detail: WalletPayErrorEventDetail;

  constructor(detail: WalletPayErrorEventDetail) {
    super('wallet-pay-error', { bubbles: true, composed: true, cancelable: false });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-pay-error': WalletPayErrorEvent;
  }
}
