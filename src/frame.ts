/** Framing check: a payment button must not be driven by a page the merchant does not control. */

/**
 * True when `win` is inside a frame whose top page has another origin. Reading a cross-origin
 * `location.origin` throws, which is itself the answer.
 */
export function isCrossOriginFramed(win: Pick<Window, 'top' | 'self' | 'location'>): boolean {
  if (!win.top || win.top === win.self) return false;
  try {
    return win.top.location.origin !== win.location.origin;
  } catch {
    return true;
  }
}
