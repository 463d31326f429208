/** Helpers for the element tests: mounting against a proxy scenario and reading the shadow DOM. */
import { fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/define.js';
import type { WalletPayButton } from '../../src/element/wallet-pay-button.js';
import type { FlowStateName, FlowTimings } from '../../src/core/flow.js';
import { recordingNavigator, type Scenario } from './proxy.js';

/** Short delays so the element tests run in milliseconds. */
export const FAST: Partial<FlowTimings> = { fallbackDelayMs: 50, pollDelaysMs: [20, 40], finalCheckAfterMs: 250 };

/** True in the emulated phone profiles. */
export const PHONE = /iPhone|Android/.test(navigator.userAgent);

export interface Mounted {
  el: WalletPayButton;
  nav: ReturnType<typeof recordingNavigator>;
}

/** Options for {@link mount}. */
export interface MountOptions {
  environment?: string;
  timings?: Partial<FlowTimings>;
  bookingTimeout?: number;
  successUrl?: string;
  androidPackage?: string;
  iosAppId?: string;
}

/** Mounts a configured element talking to `scenario`, with a recording navigator. */
export async function mount(scenario: Scenario, options: MountOptions = {}): Promise<Mounted> {
  const nav = recordingNavigator();
  const el = await fixture<WalletPayButton>(html`<wallet-pay-button
    endpoint=${scenario.endpoint}
    order-id="A-1001"
    environment=${options.environment ?? 'mobile'}
    allowed-hosts="links.wallet.test pay.wallet.test"
    success-url=${options.successUrl ?? '/shop/done'}
    failure-url="/shop/failed"
    android-package=${options.androidPackage ?? 'com.wallet.app'}
    ios-app-id=${options.iosAppId ?? '1234567890'}
    booking-timeout=${options.bookingTimeout ?? 3500}
    .navigation=${nav}
    .timings=${options.timings ?? FAST}
  ></wallet-pay-button>`);
  return { el, nav };
}

/** The element's shadow root. */
export function shadow(el: WalletPayButton): ShadowRoot {
  return el.shadowRoot!;
}

/** The native pay button. */
export function payButton(el: WalletPayButton): HTMLButtonElement {
  return shadow(el).querySelector<HTMLButtonElement>('[part~="button"]')!;
}

/** The status region's text. */
export function statusText(el: WalletPayButton): string {
  return shadow(el).querySelector('[role="status"]')!.textContent!.trim();
}

/** A part inside the shadow root, or null. */
export function part<T extends Element = HTMLElement>(el: WalletPayButton, name: string): T | null {
  return shadow(el).querySelector<T>(`[part~="${name}"]`);
}

/**
 * Waits until the flow reaches a state, then until the element has rendered it. The wait is generous
 * (8 s, under the 10 s test timeout): three device profiles share two cores. A timeout names the state
 * the flow is in at that moment (a "stalled" there usually means a test's short stand-in for the five
 * minutes ran out before a loaded run answered).
 */
export async function reach(el: WalletPayButton, name: FlowStateName): Promise<void> {
  try {
    await waitUntil(() => el.paymentState.name === name, undefined, { timeout: 8000 });
  } catch {
    // Named here, at the timeout: a message built for waitUntil would show the state at the call.
    throw new Error(`state ${name} not reached within 8 s (now ${el.paymentState.name})`);
  }
  await el.updateComplete;
}
