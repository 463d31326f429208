/**
 * `wallet-pay-button/react`: the element as a React component. Importing it registers the tag.
 * Events are `onX` props: `onBooked`, `onNavigate`, `onWebview`, `onPending`, `onSuccess`,
 * `onFailure`, `onCancel`, `onError`; properties (`endpoint`, `orderId`, `order`, ...) are props.
 *
 * ```tsx
 * import { WalletPayButton } from 'wallet-pay-button/react';
 * <WalletPayButton endpoint="/api/pay" orderId="A-1001" onSuccess={(event) => show(event.detail)} />
 * ```
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import type { FlowEventType } from './core/flow/state.js';
import { WalletPayButton as WalletPayButtonElement } from './define.js';
import { EVENT_TYPES, type WalletPayEvent } from './element/events.js';

export { WalletPayButtonElement };

/** The React prop of each event: `booked` → `onBooked`, and so on for every event of the element. */
type WalletPayEventProps = { [K in FlowEventType as `on${Capitalize<K>}`]: EventName<WalletPayEvent<K>> };

const events = Object.fromEntries(
  Object.keys(EVENT_TYPES).map((type) => [`on${type[0]!.toUpperCase()}${type.slice(1)}`, `wallet-pay-${type}`]),
) as WalletPayEventProps;

/** The `<wallet-pay-button>` element as a React component. */
export const WalletPayButton = createComponent({
  tagName: 'wallet-pay-button',
  elementClass: WalletPayButtonElement,
  react: React,
  events,
  displayName: 'WalletPayButton',
});

/** The props of {@link WalletPayButton}. */
export type WalletPayButtonProps = React.ComponentProps<typeof WalletPayButton>;
