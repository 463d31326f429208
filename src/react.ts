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
import { WalletPayButton as WalletPayButtonElement } from './define.js';
import type {
  WalletPayBookedEvent,
  WalletPayCancelEvent,
  WalletPayErrorEvent,
  WalletPayFailureEvent,
  WalletPayNavigateEvent,
  WalletPayPendingEvent,
  WalletPaySuccessEvent,
  WalletPayWebviewEvent,
} from './element/events/index.js';

export { WalletPayButtonElement };

/** The `<wallet-pay-button>` element as a React component. */
export const WalletPayButton = createComponent({
  tagName: 'wallet-pay-button',
  elementClass: WalletPayButtonElement,
  react: React,
  events: {
    onBooked: 'wallet-pay-booked' as EventName<WalletPayBookedEvent>,
    onNavigate: 'wallet-pay-navigate' as EventName<WalletPayNavigateEvent>,
    onWebview: 'wallet-pay-webview' as EventName<WalletPayWebviewEvent>,
    onPending: 'wallet-pay-pending' as EventName<WalletPayPendingEvent>,
    onSuccess: 'wallet-pay-success' as EventName<WalletPaySuccessEvent>,
    onFailure: 'wallet-pay-failure' as EventName<WalletPayFailureEvent>,
    onCancel: 'wallet-pay-cancel' as EventName<WalletPayCancelEvent>,
    onError: 'wallet-pay-error' as EventName<WalletPayErrorEvent>,
  },
  displayName: 'WalletPayButton',
});

/** The props of {@link WalletPayButton}. */
export type WalletPayButtonProps = React.ComponentProps<typeof WalletPayButton>;
