/**
 * Page figures, in headless Chromium: render cost of 1,000 elements against two baselines in one page
 * session, and the element's own overhead between a tap and the start of the navigation, on the
 * desktop path and the phone path (Pixel 7 emulation). The merchant proxy is the real handler in
 * front of the real sandbox, on the page's own origin.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { devices, type Browser, type BrowserContextOptions, type Page } from 'playwright';
import { launchChromium } from '../scripts/chromium.mjs';
import { listen } from '../test/node/server/helpers.js';
import { within } from '../test/support/within.js';
import { ROOT, type BuiltPage } from './build.js';
import { startMerchant, withPayRoutes, type Merchant } from './merchant.js';
import type { BareChannel, RenderKind, RenderSample, TapSample } from './pages/entry.js';
import { repeat, summarize, type Summary } from './stats.js';

/** How many samples each measure takes. */
export interface BrowserBenchOptions {
  elements: number;
  renderWarmup: number;
  renderRuns: number;
  tapWarmup: number;
  tapRuns: number;
}

export const BROWSER_DEFAULTS: BrowserBenchOptions = { elements: 1000, renderWarmup: 3, renderRuns: 21, tapWarmup: 5, tapRuns: 30 };

const KINDS: readonly RenderKind[] = ['wallet-pay-button', 'minimal-lit', 'button'];

/** Render figures: ms per 1,000 elements, and per-round ratios of the element to each baseline. */
export interface RenderResults {
  elements: number;
  totalMs: Record<RenderKind, Summary>;
  scriptMs: Record<RenderKind, Summary>;
  ratioToLit: Summary;
  ratioToButton: Summary;
  scriptRatioToLit: Summary;
}

/** Tap figures of one path. */
export interface TapResults {
  path: 'desktop' | 'phone';
  reason: string;
  overheadMs: Summary;
  tapToNavigateMs: Summary;
  inputDelayMs: Summary;
  bookRoundTripMs: Summary;
  beforeRequestMs: Summary;
  afterResponseMs: Summary;
  bodyDeliveryMs: Summary;
  afterBodyMs: Summary;
  /** The control: the same tap with the element's `/book` request made by a bare fetch, no element code. */
  bareOverheadMs: Summary;
  /** Of the control: from the response end to the body reaching script. */
  bareBodyDeliveryMs: Summary;
  /** Per round, the element's overhead minus its paired control's: what the element adds over a bare booking request. */
  ownOverheadMs: Summary;
}

/** Everything measured in the browser. */
export interface BrowserResults {
  chromiumVersion: string;
  render: RenderResults;
  taps: TapResults[];
}

function pageServer(built: BuiltPage, merchantRef: { current?: Merchant }) {
  const html = readFileSync(join(ROOT, 'bench/pages/bench.html'));
  // bench.js and the chunks it imports (the element's payment code and Nepali texts).
  const scripts = new Map(readdirSync(built.dir).filter((name) => name.endsWith('.js')).map((name) => [`/${name}`, readFileSync(join(built.dir, name))]));
  return listen((request, response) => {
    const rest = () => {
      const path = (request.url ?? '/').split('?')[0]!;
      const script = scripts.get(path);
      if (path === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      else if (script) response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      else response.writeHead(404).end();
    };
    if (merchantRef.current) withPayRoutes(merchantRef.current, rest)(request, response);
    else rest();
  });
}

async function openPage(browser: Browser, url: string, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`bench page error: ${error.message}`));
  await page.goto(url);
  await page.waitForFunction(() => 'walletPayBench' in window);
  return page;
}

async function benchRender(page: Page, o: BrowserBenchOptions): Promise<RenderResults> {
  const rounds = await repeat(o.renderWarmup, o.renderRuns, async (round) => {
    const samples = {} as Record<RenderKind, RenderSample>;
    // The order rotates each round, so neither being first nor following another kind favours one.
    for (let i = 0; i < KINDS.length; i++) {
      const kind = KINDS[(round + i) % KINDS.length]!;
      await page.evaluate(() => window.walletPayBench.settle());
      samples[kind] = await page.evaluate(([k, n]) => window.walletPayBench.render(k, n), [kind, o.elements] as const);
    }
    return samples;
  });
  const per = (pick: (s: RenderSample) => number) =>
    Object.fromEntries(KINDS.map((kind) => [kind, summarize(rounds.map((r) => pick(r[kind])))])) as Record<RenderKind, Summary>;
  return {
    elements: o.elements,
    totalMs: per((s) => s.totalMs),
    scriptMs: per((s) => s.scriptMs),
    ratioToLit: summarize(rounds.map((r) => r['wallet-pay-button'].totalMs / r['minimal-lit'].totalMs)),
    ratioToButton: summarize(rounds.map((r) => r['wallet-pay-button'].totalMs / r.button.totalMs)),
    scriptRatioToLit: summarize(rounds.map((r) => r['wallet-pay-button'].scriptMs / r['minimal-lit'].scriptMs)),
  };
}

let tapCounter = 0;

async function benchTap(page: Page, path: TapResults['path'], o: BrowserBenchOptions): Promise<TapResults> {
  const reasons = new Set<string>();
  const channel: BareChannel = path === 'phone' ? 'app' : 'web';
  const tap = async (bare: boolean): Promise<TapSample> => {
    await page.evaluate(() => window.walletPayBench.settle());
    await page.evaluate(([id, hosts, b]) => window.walletPayBench.armTap(id, hosts, b), [`T-${path}-${++tapCounter}`, '127.0.0.1', bare ? channel : undefined] as const);
    const button = page.locator('#tap-target button[part="button"]');
    if (path === 'phone') await button.tap();
    else await button.click();
    return page.evaluate(() => window.walletPayBench.tapResult());
  };
  // Each round takes one element sample and one control sample, in alternating order, so drift (load,
  // GC, JIT) hits both alike.
  const rounds = await repeat(o.tapWarmup, o.tapRuns, async (round) => {
    const control = round % 2 === 0 ? undefined : await tap(true);
    const sample = await tap(false);
    reasons.add(sample.reason);
    return { sample, control: control ?? (await tap(true)) };
  });
  const samples = rounds.map((r) => r.sample);
  const controls = rounds.map((r) => r.control);
  const expected = path === 'phone' ? 'app' : 'web-payment';
  if (reasons.size !== 1 || !reasons.has(expected)) {
    throw new Error(`The ${path} path should navigate for "${expected}"; it navigated for ${[...reasons].join(', ')}.`);
  }
  return {
    path,
    reason: expected,
    overheadMs: summarize(samples.map((s) => s.overheadMs)),
    tapToNavigateMs: summarize(samples.map((s) => s.tapToNavigateMs)),
    inputDelayMs: summarize(samples.map((s) => s.inputDelayMs)),
    beforeRequestMs: summarize(samples.map((s) => s.beforeRequestMs)),
    afterResponseMs: summarize(samples.map((s) => s.afterResponseMs)),
    bodyDeliveryMs: summarize(samples.map((s) => s.bodyDeliveryMs)),
    afterBodyMs: summarize(samples.map((s) => s.afterBodyMs)),
    bookRoundTripMs: summarize(samples.map((s) => s.bookRoundTripMs)),
    bareOverheadMs: summarize(controls.map((s) => s.overheadMs)),
    bareBodyDeliveryMs: summarize(controls.map((s) => s.bodyDeliveryMs)),
    ownOverheadMs: summarize(rounds.map((r) => r.sample.overheadMs - r.control.overheadMs)),
  };
}

/** Runs the page measures; `built` is the page from {@link buildBenchPage}. */
export async function benchBrowser(built: BuiltPage, o: BrowserBenchOptions = BROWSER_DEFAULTS): Promise<BrowserResults> {
  const merchantRef: { current?: Merchant } = {};
  const server = await pageServer(built, merchantRef);
  let browser: Browser | undefined;
  try {
    merchantRef.current = await startMerchant(server.url);
    // --expose-gc lets the page collect between samples, so one sample's garbage is not billed to the next.
    browser = await launchChromium({ full: true, headless: true, args: ['--js-flags=--expose-gc'] });
    const desktop = await openPage(browser, `${server.url}/`, { viewport: { width: 1280, height: 800 } });
    const render = await benchRender(desktop, o);
    const desktopTap = await benchTap(desktop, 'desktop', o);
    const phone = await openPage(browser, `${server.url}/`, { ...devices['Pixel 7'] });
    const phoneTap = await benchTap(phone, 'phone', o);
    if (merchantRef.current.errors.length > 0) {
      throw new Error(`The merchant handler reported ${merchantRef.current.errors.length} error(s): ${String(merchantRef.current.errors[0])}`);
    }
    return { chromiumVersion: browser.version(), render, taps: [desktopTap, phoneTap] };
  } finally {
    await browser?.close();
    await merchantRef.current?.close();
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// The checkout page, cold, on a slow phone: the CDN files as a merchant's page loads them.

/** The slow-phone profile: Pixel 7 emulation, 4x CPU throttling, 150 ms latency, 1.6 Mbit/s. */
export const SLOW_PHONE = { cpuThrottlingRate: 4, latencyMs: 150, downloadBitsPerSecond: 1_600_000, uploadBitsPerSecond: 750_000 } as const;

/** How many cold page loads the checkout measures take (each load is a fresh context: a cold cache). */
export interface CheckoutBenchOptions {
  /** Rounds of the tap figures (three loads each: prefetched, fetched on the tap, Nepali). */
  rounds: number;
  /**
   * Rounds of page start to button rendered (three loads each: the minimal Lit button page, the
   * element's page with one wallet and with two), each element load paired with the round's minimal
   * one; a ratio's goal is judged on at least {@link MIN_RENDER_ROUNDS}. Default 41: the median of 41
   * moves less from run to run than that of 21 (about 105 s a run on 2 cores).
   */
  renderRounds?: number;
}

/** The fewest paired rounds the render ratio is judged on: fewer make its median too noisy to judge. */
export const MIN_RENDER_ROUNDS = 21;

export const CHECKOUT_DEFAULTS: Required<CheckoutBenchOptions> = { rounds: 7, renderRounds: 41 };

/** Bytes of one page load, from Resource Timing (encoded body bytes: gzip as served). */
export interface PageBytes {
  beforeRenderBytes: number;
  wholePaymentBytes: number;
  /** Of the whole payment: the scripts (entry and chunks). */
  scriptBytes: number;
  /** Script paths loaded, in the order they finished. */
  scripts: string[];
}

/** The checkout figures. */
export interface CheckoutResults {
  profile: typeof SLOW_PHONE;
  /** Whether the CDN build has a payment chunk (else the payment code is in the entry and both tap figures measure the same page). */
  paymentChunk: boolean;
  /** `elementTwoWallets`: the element's page offering two wallets (absent from results written before it was measured). */
  renderMs: { element: Summary; minimal: Summary; elementNe: Summary; elementTwoWallets?: Summary };
  /**
   * Page start to button rendered, the element's page (one wallet) over the minimal Lit button page,
   * per round (the loads of a round back to back, in an order that rotates): its median and quartiles.
   */
  renderRatio: Summary;
  /** The same, for the element's page offering two wallets (`wallets="esewa khalti"`), in the same rounds. */
  renderRatioTwoWallets?: Summary;
  /** Click to `wallet-pay-navigate` minus the /book round trip. */
  tapPrefetchedMs: Summary;
  tapColdMs: Summary;
  tapNePrefetchedMs: Summary;
  bookRoundTripMs: Summary;
  bytes: { en: PageBytes; ne: PageBytes };
}

interface LoadSample {
  renderMs: number;
  tapMs?: number;
  bookMs?: number;
  bytes?: PageBytes;
}

/** What the init script records on the page (window.__checkout). */
interface CheckoutProbe {
  renderedAt: number;
  /**
   * When the button first became visible on screen (with a label, at its place). Not recorded yet: a
   * first-paint measure fills it in per paint variant; until then it stays NaN.
   */
  visibleAt: number;
  clickAt: number;
  navigateAt: number;
  reason: string;
}

const CDN_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.json': 'application/json' };

/**
 * How a checkout page puts the pay button on screen before the element's script has run:
 * - `script-only`: the bare tag; nothing shows until the script has defined and rendered it;
 * - `not-defined-css`: the bare tag, with a `:not(:defined)` rule in the page that reserves the
 *   button's place and look until the element takes over;
 * - `server-rendered`: the button's first render written by the server as Declarative Shadow DOM,
 *   which the element adopts.
 * Every figure measured so far uses `script-only`. A "first paint to button visible" figure loads one
 * page per variant: a variant's markup comes from {@link ElementMarkup}, and the probe's
 * `visibleAt` is where that figure's end is to be recorded.
 */
export const PAINT_VARIANTS = ['script-only', 'not-defined-css', 'server-rendered'] as const;
export type PaintVariant = (typeof PAINT_VARIANTS)[number];

/** The element's part of a checkout page: what goes in the head (before the script) and in the body. */
export interface ElementMarkup {
  head: string;
  body: string;
}

/** The two wallets a checkout page offers in the two-wallet render rounds (the shop's server's order). */
export const TWO_WALLETS = 'esewa khalti';

/** The attributes every checkout page gives the element; `wallets` when the page offers more than one. */
function elementAttributes(orderId: string, wallets?: string): string {
  return `endpoint="/api/pay" order-id="${orderId}" allowed-hosts="127.0.0.1"${wallets ? ` wallets="${wallets}"` : ''}`;
}

/**
 * The element's markup per paint variant. `server-rendered` has none until the server kit can render
 * the button's first paint; {@link checkoutHtml} refuses a variant without markup.
 */
export const ELEMENT_MARKUP: Partial<Record<PaintVariant, (orderId: string, wallets?: string) => ElementMarkup>> = {
  'script-only': (orderId, wallets) => ({ head: '', body: `<wallet-pay-button ${elementAttributes(orderId, wallets)}></wallet-pay-button>` }),
};

/**
 * One checkout page: the element's (in a paint variant, `script-only` by default; offering `wallets`
 * when given, as a shop with two wallets writes it) or the minimal Lit button's.
 */
export function checkoutHtml(kind: 'element' | 'minimal', lang: string, orderId: string, variant: PaintVariant = 'script-only', wallets?: string): string {
  const markup = ELEMENT_MARKUP[variant];
  if (kind === 'element' && !markup) throw new Error(`No checkout page markup for the paint variant "${variant}" yet.`);
  const { head, body } = kind === 'element' ? markup!(orderId, wallets) : { head: '', body: '<bench-minimal-button></bench-minimal-button>' };
  const src = kind === 'element' ? '/cdn/wallet-pay-button.min.js' : '/minimal/wallet-pay-button.min.js';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title>${head ? `\n${head}` : ''}
<script type="module" src="${src}"></script>
</head>
<body>
<h1>Checkout</h1>
<p>Order ${orderId}: 1 item, NPR 1,000.</p>
${body}
</body>
</html>`;
}

/** Serves the checkout pages, dist/cdn under /cdn/ and the minimal button under /minimal/, gzipped like a CDN. */
async function checkoutServer(minimalDir: string, merchantRef: { current?: Merchant }) {
  const { gzipSync } = await import('node:zlib');
  const cache = new Map<string, Buffer>();
  const file = (dir: string, name: string) => {
    const key = join(dir, name);
    if (!cache.has(key)) cache.set(key, gzipSync(readFileSync(key), { level: 9 }));
    return cache.get(key)!;
  };
  return listen((request, response) => {
    const rest = () => {
      const url = new URL(request.url ?? '/', 'http://bench');
      const page = /^\/(element|minimal)-(en|ne)\.html$/.exec(url.pathname);
      const asset = /^\/(cdn|minimal)\/([\w.-]+\.(js|json))$/.exec(url.pathname);
      if (page) {
        const variant = PAINT_VARIANTS.find((known) => known === (url.searchParams.get('variant') ?? 'script-only'));
        if (!variant || (page[1] === 'element' && !ELEMENT_MARKUP[variant])) {
          response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`No checkout page for the paint variant "${url.searchParams.get('variant')}".`);
          return;
        }
        const wallets = url.searchParams.get('wallets') ?? undefined;
        const body = checkoutHtml(page[1] as 'element' | 'minimal', page[2]!, url.searchParams.get('order') ?? 'C-0', variant, wallets);
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }).end(gzipSync(body, { level: 9 }));
      } else if (asset) {
        try {
          const body = file(asset[1] === 'cdn' ? join(ROOT, 'dist/cdn') : minimalDir, asset[2]!);
          response.writeHead(200, { 'content-type': CDN_TYPES[`.${asset[3]}`]!, 'content-encoding': 'gzip' }).end(body);
        } catch {
          response.writeHead(404).end();
        }
      } else response.writeHead(url.pathname === '/favicon.ico' ? 204 : 404).end();
    };
    if (merchantRef.current) withPayRoutes(merchantRef.current, rest)(request, response);
    else rest();
  });
}

/**
 * The page's way to say the button has rendered: a binding made with the DevTools protocol's
 * `Runtime.addBinding`, which puts no script in the page. Waiting with Playwright's `waitForFunction`
 * instead put Playwright's injected script in the page right after the load event, and its compile
 * (about 40 ms of the slow phone's main thread) fell inside the element page's measured window but
 * after the minimal page's, whose first frame comes sooner: it added to the element's figure only.
 */
const RENDERED_BINDING = '__checkoutRendered';

/** Records, on the page, when the button has rendered (and the frame after it ran), the click and the navigation. */
function installProbe({ tag, binding }: { tag: string; binding: string }): void {
  const probe: CheckoutProbe = { renderedAt: Number.NaN, visibleAt: Number.NaN, clickAt: Number.NaN, navigateAt: Number.NaN, reason: '' };
  (window as unknown as { __checkout: CheckoutProbe }).__checkout = probe;
  void customElements.whenDefined(tag).then(async () => {
    const element = document.querySelector(tag) as (Element & { updateComplete?: Promise<unknown> }) | null;
    await element?.updateComplete;
    // The frame that paints the first render: a message posted from its animation frame arrives after it.
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        if (!element?.shadowRoot?.querySelector('button')) return;
        probe.renderedAt = performance.now();
        (window as unknown as Record<string, (payload: string) => void>)[binding]?.('');
      };
      channel.port2.postMessage(null);
    });
  });
  window.addEventListener('click', () => (probe.clickAt = performance.now()), { capture: true, once: true });
  document.addEventListener(
    'wallet-pay-navigate',
    (event) => {
      probe.navigateAt = performance.now();
      probe.reason = event.detail.reason;
      // The page stays: its Resource Timing entries are read after.
      event.preventDefault();
    },
    { capture: true },
  );
}

let checkoutOrder = 0;

/**
 * One cold page load on the slow phone. `tap`: none (render only), `prefetched` (tap once the payment
 * chunk is loaded) or `cold` (the payment chunk's request is held until the tap, so all of its fetch
 * falls after it).
 */
async function coldLoad(
  browser: Browser,
  origin: string,
  kind: 'element' | 'minimal',
  lang: 'en' | 'ne',
  tap: 'none' | 'prefetched' | 'cold',
  paymentChunk: boolean,
  variant: PaintVariant = 'script-only',
  wallets?: string,
): Promise<LoadSample> {
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    await context.addInitScript(installProbe, { tag: kind === 'element' ? 'wallet-pay-button' : 'bench-minimal-button', binding: RENDERED_BINDING });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`bench page error: ${error.message}`));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Runtime.enable');
    await cdp.send('Runtime.addBinding', { name: RENDERED_BINDING });
    const rendered = new Promise<void>((resolve) => cdp.on('Runtime.bindingCalled', (event) => event.name === RENDERED_BINDING && resolve()));
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: SLOW_PHONE.latencyMs,
      downloadThroughput: SLOW_PHONE.downloadBitsPerSecond / 8,
      uploadThroughput: SLOW_PHONE.uploadBitsPerSecond / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuThrottlingRate });
    let release = () => {};
    if (tap === 'cold' && paymentChunk) {
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/cdn\/payment-[\w-]+\.min\.js$/, async (route) => {
        await held;
        await route.continue();
      });
    }
    // Nothing of the harness runs in the page until the button has rendered (see RENDERED_BINDING).
    const offered = wallets ? `&wallets=${encodeURIComponent(wallets)}` : '';
    await page.goto(`${origin}/${kind}-${lang}.html?order=C-${++checkoutOrder}&variant=${variant}${offered}`, { waitUntil: 'commit' });
    await within(rendered, 60_000, `the ${kind} checkout page (${lang}${wallets ? `, wallets "${wallets}"` : ''}) to render its button`);
    const probe = () => page.evaluate(() => (window as unknown as { __checkout: CheckoutProbe }).__checkout);
    const renderMs = (await probe()).renderedAt;
    if (wallets) {
      // The figure is the wallets' buttons only if they are what rendered, not the one pay button.
      const parts = await page.evaluate(() => [...(document.querySelector('wallet-pay-button')?.shadowRoot?.querySelectorAll('button:not([hidden])') ?? [])].map((b) => b.getAttribute('part') ?? ''));
      const drawn = wallets.split(' ').filter((wallet) => parts.some((part) => part.split(' ').includes(`button-${wallet}`)));
      if (drawn.length !== wallets.split(' ').length) throw new Error(`The checkout page offering "${wallets}" rendered the buttons [${parts.join(', ')}], not one per wallet.`);
    }
    if (tap === 'none') return { renderMs };
    if (tap === 'prefetched' && paymentChunk) {
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => /\/cdn\/payment-[\w-]+\.min\.js$/.test(entry.name)), null, {
        timeout: 60_000,
      });
      // The chunk has arrived; give the throttled CPU time to compile and run it.
      await page.waitForTimeout(1000);
    } else if (tap === 'prefetched') {
      await page.waitForTimeout(1000);
    }
    release();
    await page.locator('wallet-pay-button button[part~="button"]').tap();
    await page.waitForFunction(() => Number.isFinite((window as unknown as { __checkout: CheckoutProbe }).__checkout.navigateAt), null, { timeout: 60_000 });
    const done = await probe();
    if (done.reason !== 'app') throw new Error(`The checkout tap should navigate for "app"; it navigated for "${done.reason}".`);
    const timing = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return {
        navigation: { bytes: navigation.encodedBodySize, end: navigation.responseEnd },
        resources: entries.map((entry) => ({ path: new URL(entry.name).pathname, bytes: entry.encodedBodySize, start: entry.startTime, end: entry.responseEnd })),
      };
    });
    const book = timing.resources.filter((entry) => entry.path === '/api/pay/book').pop();
    if (!book) throw new Error('No Resource Timing entry for the /book request.');
    const bookMs = book.end - book.start;
    const scripts = timing.resources.filter((entry) => entry.path.endsWith('.js')).sort((a, b) => a.end - b.end);
    const all = [timing.navigation, ...timing.resources];
    return {
      renderMs,
      bookMs,
      tapMs: done.navigateAt - done.clickAt - bookMs,
      bytes: {
        beforeRenderBytes: all.filter((entry) => entry.end <= renderMs).reduce((sum, entry) => sum + entry.bytes, 0),
        wholePaymentBytes: all.reduce((sum, entry) => sum + entry.bytes, 0),
        scriptBytes: scripts.reduce((sum, entry) => sum + entry.bytes, 0),
        scripts: scripts.map((entry) => entry.path),
      },
    };
  } finally {
    await context.close();
  }
}

/** The pages of a render round: the minimal Lit button's, the element's with one wallet, and with two. */
const RENDER_PAGES = ['minimal', 'element', 'two-wallets'] as const;

/**
 * The checkout page figures. Page start to button rendered: rounds, each loading, cold, the minimal
 * Lit button page, the element's English page (one wallet) and the same page offering two wallets
 * back to back, in an order that rotates from round to round, so drift on the machine hits all alike;
 * each ratio is taken per round. The taps:
 * rounds of three loads (English, tapped with the payment chunk prefetched; English, tapped with the
 * chunk held until the tap; Nepali, prefetched), in an order that rotates each round.
 */
export async function benchCheckout(minimal: BuiltPage, paymentChunk: boolean, o: CheckoutBenchOptions = CHECKOUT_DEFAULTS): Promise<CheckoutResults> {
  const renderRounds = o.renderRounds ?? CHECKOUT_DEFAULTS.renderRounds;
  const merchantRef: { current?: Merchant } = {};
  const server = await checkoutServer(minimal.dir, merchantRef);
  let browser: Browser | undefined;
  try {
    merchantRef.current = await startMerchant(server.url);
    browser = await launchChromium({ full: true, headless: true });
    const b = browser;
    // One warm-up round (Chromium's own first start, the server's first gzip), thrown away.
    const renders = await repeat(1, renderRounds, async (round) => {
      const samples = {} as Record<(typeof RENDER_PAGES)[number], number>;
      for (let i = 0; i < RENDER_PAGES.length; i++) {
        const which = RENDER_PAGES[(round + i) % RENDER_PAGES.length]!;
        const kind = which === 'minimal' ? 'minimal' : 'element';
        samples[which] = (await coldLoad(b, server.url, kind, 'en', 'none', paymentChunk, 'script-only', which === 'two-wallets' ? TWO_WALLETS : undefined)).renderMs;
      }
      return samples;
    });
    const runs = [
      ['prefetched', () => coldLoad(b, server.url, 'element', 'en', 'prefetched', paymentChunk)],
      ['cold', () => coldLoad(b, server.url, 'element', 'en', 'cold', paymentChunk)],
      ['ne', () => coldLoad(b, server.url, 'element', 'ne', 'prefetched', paymentChunk)],
    ] as const;
    const rounds = await repeat(1, o.rounds, async (round) => {
      const samples = {} as Record<(typeof runs)[number][0], LoadSample>;
      for (let i = 0; i < runs.length; i++) {
        const [name, run] = runs[(round + i) % runs.length]!;
        samples[name] = await run();
      }
      return samples;
    });
    if (merchantRef.current.errors.length > 0) {
      throw new Error(`The merchant handler reported ${merchantRef.current.errors.length} error(s): ${String(merchantRef.current.errors[0])}`);
    }
    const last = rounds.at(-1)!;
    return {
      profile: SLOW_PHONE,
      paymentChunk,
      renderMs: {
        element: summarize(renders.map((r) => r.element)),
        minimal: summarize(renders.map((r) => r.minimal)),
        elementNe: summarize(rounds.map((r) => r.ne.renderMs)),
        elementTwoWallets: summarize(renders.map((r) => r['two-wallets'])),
      },
      renderRatio: summarize(renders.map((r) => r.element / r.minimal)),
      renderRatioTwoWallets: summarize(renders.map((r) => r['two-wallets'] / r.minimal)),
      tapPrefetchedMs: summarize(rounds.map((r) => r.prefetched.tapMs!)),
      tapColdMs: summarize(rounds.map((r) => r.cold.tapMs!)),
      tapNePrefetchedMs: summarize(rounds.map((r) => r.ne.tapMs!)),
      bookRoundTripMs: summarize(rounds.flatMap((r) => [r.prefetched.bookMs!, r.cold.bookMs!, r.ne.bookMs!])),
      bytes: { en: last.prefetched.bytes!, ne: last.ne.bytes! },
    };
  } finally {
    await browser?.close();
    await merchantRef.current?.close();
    await server.close();
  }
}
