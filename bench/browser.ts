/**
 * Page figures, in headless Chromium: render cost of 1,000 elements against two baselines in one page
 * session, and the element's own overhead between a tap and the start of the navigation, on the
 * desktop path and the phone path (Pixel 7 emulation). The merchant proxy is the real handler in
 * front of the real sandbox, on the page's own origin.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { devices, type Browser, type BrowserContextOptions, type Page } from 'playwright';
import { launchChromium } from '../scripts/chromium.mjs';
import { listen } from '../test/node/server/helpers.js';
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
  const script = readFileSync(join(built.dir, 'bench.js'));
  return listen((request, response) => {
    const rest = () => {
      const path = (request.url ?? '/').split('?')[0];
      if (path === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      else if (path === '/bench.js') response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
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
    browser = await launchChromium({ headless: true, args: ['--js-flags=--expose-gc'] });
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
