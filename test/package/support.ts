/**
 * What the tests of the built package share: a merchant server on loopback (the merchant kit's real
 * handler in front of the real sandbox, plus static pages and the built files), one Chromium, and the
 * shopper's steps on the sandbox's web payment page. Pages are plain HTML with no bundler: what a
 * merchant who copies a `<script>` tag gets.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { build } from 'vite';
import { cdnBuild } from '../../vite.config.js';
import { launchChromium } from '../../scripts/chromium.mjs';
import { createMemoryStore, createPaymentHandler } from '../../src/server/index.js';
import type { PaymentProvider } from '../../src/server/provider.js';
import { toNodeListener } from '../../src/server/node.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const DIST = join(ROOT, 'dist');

/** The order every page pays for; the merchant's lookup knows only this one. */
export const ORDER_ID = 'DIST-1';
/** The orders the test merchant sells: ORDER_ID and the per-page `ORDER_ID-n`. */
const ORDER_PATTERN = /^DIST-1(-\d+)?$/;
/** Counts checkout pages served: each load is an order of its own, as on a real shop. */
let pagesServed = 0;
const ACCESS_KEY = 'dist-test-access-key';
const PRODUCT_CODE = 'DIST_SHOP';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** A page or script the merchant server serves at a path. */
export interface StaticFile {
  body: string;
  /** Content type; by the path's extension when absent. */
  type?: string;
  headers?: Record<string, string>;
}

export interface MerchantOptions {
  /** Files by path (e.g. `/checkout.html`). */
  files?: Record<string, StaticFile>;
  /** Directories served under a path prefix (e.g. `{ '/dist/': DIST }`). */
  directories?: Record<string, string>;
  /** Headers added to every HTML answer (e.g. a Content-Security-Policy). */
  htmlHeaders?: (origin: string, sandbox: Sandbox, path: string) => Record<string, string>;
  /** Where the provider sends the shopper back; default `/checkout.html`. */
  returnPath?: string;
  /**
   * The handler's providers, made for the started sandbox; default none listed, the intent service
   * configured by its own options (the sandbox's access key and product code).
   */
  providers?: (sandbox: Sandbox) => PaymentProvider[];
}

/** A running merchant server with its sandbox. */
export interface Merchant {
  origin: string;
  sandbox: Sandbox;
  /** Bodies POSTed to `/csp-report` (a CSP `report-uri`), parsed. */
  cspReports: unknown[];
  close(): Promise<void>;
}

/**
 * Starts the sandbox and a merchant server: `/api/pay/*` is the merchant kit's handler (the
 * element's endpoint), `/csp-report` collects violation reports, the rest is static.
 */
export async function startMerchant(options: MerchantOptions = {}): Promise<Merchant> {
  const sandbox = await startSandbox({
    accessKey: ACCESS_KEY,
    productCode: PRODUCT_CODE,
    callbackRetry: { attempts: 2, baseDelayMs: 50 },
  });
  const cspReports: unknown[] = [];
  let origin = '';
  const handler = createPaymentHandler({
    ...(options.providers ? { providers: options.providers(sandbox) } : { serviceUrl: sandbox.baseUrl, productCode: PRODUCT_CODE, accessKey: ACCESS_KEY }),
    callbackUrl: 'http://127.0.0.1:9/unused-callback',
    // The shopper comes back to the checkout of the order they paid (a fresh load is a new order).
    redirectUrl: ({ order }) => `${origin}${options.returnPath ?? '/checkout.html'}?order=${encodeURIComponent(String(order.id))}`,
    // ORDER_ID, or one of the per-page orders the static server writes into checkout pages.
    lookupOrder: (order) =>
      typeof order.id === 'string' && ORDER_PATTERN.test(order.id) ? { id: order.id, amount: 250, properties: { order_id: order.id } } : undefined,
    store: createMemoryStore(),
    // The element's own status check decides where the shopper lands; nothing to record here.
    onPaymentResult: () => undefined,
  });
  const pay = toNodeListener(handler);

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = decodeURIComponent(url.pathname);
    if (path.startsWith('/api/pay/')) {
      pay(request, response);
      return;
    }
    if (path === '/favicon.ico') {
      // Chromium asks for it on every first load; a 404 would show up as a console error.
      response.writeHead(204).end();
      return;
    }
    if (path === '/csp-report' && request.method === 'POST') {
      void readBody(request).then((text) => {
        cspReports.push(parseReport(text));
        response.writeHead(204).end();
      });
      return;
    }
    void serveStatic(path, url.searchParams.get('order'), response, options, origin, sandbox);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    sandbox,
    cspReports,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await sandbox.close();
    },
  };
}

async function serveStatic(path: string, order: string | null, response: ServerResponse, options: MerchantOptions, origin: string, sandbox: Sandbox): Promise<void> {
  let file: StaticFile | undefined = options.files?.[path];
  if (!file) {
    for (const [prefix, directory] of Object.entries(options.directories ?? {})) {
      if (!path.startsWith(prefix)) continue;
      const target = normalize(join(directory, path.slice(prefix.length)));
      if (!target.startsWith(directory + sep)) break;
      try {
        file = { body: await readFile(target, 'utf8') };
      } catch {
        // Not there: answered 404 below.
      }
      break;
    }
  }
  if (!file) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end(`No file at ${path}`);
    return;
  }
  const type = file.type ?? TYPES[extname(path)] ?? 'application/octet-stream';
  const extra = type.startsWith('text/html') ? (options.htmlHeaders?.(origin, sandbox, path) ?? {}) : {};
  // Each checkout page loaded afresh is an order of its own, as on a real shop: the kit refuses to book
  // an order again once it is paid (IP-412), and several tests pay through the same page. The way back
  // from the provider names its order (`?order=`, see redirectUrl).
  const orderId = order !== null && ORDER_PATTERN.test(order) ? order : `${ORDER_ID}-${++pagesServed}`;
  const body = type.startsWith('text/html') ? file.body.replaceAll(`order-id="${ORDER_ID}"`, `order-id="${orderId}"`) : file.body;
  response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...extra, ...file.headers }).end(body);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    request.on('error', fail);
  });
}

function parseReport(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A checkout page: the element configured by attributes only, and the given script tags. */
export function checkoutPage(scripts: string, attributes = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Checkout</title>
${scripts}
</head>
<body>
<h1>Checkout</h1>
<wallet-pay-button endpoint="/api/pay" order-id="${ORDER_ID}" environment="desktop" success-url="/success.html" failure-url="/failure.html" allowed-hosts="127.0.0.1"${attributes ? ` ${attributes}` : ''}></wallet-pay-button>
</body>
</html>`;
}

/** A plain result page. */
export function resultPage(title: string, scripts = ''): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>${scripts}</head>
<body><h1>${title}</h1></body>
</html>`;
}

/** Launches the Chromium the project resolves (scripts/chromium.mjs). */
export function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

/** Uncaught errors and console errors of a page, collected as they happen. */
export function watchPage(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(`console.${message.type()}: ${message.text()}`);
  });
  return { errors };
}

/** The element's own pay button, through its open shadow root. */
export function payButton(page: Page) {
  return page.locator('wallet-pay-button').locator('button[part~="button"]');
}

/** On the sandbox's web payment page: enter a succeeding MPIN and confirm. */
export async function payOnProviderPage(page: Page, sandbox: Sandbox): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(sandbox.baseUrl));
  await page.getByLabel('MPIN').fill('1234');
  await page.getByRole('button', { name: 'Confirm payment' }).click();
}

/** A CDN build of the split fixture in a temporary directory; `dispose()` deletes it. */
export interface SplitBuild {
  dir: string;
  dispose(): void;
}

/**
 * Builds test/fixtures/split-build (a first module, a payment module imported on click, a Nepali
 * module imported on Nepali pages) with the CDN build's own config, as the element will be built once
 * it is split.
 */
export async function buildSplitFixture(): Promise<SplitBuild> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-pay-split-'));
  try {
    await build({ configFile: false, root: ROOT, logLevel: 'silent', ...cdnBuild({ entry: 'test/fixtures/split-build/define.ts', outDir: dir }) });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
