/** Framing check: a payment button must not be driven by a page the merchant does not control. */

/** The parts of a window the check reads. */
export interface FramedView {
  readonly top: { readonly location: { readonly origin: string } } | null;
  readonly self: unknown;
  readonly location: { readonly origin: string };
}

/**
 * True when `win` is inside a frame whose top page has another origin. Reading a cross-origin
 * `location.origin` throws, which is itself the answer.
 */
export function isCrossOriginFramed(win: FramedView): boolean {
  if (!win.top || win.top === win.self) return false;
  try {
    return win.top.location.origin !== win.location.origin;
  } catch {
    return true;
  }
}
