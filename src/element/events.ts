/**
 * The element's DOM events, derived from the flow's one list of events ({@link FlowEventMap}): each
 * flow event `x` is dispatched as `wallet-pay-x`, with the flow event's fields as its `detail`.
 */
import type { FlowEventMap, FlowEventType } from '../core/flow/state.js';

/**
 * Every event type, and whether a listener may cancel it: `navigate` is fired just before the page is
 * left, so a single-page app can route itself; `webview`, so a host app says it takes the payment. Typed against the flow's list, so none is missing.
 */
export const EVENT_TYPES = {
  shown: false,
  pressed: false,
  booked: false,
  left: false,
  returned: false,
  confirmed: false,
  abandoned: false,
  navigate: true,
  webview: true,
  pending: false,
  success: false,
  failure: false,
  cancel: false,
  error: false,
} as const satisfies Record<FlowEventType, boolean>;

/** The DOM name of an event type. */
export type WalletPayEventName<K extends FlowEventType = FlowEventType> = `wallet-pay-${K}`;

/** The `detail` of an event type. */
export type WalletPayEventDetail<K extends FlowEventType> = FlowEventMap[K];

/** An event of the element: bubbles, crosses shadow roots, carries a typed `detail`. */
export class WalletPayEvent<K extends FlowEventType = FlowEventType> extends Event {
  declare readonly type: WalletPayEventName<K>;
  /** The event's payload. */
  readonly detail: FlowEventMap[K];

  constructor(type: K, detail: FlowEventMap[K]) {
    // The two that EVENT_TYPES marks cancelable, named here: the table itself stays out of the first
    // module, which every visitor waits for (test/node/element/events.test.ts holds the two together).
    super(`wallet-pay-${type}`, { bubbles: true, composed: true, cancelable: type === 'navigate' || type === 'webview' });
    this.detail = detail;
  }
}

/** Every event of the element by DOM name, as `addEventListener` sees them. */
export type WalletPayEventMap = { [K in FlowEventType as WalletPayEventName<K>]: WalletPayEvent<K> };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the derived map into the DOM's
  interface GlobalEventHandlersEventMap extends WalletPayEventMap {}
}
