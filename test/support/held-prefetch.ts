/**
 * Holds back the element's prefetch of its payment code (the idle page, the shopper's hover, focus
 * or touch: load-strategies.ts) until the test asks for the code, so a test decides when the code
 * comes: before or within a press. Stops the page's idle callback for the elements attached from now
 * on and the intent events at the document, before they reach any element.
 */
import { INTENT_EVENTS } from '../../src/element/load-strategies.js';

export interface HeldPrefetch {
  /** Asks `host` for its payment code, as the shopper's hover does. */
  ask(host: Element): void;
  /** Lets the page's idle callbacks and intent events through again. */
  restore(): void;
}

/** Holds the prefetch from now on; see the module's comment. */
export function holdPrefetch(): HeldPrefetch {
  // An own property over the window's: defined where the engine has none (WebKit) too, so the idle
  // strategy calls it instead of a timer; deleted, the engine's shows again.
  const win = window as { requestIdleCallback?: unknown };
  win.requestIdleCallback = () => 0;
  const stop = (event: Event) => event.stopImmediatePropagation();
  for (const type of INTENT_EVENTS) document.addEventListener(type, stop, { capture: true });
  const restore = () => {
    for (const type of INTENT_EVENTS) document.removeEventListener(type, stop, { capture: true });
    delete win.requestIdleCallback;
  };
  return {
    ask(host) {
      restore();
      host.dispatchEvent(new Event(INTENT_EVENTS[0]!));
    },
    restore,
  };
}
