/** Time as the core sees it: injected, so tests move it by hand instead of waiting. */

/** A clock with timers. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The clock of a window (or of `globalThis` when none is given). */
export function systemClock(win: Pick<Window, 'setTimeout' | 'clearTimeout'> = globalThis): Clock {
  return {
    now: () => Date.now(),
    setTimeout: (callback, ms) => win.setTimeout(callback, ms),
    clearTimeout: (handle) => win.clearTimeout(handle as number),
  };
}
