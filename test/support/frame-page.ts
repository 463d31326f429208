/**
 * Pages in frames for the browser tests of the first render: a frame of its own has its own custom
 * element registry, so each page defines the element when it says (when the test lets its script in, or never).
 */
import { pollUntil } from './poll.js';

/** Records the frame page's layout shifts in `window.__shifts` (`__layoutShiftSupported` says whether it can). */
export const LAYOUT_SHIFT_SCRIPT = `<script>
  window.__shifts = [];
  try {
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__shifts.push(entry.value); }).observe({ type: 'layout-shift', buffered: true });
    window.__layoutShiftSupported = true;
  } catch { window.__layoutShiftSupported = false; }
</script>`;

/** What a frame page of {@link defineOnRelease} has on its window. */
export interface HeldScriptWindow extends Window {
  /** Set by the page's held script: lets it import the element's define module. */
  __releaseScript?: () => void;
  /** `performance.now()` of the frame when the test let the script in. */
  __releasedAt?: number;
  /** `performance.now()` of the frame once the element is defined. */
  __definedAt?: number;
}

/**
 * A module script that holds the element's define module (the source's) back, as a slow connection
 * would, until the test lets it in with {@link releaseScript}; it records when in `window.__definedAt`.
 * The test reads the page as the server wrote it first, then releases: no fixed delay to wait out.
 */
export function defineOnRelease(): string {
  return `<script type="module">
  await new Promise((done) => { window.__releaseScript = done; });
  await import('${new URL('/src/define.ts', location.href).href}');
  window.__definedAt = performance.now();
</script>`;
}

/**
 * Lets the held script of a {@link defineOnRelease} page in, once the page has been painted without it
 * (two animation frames, and its first contentful paint where the engine times paints: a shift the
 * upgrade then causes is one the engine reports), and resolves when the element is defined. Each wait
 * fails with a message after `timeoutMs`.
 */
export async function releaseScript(win: HeldScriptWindow, timeoutMs = 6000): Promise<void> {
  const wait = (check: () => boolean, what: string) => pollUntil(check, { what, timeoutMs, intervalMs: 10 });
  let frames = 0;
  win.requestAnimationFrame(() => win.requestAnimationFrame(() => (frames = 2)));
  await wait(() => frames === 2, 'two animation frames of the page');
  if (PerformanceObserver.supportedEntryTypes.includes('paint')) {
    await wait(() => win.performance.getEntriesByName('first-contentful-paint').length > 0, 'the first paint of the page, its script held back');
  }
  await wait(() => win.__releaseScript !== undefined, "the frame's held script to start");
  win.__releasedAt = win.performance.now();
  win.__releaseScript!();
  await wait(() => win.__definedAt !== undefined, 'the element script, let in, to define the element');
}

/** Adds a frame showing `srcdoc`, marked with the data attribute `tag` (for the test's clean-up) and styled `css`; resolves once it loaded. */
export async function openFrame(srcdoc: string, tag: string, css: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.dataset[tag] = '';
  frame.style.cssText = css;
  frame.srcdoc = srcdoc;
  const loaded = new Promise((done) => frame.addEventListener('load', done, { once: true }));
  document.body.append(frame);
  await loaded;
  return frame;
}
