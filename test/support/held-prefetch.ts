/**
 * Holds back the element's prefetch of its payment code (the idle page, the shopper's hover, focus
 * or touch: load-strategies.ts) until the test asks for the code, so a test decides when the code
 * comes: before or within a press. Stops the page's idle callback for the elements attached from now
 * on and the intent events at the document, before they reach any element.
 */
import { fixture, html } from '@open-wc/testing';
import { INTENT_EVENTS } from '../../src/element/load-strategies.js';
import type { WalletPayButton } from '../../src/element/wallet-pay-button.js';
import { FAST } from './element.js';
import { FakeClock } from './fake-clock.js';
import { answer, recordingNavigator, scenario, type Scenario } from './proxy.js';

export interface HeldPrefetch {
  /** Asks `host` for its payment code, as the shopper's hover does. */
  ask(host: Element): void;
  /** Lets the page's idle callbacks and intent events through again. */
  restore(): void;
}

export function holdPrefetch(): HeldPrefetch {
  const win = window as { requestIdleCallback?: unknown };
  const had = Object.hasOwn(win, 'requestIdleCallback');
  const idle = win.requestIdleCallback;
  // Defined where the engine has none (WebKit) too: the idle strategy then calls it instead of a timer.
  win.requestIdleCallback = () => 0;
  const stop = (event: Event) => event.stopImmediatePropagation();
  for (const type of INTENT_EVENTS) document.addEventListener(type, stop, { capture: true });
  const restore = () => {
    for (const type of INTENT_EVENTS) document.removeEventListener(type, stop, { capture: true });
    if (had) win.requestIdleCallback = idle;
    else delete win.requestIdleCallback;
  };
  return {
    ask(host) {
      restore();
      host.dispatchEvent(new Event(INTENT_EVENTS[0]!));
    },
    restore,
  };
}

/**
 * A phone's element (its book answers booking B1) whose payment code stays away until the test asks
 * for it (`prefetch.ask`); `prefetch.restore()` once the test is done with the hold.
 */
export async function mountWithHeldPrefetch(): Promise<{ s: Scenario; nav: ReturnType<typeof recordingNavigator>; el: WalletPayButton; prefetch: HeldPrefetch }> {
  const s = await scenario({ book: [answer.bookApp('B1')] });
  const nav = recordingNavigator();
  const prefetch = holdPrefetch();
  const el = await fixture<WalletPayButton>(html`<wallet-pay-button
    endpoint=${s.endpoint}
    order-id="A-1001"
    environment="mobile"
    allowed-hosts="links.wallet.test pay.wallet.test"
    .navigation=${nav}
    .timings=${FAST}
    .clock=${new FakeClock(Date.now())}
  ></wallet-pay-button>`);
  return { s, nav, el, prefetch };
}
