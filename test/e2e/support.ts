/**
 * What every end-to-end suite shares: the playground (demo/ built once per process and served by Vite's
 * preview server, or from source by its dev server, with the sandbox and the merchant kit, all real, on
 * loopback), one Chromium per file, the device profiles, a page that records uncaught errors and
 * console errors, and the shopper's steps on the sandbox's pages.
 */
import { after, before } from 'node:test';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, preview, type Plugin } from 'vite';
import { devices, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page, type Route } from 'playwright';
import { playground, type MerchantRecord, type PlaygroundState } from '../../demo/server/playground.js';
import { launchChromium } from '../../scripts/chromium.mjs';
import { viteBuild } from '../../scripts/vite-build.mjs';
import { cdnChunkFileName } from '../../vite.config.js';
import type { Sandbox, SandboxBooking, SandboxOptions } from '../../src/sandbox/index.js';
import { EPAY_TEST_LOGIN } from '../../src/sandbox/epay/rules.js';
import { within } from '../support/within.js';

/**
 * Serves the pages without Vite's dev client, as a merchant's server would: the client opens a
 * WebSocket even without HMR, and an open WebSocket keeps a page out of the back/forward cache in
 * Chromium before its WebSockets were closed on entry (150 kept the checkout out, 156 restores it).
 */
function withoutDevClient(): Plugin {
  return {
    name: 'e2e-without-dev-client',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace(/<script type="module" src="\/@vite\/client"><\/script>\s*/, ''),
    },
  };
}

/** A running playground, as a test sees it. */
export interface Playground {
  origin: string;
  sandbox: Sandbox;
  records: Map<string, MerchantRecord>;
  /** Every result this run handed to the merchant's `onPaymentResult`. */
  deliveries: PlaygroundState['deliveries'];
  /** One reconcile pass of the playground's merchant. */
  reconcile: PlaygroundState['reconcile'];
  /** Stops the server, the sandbox and the data folder's database. */
  close(): Promise<void>;
}

/** Where a playground keeps its state, on which port it listens, and what it serves. */
export interface PlaygroundPlace {
  /** A data folder kept across restarts; default none (everything in memory, fresh each start). */
  dataDir?: string;
  /** Default 0 (a free port). */
  port?: number;
  /**
   * `'build'` (the default): demo/ built once per process, as a shop ships it; `'source'`: Vite's dev
   * server transforming each module of src/ on request, for a page that imports one by its path.
   */
  pages?: 'build' | 'source';
}

// The demo's real folder, also when this module runs from the Node suite's compiled copy
// (scripts/compiled-tests.mjs), whose files are links: the bundler follows links to their targets.
const DEMO = dirname(realpathSync(fileURLToPath(new URL('../../demo/index.html', import.meta.url))));
const DEMO_PAGES = ['index.html', 'success.html', 'failure.html', 'phone.html'];

let builtDemo: Promise<string> | undefined;

/**
 * Builds demo/ once per process into a temporary folder (removed when the process exits). A page load
 * of the built playground takes about half the CPU of one from the dev server (8 requests instead of
 * 54, and no module transformed), which is most of what an end-to-end journey costs.
 */
function demoBuild(): Promise<string> {
  builtDemo ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'wpb-e2e-demo-'));
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    // Chunks named as the CDN build names them (`handoff-[hash].min.js`), so a test can stand between
    // the page and one.
    await viteBuild({
      configFile: false,
      root: DEMO,
      logLevel: 'error',
      build: {
        outDir,
        emptyOutDir: true,
        target: 'es2022',
        rolldownOptions: { input: DEMO_PAGES.map((page) => join(DEMO, page)), output: { chunkFileNames: cdnChunkFileName } },
      },
    });
    return outDir;
  })();
  return builtDemo;
}

/**
 * Starts the playground (on a free port unless told); the sandbox's callback retries are short so
 * tests stay fast.
 */
export async function startPlayground(sandbox: SandboxOptions = {}, place: PlaygroundPlace = {}): Promise<Playground> {
  let resolveReady!: (state: PlaygroundState) => void;
  const ready = new Promise<PlaygroundState>((resolve) => {
    resolveReady = resolve;
  });
  const plugin = playground({
    sandbox: { callbackRetry: { attempts: 3, baseDelayMs: 50 }, ...sandbox },
    dataDir: place.dataDir ?? null,
    onReady: resolveReady,
  });
  const listen = { host: '127.0.0.1', port: place.port ?? 0, strictPort: place.port !== undefined };
  let stop: () => Promise<void>;
  if (place.pages === 'source') {
    // A dependency cache of its own: the end-to-end files run concurrently, and two servers optimizing
    // into one shared folder could each find the other's half-written files.
    const cacheDir = mkdtempSync(join(tmpdir(), 'wpb-e2e-vite-'));
    const server = await createServer({
      configFile: false,
      root: DEMO,
      cacheDir,
      logLevel: 'warn',
      // No HMR socket: nothing in the tests edits files, and a socket would keep pages out of the bfcache.
      server: { ...listen, hmr: false },
      plugins: [withoutDevClient(), plugin],
    });
    await server.listen();
    // The first page load makes Vite transform the element's modules; doing it here keeps each test's
    // timing (the booking timeout, the fallback delay) free of a cold compile.
    await server.warmupRequest('/checkout.ts');
    await server.warmupRequest('/result.ts');
    stop = async () => {
      await server.close();
      rmSync(cacheDir, { recursive: true, force: true });
    };
  } else {
    const outDir = await demoBuild();
    // Vite's preview server sets NODE_ENV to production when it is unset, for the whole process; the kit
    // in this process keeps what the dev server gave it (development), or it warns of the memory store.
    process.env.NODE_ENV ??= 'development';
    const server = await preview({ configFile: false, root: DEMO, logLevel: 'warn', build: { outDir }, preview: listen, plugins: [plugin] });
    stop = () => server.close();
  }
  const state = await within(ready, 30_000, 'the playground to report it is ready');
  return {
    origin: state.origin,
    sandbox: state.sandbox,
    records: state.records,
    deliveries: state.deliveries,
    reconcile: state.reconcile,
    close: async () => {
      await stop();
      await state.close();
    },
  };
}

/** What a suite of end-to-end tests runs against: filled in before its first test. */
export interface Suite {
  pg: Playground;
  browser: Browser;
}

/**
 * Starts the playground and a browser before the file's tests (together: neither waits for the
 * other), and closes both after them. Every end-to-end file sets up through this one helper.
 */
export function useSuite(options: { sandbox?: SandboxOptions; pages?: PlaygroundPlace['pages']; prepare?: () => Promise<unknown> } = {}): Suite {
  const suite = {} as Suite;
  before(async () => {
    [suite.pg, suite.browser] = await Promise.all([
      startPlayground(options.sandbox, { pages: options.pages }),
      launchBrowser(),
      options.prepare?.(),
    ]);
  });
  after(async () => {
    await suite.browser?.close();
    await suite.pg?.close();
  });
  return suite;
}

/** Launches the project's Chromium (scripts/chromium.mjs): its headless shell, or Chromium itself for the back/forward cache. */
export function launchBrowser(options: { bfcache?: boolean } = {}): Promise<Browser> {
  // Playwright turns the back/forward cache off by default; the back-button journey needs it, and
  // only the whole browser has one (the headless shell never restores a page from it).
  return launchChromium(options.bfcache ? { full: true, ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {});
}

function withoutBrowserType(device: (typeof devices)[string]): BrowserContextOptions {
  const { defaultBrowserType: _ignored, ...options } = device;
  return options;
}

/** An Android WebView's user agent: the `; wv)` token and `Version/4.0` (Android CDD 3.4.1). */
export const WEBVIEW_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36';

/** The device profiles of the issue. */
export const PROFILES = {
  desktop: { viewport: { width: 1280, height: 800 } } satisfies BrowserContextOptions,
  pixel7: withoutBrowserType(devices['Pixel 7']!),
  iphone14: withoutBrowserType(devices['iPhone 14']!),
  webview: { ...withoutBrowserType(devices['Pixel 7']!), userAgent: WEBVIEW_USER_AGENT },
} as const;

export type ProfileName = keyof typeof PROFILES;

/** A page with what went wrong in it recorded. */
export interface Shopper {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors in any page of the context. */
  pageErrors: Error[];
  /** Console errors that are not an expected failed request. */
  consoleErrors: string[];
  /** Every URL the main frame committed to, in order. */
  visited: string[];
}

/**
 * Opens a fresh context and page. A console error is "expected" only when it is Chromium's report of a
 * failed request to the merchant proxy (`Failed to load resource`, `net::ERR_...`): those are the faults.
 */
export async function openShopper(browser: Browser, profile: ProfileName, extra: BrowserContextOptions = {}): Promise<Shopper> {
  const context = await browser.newContext({ ...PROFILES[profile], ...extra });
  const page = await context.newPage();
  const shopper: Shopper = { context, page, pageErrors: [], consoleErrors: [], visited: [] };
  page.on('pageerror', (error) => shopper.pageErrors.push(error));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // Chromium reports each failed request; only those to the merchant proxy, where the faults are
    // injected, are expected. A failed page, script or record lookup still counts as an error.
    if (/^Failed to load resource|net::ERR_/.test(text) && isProxyUrl(message.location().url)) return;
    // Vite's own dev client (not the product) logs its socket closing when a page enters the bfcache or
    // the context goes offline.
    if (/^WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/\?token=|^\[vite\]/.test(text)) return;
    const where = message.location().url;
    shopper.consoleErrors.push(where ? `${text} (${where})` : text);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) shopper.visited.push(frame.url());
  });
  // Element events are kept in sessionStorage so a test can read them after the page was left.
  await context.addInitScript(() => {
    for (const name of ['booked', 'navigate', 'webview', 'pending', 'success', 'failure', 'error', 'cancel']) {
      document.addEventListener(`wallet-pay-${name}`, (event) => {
        const list = JSON.parse(sessionStorage.getItem('e2e:events') ?? '[]') as unknown[];
        list.push({ type: name, detail: (event as CustomEvent).detail ?? null });
        sessionStorage.setItem('e2e:events', JSON.stringify(list));
      });
    }
  });
  return shopper;
}

function isProxyUrl(url: string): boolean {
  try {
    return new URL(url).pathname.startsWith('/api/pay/');
  } catch {
    return false;
  }
}

/** An element event as recorded by {@link openShopper}. */
export interface RecordedEvent {
  type: string;
  detail: Record<string, unknown> | null;
}

/** The element events fired in this tab so far (read on a page of the merchant's origin). */
export async function elementEvents(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e:events') ?? '[]') as RecordedEvent[]);
}

/** The checkout's element, located through its open shadow root. */
export function element(page: Page) {
  const host = page.locator('wallet-pay-button');
  return {
    host,
    // One wallet: "Pay with wallet"; the eSewa-first checkout's two wallets: eSewa's button.
    pay: page.getByRole('button', { name: /^Pay with (wallet|eSewa)$/ }),
    payWith: (wallet: 'eSewa' | 'Khalti') => page.getByRole('button', { name: `Pay with ${wallet}`, exact: true }),
    status: host.locator('[role="status"]'),
    panel: host.getByRole('group', { name: 'Other ways to pay' }),
    openApp: host.getByRole('link', { name: 'Open the wallet app' }),
    getApp: host.getByRole('link', { name: 'Get the wallet app' }),
    payOnWeb: host.getByRole('button', { name: 'Pay on the web instead' }),
    cancel: host.getByRole('button', { name: 'Cancel payment' }),
    checkAgain: host.getByRole('button', { name: 'Check again' }),
    retry: host.getByRole('button', { name: 'Try again' }),
  };
}

/**
 * A phone without the wallet app: the deeplink does not leave the page (a 204 answer to a navigation
 * keeps the current page). Returns what installs the app again.
 */
export async function withoutWalletApp(page: Page, sandbox: Sandbox): Promise<() => Promise<void>> {
  const pattern = `${sandbox.linksUrl}/**`;
  const handler = (route: Route) => route.fulfill({ status: 204 });
  await page.route(pattern, handler);
  return () => page.unroute(pattern, handler);
}

/**
 * Opens the checkout with one catalogue item chosen (`search`, e.g. `?web=epay`, is added to its
 * address). Returns the tab's checkout: its orders are
 * `<item>/<checkout>`, which {@link bookingsOf} finds among the bookings of tests running beside it.
 */
export async function openCheckout(shopper: Shopper, origin: string, item = 'A-1001', search = ''): Promise<string> {
  const { page } = shopper;
  await page.goto(`${origin}/${search}`);
  await page.locator(`input[name="item"][value="${item}"]`).check();
  await element(page).pay.waitFor();
  // The order is the item in this tab's checkout: `A-1001/<checkout>`.
  await page.waitForFunction((id) => document.querySelector('wallet-pay-button')?.getAttribute('order-id')?.startsWith(`${id}/`), item);
  const orderId = await element(page).host.getAttribute('order-id');
  return orderId!.slice(item.length + 1);
}

/**
 * {@link openCheckout} in someone else's in-app browser, whose button reads "Pay on the web" (once the
 * payment code is in): waits for that button instead of "Pay with wallet". Returns the tab's checkout.
 */
export async function openInAppCheckout(shopper: Shopper, origin: string, item = 'A-1001'): Promise<string> {
  const { page } = shopper;
  await page.goto(`${origin}/`);
  await page.locator(`input[name="item"][value="${item}"]`).check();
  await payOnTheWeb(page).waitFor({ timeout: 15_000 });
  await page.waitForFunction((id) => document.querySelector('wallet-pay-button')?.getAttribute('order-id')?.startsWith(`${id}/`), item, { timeout: 10_000 });
  const orderId = await element(page).host.getAttribute('order-id');
  return orderId!.slice(item.length + 1);
}

/**
 * Holds the provider's web payment page at `url` (a route pattern): the navigation to it is answered
 * 204, so the tab stays, as when the shopper comes back from it unpaid. `reached` resolves once that
 * answer was sent (bring the page back into view only then, never while the press is on its way);
 * `release` lets the page load again.
 */
export async function holdWebPayment(page: Page, url: string): Promise<{ reached: (limitMs?: number) => Promise<void>; release: () => Promise<void> }> {
  let answered!: () => void;
  const left = new Promise<void>((resolve) => (answered = resolve));
  const handler = async (route: Route) => {
    await route.fulfill({ status: 204 });
    answered();
  };
  await page.route(url, handler);
  return {
    reached: (limitMs = 10_000) => within(left, limitMs, "the press to reach the provider's web payment"),
    release: () => page.unroute(url, handler),
  };
}

/** The element's own button in someone else's in-app browser: "Pay on the web". */
export function payOnTheWeb(page: Page): Locator {
  return element(page).host.getByRole('button', { name: 'Pay on the web', exact: true });
}

/**
 * The checkout's return address the provider sends the shopper to: the checkout naming its order
 * (`?checkout=…&item=…`), then what the provider adds (`rest`, e.g. `booking_id=…&status=SUCCESS`).
 */
export function returnAddress(origin: string, rest: string, exact = true): RegExp {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped(origin)}/\\?checkout=[a-z0-9]+&item=[\\w-]+&${escaped(rest)}${exact ? '$' : ''}`);
}

/** Waits (Playwright's auto-waiting) until the status region shows a text, and returns all of it. */
export async function waitForText(locator: Locator, expected: string | RegExp, timeout = 10_000): Promise<string> {
  const matching = locator.filter({ hasText: expected });
  await matching.waitFor({ timeout });
  return (await matching.textContent()) ?? '';
}

/** On the sandbox's wallet or web payment page: choose a method, enter the MPIN, confirm. */
export async function confirmOnProviderPage(page: Page, mpin: string, method: 'Wallet balance' | 'bank' = 'Wallet balance'): Promise<void> {
  await page.getByRole('heading', { name: /confirm payment/ }).waitFor();
  if (method === 'bank') await page.getByRole('radio', { name: /bank/i }).check();
  await page.getByLabel('MPIN').fill(mpin);
  await page.getByRole('button', { name: 'Confirm payment' }).click();
}

/**
 * The wallet app paying in the background while the browser tab waits (the shopper will come back by
 * the back button or by switching tabs): the same form the wallet page posts.
 */
export async function payInWalletApp(context: BrowserContext, sandbox: Sandbox, bookingId: string, mpin = '1234'): Promise<void> {
  const response = await context.request.post(`${sandbox.linksUrl}/pay/${encodeURIComponent(bookingId)}/confirm`, {
    form: { mpin, method: 'wallet_balance' },
    maxRedirects: 0,
  });
  if (response.status() !== 303) throw new Error(`The wallet page answered ${response.status()}: ${await response.text()}`);
}

/** The booking id the sandbox page shows. */
export async function bookingIdOnProviderPage(page: Page): Promise<string> {
  const text = await page.locator('dt:text-is("Booking") + dd').textContent();
  if (!text) throw new Error('The provider page shows no booking id.');
  return text.trim();
}

/** The merchant's result page: waits for the verified record and returns what it shows. */
export async function resultPage(page: Page): Promise<{ page: 'success' | 'failure'; booking: string; status: string; verified: string }> {
  await page.locator('#record[aria-busy="false"]').waitFor();
  const kind = await page.locator('body').getAttribute('data-page');
  const read = async (id: string) => ((await page.locator(`#${id}`).textContent()) ?? '').trim();
  return { page: kind === 'success' ? 'success' : 'failure', booking: await read('booking'), status: await read('status'), verified: await read('verified') };
}

/**
 * The bookings of one checkout's orders (the kit sends the order id as `merchant_order`), oldest
 * first. A test counts its own this way, not by the sandbox's total, so tests may run side by side.
 */
export function bookingsOf(sandbox: Sandbox, checkout: string): SandboxBooking[] {
  return sandbox.listBookings().filter((booking) => booking.properties['merchant_order']?.endsWith(`/${checkout}`));
}

/** Asserts nothing went wrong in the page beyond the expected failed requests. */
export function cleanConsole(shopper: Shopper): string[] {
  return [...shopper.pageErrors.map((error) => `pageerror: ${error.message}`), ...shopper.consoleErrors];
}

/** Polls `predicate` (every 20 ms) until it holds; fails with `message` after `timeout` ms. */
export async function until(predicate: () => boolean | Promise<boolean>, message: string, timeout = 10_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`${message} (after ${timeout} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What the shopper types on the sandbox's ePay login page; eSewa's published test login by default. */
export interface EpayLogin {
  esewaId: string;
  password: string;
  token: string;
}

/** eSewa's published test login, as the sandbox's ePay page takes it. */
export const EPAY_LOGIN: EpayLogin = { esewaId: EPAY_TEST_LOGIN.ids[0], password: EPAY_TEST_LOGIN.password, token: EPAY_TEST_LOGIN.token };

/** On the sandbox's ePay login page (waited for up to `timeout` ms): sign in and press Pay. */
export async function signInOnEpayPage(page: Page, login: EpayLogin = EPAY_LOGIN, timeout = 10_000): Promise<void> {
  await page.getByRole('heading', { name: 'eSewa: sign in to pay' }).waitFor({ timeout });
  await page.getByLabel('eSewa ID').fill(login.esewaId);
  await page.getByLabel('Password').fill(login.password);
  await page.getByLabel('Token').fill(login.token);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
}

/** The transaction id (eSewa's `transaction_uuid`, the kit's booking id) the sandbox's ePay page shows. */
export async function transactionOnEpayPage(page: Page): Promise<string> {
  const text = await page.locator('dt:text-is("Transaction") + dd').textContent();
  if (!text) throw new Error('The ePay page shows no transaction.');
  return text.trim();
}

/** The sandbox's ePay transactions (its `GET /sandbox/epay/transactions` control), oldest first. */
export async function epayTransactions(sandbox: Sandbox): Promise<Array<{ transaction_uuid: string; status: string; product_code: string }>> {
  const response = await within(fetch(`${sandbox.baseUrl}/sandbox/epay/transactions`), 5_000, "the sandbox's list of ePay transactions");
  if (!response.ok) throw new Error(`GET /sandbox/epay/transactions answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: Array<{ transaction_uuid: string; status: string; product_code: string }> }).data;
}

/** The sandbox's Khalti payment as its control shows it (`GET /sandbox/khalti/payments/{pidx}`). */
export interface KhaltiPaymentSeen {
  pidx: string;
  status: string;
  purchase_order_id: string;
  transaction_id: string | null;
  amount: number;
}

/** The sandbox's Khalti payment `pidx`, through its control; fails naming the answer when it has none. */
export async function khaltiPayment(sandbox: Sandbox, pidx: string): Promise<KhaltiPaymentSeen> {
  const response = await within(fetch(`${sandbox.baseUrl}/sandbox/khalti/payments/${encodeURIComponent(pidx)}`), 5_000, `the sandbox's Khalti payment ${pidx}`);
  if (!response.ok) throw new Error(`GET /sandbox/khalti/payments/${pidx} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as KhaltiPaymentSeen;
}

/**
 * Waits (up to `timeout` ms) for the tab to show the sandbox's Khalti pay page and returns its address
 * and `pidx` (the kit's booking id); fails naming where the tab is instead.
 */
export async function onKhaltiPage(page: Page, sandbox: Sandbox, timeout = 10_000): Promise<{ url: string; pidx: string }> {
  const prefix = `${sandbox.baseUrl}/khalti/pay/?pidx=`;
  try {
    await page.waitForURL((url) => url.href.startsWith(prefix), { timeout });
    await page.getByRole('heading', { name: 'Pay with Khalti' }).waitFor({ timeout });
  } catch (error) {
    throw new Error(`Khalti's pay page (${prefix}…) within ${timeout} ms; the tab is at ${page.url()}`, { cause: error });
  }
  const url = page.url();
  return { url, pidx: new URL(url).searchParams.get('pidx') ?? '' };
}
