/**
 * When the payment code loads, by name (as catalyst's `lazy-define` names its strategies): each
 * strategy calls `load` when its moment comes. The element picks them when it is attached: `kept`
 * for a tab that may be coming back to a payment or a return address, else `idle`; and always
 * `intent`, so the click
 * rarely waits for the code.
 */

/**
 * What shows that the shopper is about to press. Listened to on the element itself, so a detached element
 * hears none and holds nothing; attached again, the same listener is not added twice.
 */
export const INTENT_EVENTS = ['pointerenter', 'focusin', 'touchstart'];

/** A strategy: waits for its moment on `host`'s page, then calls `load`. */
type LoadStrategy = (host: HTMLElement, load: () => unknown) => unknown;

/** The strategies by name. */
export const LOAD_STRATEGIES = {
  /** At once: a booking or a paid order is kept in this tab, and the payment code looks for this element's. */
  kept: (_, load) => load(),
  /** When the page goes idle (at most 2 s away; half a second where the browser has no idle callback). */
  idle: (host, load) => {
    const win = host.ownerDocument.defaultView!;
    if (win.requestIdleCallback) win.requestIdleCallback(load, { timeout: 2000 });
    else win.setTimeout(load, 500);
  },
  /** When the shopper shows the intent to press: hover, focus or touch. */
  intent: (host, load) => {
    for (const type of INTENT_EVENTS) host.addEventListener(type, load, { passive: true });
  },
} satisfies Record<string, LoadStrategy>;
