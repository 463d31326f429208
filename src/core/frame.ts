/** Framing check: a payment button must not be driven by a page the merchant does not control. */

/** The parts of a window the check reads. */
interface FramedView {
  readonly top: { readonly location: { readonly origin: string } } | null;
  readonly self: unknown;
  readonly location: {
    readonly origin: string;
    /** The origins of every page framing this one, nearest first (Chromium and WebKit have it). */
    readonly ancestorOrigins?: { readonly length: number; readonly [index: number]: string | undefined };
  };
}

/**
 * True when `win` is inside a frame and some page around it has another origin. Where the browser
 * lists the ancestors' origins, every one is compared: a same-origin top page with a cross-origin
 * frame between it and the checkout is still a cross-origin frame. Elsewhere only the top page can be
 * compared; reading a cross-origin `location.origin` throws, which is itself the answer.
 */
export function isCrossOriginFramed(win: FramedView): boolean {
  if (!win.top || win.top === win.self) return false;
  const ancestors = win.location.ancestorOrigins;
  if (ancestors) {
    for (let i = 0; i < ancestors.length; i++) if (ancestors[i] !== win.location.origin) return true;
  }
  try {
    return win.top.location.origin !== win.location.origin;
  } catch {
    return true;
  }
}
