/**
 * Pages in frames for the browser tests of the first render: a frame of its own has its own custom
 * element registry, so each page defines the element when it says (after a delay, or never).
 */

/** Records the frame page's layout shifts in `window.__shifts` (`__layoutShiftSupported` says whether it can). */
export const LAYOUT_SHIFT_SCRIPT = `<script>
  window.__shifts = [];
  try {
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__shifts.push(entry.value); }).observe({ type: 'layout-shift', buffered: true });
    window.__layoutShiftSupported = true;
  } catch { window.__layoutShiftSupported = false; }
</script>`;

/** Imports the element's define module (the source's) after `delayMs`, and records when in `window.__definedAt`. */
export function defineAfter(delayMs: number): string {
  return `<script type="module">
  await new Promise((done) => setTimeout(done, ${delayMs}));
  await import('${new URL('/src/define.ts', location.href).href}');
  window.__definedAt = performance.now();
</script>`;
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
