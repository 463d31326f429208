/** Helpers for the element tests: mounting against a proxy scenario and reading the shadow DOM. */
import { fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/define.js';
import type { WalletPayButton } from '../../src/element/wallet-pay-button.js';
import type { FlowStateName, FlowTimings } from '../../src/core/flow/index.js';
import { FakeClock } from './fake-clock.js';
import { recordingNavigator, type Scenario } from './proxy.js';

/** The flow's delays in the element tests; the fake clock moves through them, nothing waits for them. */
export const FAST: Partial<FlowTimings> = { fallbackDelayMs: 50, pollDelaysMs: [20, 40], finalCheckAfterMs: 250 };

/** True in the emulated phone profiles. */
export const PHONE = /iPhone|Android/.test(navigator.userAgent);

export interface Mounted {
  el: WalletPayButton;
  nav: ReturnType<typeof recordingNavigator>;
  /** The element's clock: its timers (fallback panel, status checks, request timeouts) wait for it. */
  clock: FakeClock;
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
  // Starts at the real time: kept bookings in the tests carry real timestamps.
  const clock = new FakeClock(Date.now());
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
    .clock=${clock}
  ></wallet-pay-button>`);
  return { el, nav, clock };
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
 * Waits until the flow reaches a state (a request answered), then until the element has rendered it.
 * The wait is generous (8 s, under the 10 s test timeout): three device profiles share two cores. A
 * timeout names the state the flow is in at that moment.
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

/** After the app was opened: the fallback delay passes on the element's clock, and the panel shows. */
export async function toFallback({ el, clock }: Mounted): Promise<void> {
  await reach(el, 'opening-app');
  await clock.advance(FAST.fallbackDelayMs!);
  await reach(el, 'app-fallback');
}

/** Waits until the element has set a timer (a status check answered BOOKED/PENDING), then moves to it. */
export async function nextCheck({ clock }: Mounted): Promise<void> {
  await waitUntil(() => clock.pending > 0, 'no timer was set', { timeout: 8000 });
  await clock.advance(clock.nextDelay()!);
}
