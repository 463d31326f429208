/**
 * The button before its script, three ways, each a cold load of a checkout page on the slow phone with
 * the CDN entry from dist/cdn: the bare tag (script only), the tag with the documented
 * `:not(:defined)` rule (read from docs/element.md), and the server-rendered button
 * (`renderWalletPayButton`, Declarative Shadow DOM). Measured: from the page's first contentful paint
 * to the first frame where the button is on screen at its size, and the page's layout shift (the
 * `layout-shift` entries' sum up to two frames after the element has rendered).
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { devices, type Browser } from 'playwright';
import { launchChromium } from '../scripts/chromium.mjs';
import { listen } from '../test/node/server/helpers.js';
import { renderWalletPayButton } from '../src/element/server-render.js';
import { SLOW_PHONE } from './browser.js';
import { ROOT } from './build.js';
import type { GoalRow } from './stats.js';
import { repeat, summarize, type Summary } from './stats.js';

/** The three ways a page can put the button on screen. */
export const FIRST_PAINT_WAYS = ['script', 'not-defined', 'server-rendered'] as const;
export type FirstPaintWay = (typeof FIRST_PAINT_WAYS)[number];

export interface FirstPaintOptions {
  rounds: number;
}

export const FIRST_PAINT_DEFAULTS: FirstPaintOptions = { rounds: 7 };

export interface FirstPaintResults {
  profile: typeof SLOW_PHONE;
  /** Per way: first contentful paint to the button on screen (0: in the first painted frame), and the layout shift. */
  ways: Record<FirstPaintWay, { visibleMs: Summary; layoutShift: Summary }>;
}

const ATTRIBUTES = { endpoint: '/api/pay', 'order-id': 'FP-1', 'allowed-hosts': '127.0.0.1', 'phone-handoff': 'off' };

/** The documented `:not(:defined)` rule, as a merchant copies it. */
function notDefinedRule(): string {
  const rule = /```css\n(wallet-pay-button:not\(:defined\)[\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs/element.md'), 'utf8'))?.[1];
  if (!rule) throw new Error('docs/element.md gives no :not(:defined) rule.');
  return rule;
}

function page(way: FirstPaintWay): string {
  const tag = `<wallet-pay-button ${Object.entries(ATTRIBUTES)
    .map(([name, value]) => `${name}="${value}"`)
    .join(' ')}></wallet-pay-button>`;
  const button = way === 'server-rendered' ? renderWalletPayButton(ATTRIBUTES) : tag;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title>
${way === 'not-defined' ? `<style>${notDefinedRule()}</style>` : ''}
<script type="module" src="/cdn/wallet-pay-button.min.js"></script>
</head>
<body>
<h1>Checkout</h1>
<p>Order FP-1: 1 item, NPR 1,000.</p>
${button}
<p>Delivery in two days. Returns within a week.</p>
</body>
</html>`;
}

interface Probe {
  visibleAt: number;
  renderedAt: number;
  shift: number;
}

/**
 * On the page: the first frame with the button on screen at its size, the element's render, the
 * shifts. A string, so no helper of the TypeScript loader ends up in the page.
 */
const PROBE = `(() => {
  const probe = { visibleAt: NaN, renderedAt: NaN, shift: 0 };
  window.__firstPaint = probe;
  try {
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) probe.shift += entry.value; }).observe({ type: 'layout-shift', buffered: true });
  } catch {}
  requestAnimationFrame(function tick() {
    const host = document.querySelector('wallet-pay-button');
    if (host && Number.isNaN(probe.visibleAt)) {
      const drawn = (host.shadowRoot && host.shadowRoot.querySelector('button')) || (getComputedStyle(host, '::before').content !== 'none' ? host : null);
      if (drawn && drawn.getBoundingClientRect().height >= 44) probe.visibleAt = performance.now();
    }
    if (Number.isNaN(probe.visibleAt) || Number.isNaN(probe.renderedAt)) requestAnimationFrame(tick);
  });
  customElements.whenDefined('wallet-pay-button').then(() => document.querySelector('wallet-pay-button').updateComplete).then(() => {
    // Two frames, so a shift the upgrade caused is painted and reported.
    requestAnimationFrame(() => requestAnimationFrame(() => { probe.renderedAt = performance.now(); }));
  });
})();`;

async function coldLoad(browser: Browser, origin: string, way: FirstPaintWay): Promise<{ visibleMs: number; shift: number }> {
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    await context.addInitScript({ content: PROBE });
    const tab = await context.newPage();
    tab.on('pageerror', (error) => console.error(`bench page error: ${error.message}`));
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: SLOW_PHONE.latencyMs,
      downloadThroughput: SLOW_PHONE.downloadBitsPerSecond / 8,
      uploadThroughput: SLOW_PHONE.uploadBitsPerSecond / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuThrottlingRate });
    await tab.goto(`${origin}/${way}.html`);
    await tab.waitForFunction(() => Number.isFinite((window as unknown as { __firstPaint: Probe }).__firstPaint.renderedAt), null, { timeout: 60_000 });
    const { probe, paint } = await tab.evaluate(() => ({
      probe: (window as unknown as { __firstPaint: Probe }).__firstPaint,
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    }));
    if (!Number.isFinite(paint)) throw new Error('No first-contentful-paint entry.');
    // The probe reads the frame before it is painted: a button in the first painted frame reads a little
    // before the paint entry, which is 0 here.
    return { visibleMs: Math.max(0, probe.visibleAt - paint), shift: probe.shift };
  } finally {
    await context.close();
  }
}

/** Cold loads of the three pages, in an order that rotates each round; one warm-up round thrown away. */
export async function benchFirstPaint(o: FirstPaintOptions = FIRST_PAINT_DEFAULTS): Promise<FirstPaintResults> {
  const cdn = join(ROOT, 'dist/cdn');
  const pages = Object.fromEntries(FIRST_PAINT_WAYS.map((way) => [way, gzipSync(page(way), { level: 9 })]));
  const server = await listen((request, response) => {
    const path = new URL(request.url ?? '/', 'http://bench').pathname;
    const html = /^\/([\w-]+)\.html$/.exec(path)?.[1];
    const asset = /^\/cdn\/([\w.-]+\.js)$/.exec(path)?.[1];
    if (html && pages[html]) response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }).end(pages[html]);
    else if (asset) {
      try {
        response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'content-encoding': 'gzip' }).end(gzipSync(readFileSync(join(cdn, asset)), { level: 9 }));
      } catch {
        response.writeHead(404).end();
      }
    } else response.writeHead(path === '/favicon.ico' ? 204 : 404).end();
  });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium({ full: true, headless: true });
    const b = browser;
    const rounds = await repeat(1, o.rounds, async (round) => {
      const samples = {} as Record<FirstPaintWay, { visibleMs: number; shift: number }>;
      for (let i = 0; i < FIRST_PAINT_WAYS.length; i++) {
        const way = FIRST_PAINT_WAYS[(round + i) % FIRST_PAINT_WAYS.length]!;
        samples[way] = await coldLoad(b, server.url, way);
      }
      return samples;
    });
    const ways = Object.fromEntries(
      FIRST_PAINT_WAYS.map((way) => [way, { visibleMs: summarize(rounds.map((r) => r[way].visibleMs)), layoutShift: summarize(rounds.map((r) => r[way].shift)) }]),
    ) as FirstPaintResults['ways'];
    return { profile: SLOW_PHONE, ways };
  } finally {
    await browser?.close();
    await server.close();
  }
}

const LABELS: Record<FirstPaintWay, string> = {
  script: 'script only (the bare tag)',
  'not-defined': 'the documented :not(:defined) rule',
  'server-rendered': 'server-rendered (renderWalletPayButton, Declarative Shadow DOM)',
};

/** The summary rows: per way, first paint to the button on screen, and the layout shift. */
export function firstPaintRows(results: FirstPaintResults): GoalRow[] {
  const spread = (s: Summary, digits: number, unit: string) =>
    `IQR ${s.q1.toFixed(digits)}${unit} to ${s.q3.toFixed(digits)}${unit}; min ${s.min.toFixed(digits)}${unit}, max ${s.max.toFixed(digits)}${unit}; n=${s.n}`;
  const rows: GoalRow[] = [];
  for (const way of FIRST_PAINT_WAYS) {
    const { visibleMs, layoutShift } = results.ways[way];
    const head = way === 'script' ? 'slow phone, cold: first paint to button on screen, ' : '  ';
    rows.push(
      { measure: `${head}${LABELS[way]}`, median: `${visibleMs.median.toFixed(2)} ms`, spread: spread(visibleMs, 2, ' ms'), goal: way === 'script' ? '' : '0 ms', verdict: way === 'script' ? '' : visibleMs.median === 0 ? 'met' : 'missed' },
      { measure: `    layout shift, ${LABELS[way]}`, median: layoutShift.median.toFixed(4), spread: spread(layoutShift, 4, ''), goal: way === 'script' ? '' : '0', verdict: way === 'script' ? '' : layoutShift.median === 0 ? 'met' : 'missed' },
    );
  }
  return rows;
}
