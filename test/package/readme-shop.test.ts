/**
 * A first integration, built only from the README: its snippets are read from README.md by this test
 * (so the two cannot drift) and run against the packed tarball installed in a fresh project. The
 * sandbox is the installed `npx wallet-pay-sandbox`; the server is the README's TypeScript snippet as
 * written, given the `db` and `sessions` it says the shop supplies; the page is the README's CDN
 * script tag (served from the installed `dist/cdn/` folder at the README's CDN address, as a CDN
 * serving npm packages would) and its element, with the `allowed-hosts` value the sandbox's banner
 * prints, as the README says to paste. A shopper pays on a desktop and on a Pixel 7.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { devices, type Browser, type BrowserContextOptions, type Page } from 'playwright';
import { launchBrowser, ROOT } from './support.js';
import { installPackedShop, type InstalledShop } from './tarball.js';
import pg from 'pg';
import { startPostgres, type ThrowawayPostgres } from '../../scripts/postgres.mjs';
import { freePort } from '../../scripts/host.mjs';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The fenced blocks of the README in a language, in order. */
function blocks(language: string): string[] {
  return [...README.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

/** The one block of `language` that contains `marker`. */
function block(language: string, marker: string): string {
  const found = blocks(language).filter((text) => text.includes(marker));
  assert.equal(found.length, 1, `the README has one ${language} snippet with ${marker}`);
  return found[0]!;
}

const ACCESS_KEY = 'readme-shop-access-key';
const PRODUCT_CODE = 'README_SHOP';

/** What the test supplies that the README says is the shop's own: its orders and its logins. */
const SHOP_DATA = `
// The shop's own orders table and login sessions, which the README's snippet uses as \`db\` and \`sessions\`.
// The total is a string, as node-postgres returns a numeric column.
const orders = new Map([['A-1001', { id: 'A-1001', customerId: 'customer-1', total: '250.00', paid: false }]]);
const db = {
  orders: {
    find: async (id: string) => orders.get(id),
    recordPayment: async (id: string | undefined, status: string, amount: number, paidInFull: boolean, reference: unknown) => {
      const row = id === undefined ? undefined : orders.get(id);
      if (row && paidInFull) row.paid = true;
      console.log('RECORDED ' + JSON.stringify({ id, status, amount, paidInFull, reference }));
    },
  },
};
const sessions = { of: async (_request: Request) => ({ customerId: 'customer-1' }) };
`;

let shop: InstalledShop;
/** The README's server keeps its bookings in PostgreSQL (DATABASE_URL), as the README sets it up. */
let postgres: ThrowawayPostgres | undefined;
let databases = 0;
let browser: Browser;
let sandbox: ChildProcess;
let serviceUrl = '';
let allowedHosts = '';
let front: Server;
let frontOrigin = '';
let shopPort = 0;
let serverFile = '';
/** The README's `define` import, bundled from the installed package as a shop's bundler would. */
let bundle = '';
/** Which way the checkout page loads the element: the README's CDN tag, or the shop's bundle. */
let loading: 'cdn' | 'bundle' = 'cdn';

/** Output lines of a child process, and a wait for one that matches. */
function watchOutput(child: ChildProcess): { lines: string[]; waitFor(pattern: RegExp, what: string, timeoutMs?: number): Promise<string> } {
  const lines: string[] = [];
  let waiting: (() => void)[] = [];
  const take = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    for (const wake of waiting) wake();
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return {
    lines,
    waitFor(pattern, what, timeoutMs = 20_000) {
      return new Promise((done, fail) => {
        const check = () => {
          const line = lines.find((candidate) => pattern.test(candidate));
          if (!line) return false;
          clearTimeout(timer);
          waiting = waiting.filter((wake) => wake !== check);
          done(line);
          return true;
        };
        const timer = setTimeout(() => {
          waiting = waiting.filter((wake) => wake !== check);
          fail(new Error(`${what} did not appear within ${timeoutMs} ms. Output:\n${lines.join('\n')}`));
        }, timeoutMs);
        if (!check()) waiting.push(check);
      });
    },
  };
}

before(async () => {
  // The README's server imports node-postgres beside the package (`npm install pg`).
  shop = await installPackedShop(['pg']);
  postgres = await startPostgres();

  // The sandbox, as the README starts it (`npx wallet-pay-sandbox`), on free ports.
  const [port, linksPort] = [await freePort(), await freePort()];
  sandbox = spawn(
    process.execPath,
    [join(shop.dir, 'node_modules/.bin/wallet-pay-sandbox'), '--port', String(port), '--links-port', String(linksPort), '--access-key', ACCESS_KEY, '--product-code', PRODUCT_CODE, '--callback-delay', '50'],
    { cwd: shop.dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const banner = watchOutput(sandbox);
  serviceUrl = /serviceUrl:\s+(\S+)/.exec(await banner.waitFor(/serviceUrl:/, 'the sandbox banner'))![1]!;
  allowedHosts = /allowed-hosts:\s+(\S+(?: \S+)*?)\s{2,}/.exec(await banner.waitFor(/allowed-hosts:/, 'the allowed-hosts line'))![1]!;
  assert.match(allowedHosts, /^127\.0\.0\.1:\d+ 127\.0\.0\.1:\d+$/);

  // The README's server, as written, after the shop's own data.
  serverFile = join(shop.dir, 'server.ts');
  await writeFile(serverFile, `${SHOP_DATA}\n${block('ts', 'createPaymentHandler')}`);

  // The README's bundler snippet, built from the installed package (Lit and all) into one module.
  await writeFile(join(shop.dir, 'entry.js'), block('js', "'wallet-pay-button/define'"));
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: shop.dir,
    logLevel: 'silent',
    // Served under /bundle/: the dynamic imports of the element's payment code load from there.
    base: '/bundle/',
    build: {
      outDir: join(shop.dir, 'bundle'),
      emptyOutDir: true,
      rolldownOptions: { input: join(shop.dir, 'entry.js'), output: { entryFileNames: 'app.js', chunkFileNames: '[name]-[hash].js' } },
    },
  });
  bundle = await readFile(join(shop.dir, 'bundle/app.js'), 'utf8');

  // The shop's front: its pages (the README's element) and the README's server behind /api/pay/.
  shopPort = await freePort();
  front = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path.startsWith('/api/pay/')) {
      const upstream = httpRequest({ host: '127.0.0.1', port: shopPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502, { 'content-type': 'text/plain' }).end('shop server down'));
      req.pipe(upstream);
      return;
    }
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path.startsWith('/bundle/')) {
      const file = normalize(join(shop.dir, path));
      if (!file.startsWith(join(shop.dir, 'bundle') + sep)) return void res.writeHead(404).end();
      void readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(body),
        () => res.writeHead(404, { 'content-type': 'text/plain' }).end('no file'),
      );
      return;
    }
    const html =
      path === '/checkout'
        ? checkoutPage(loading)
        : path === '/checkout/paid'
          ? resultPage('Paid')
          : path === '/checkout/not-paid'
            ? resultPage('Not paid')
            : null;
    if (html === null) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no page');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise<void>((done) => front.listen(0, '127.0.0.1', done));
  frontOrigin = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  sandbox?.kill();
  await new Promise<void>((done) => (front ? front.close(() => done()) : done()));
  await shop?.dispose();
  await postgres?.stop();
});

/** The README's CDN script tag (or the shop's bundle) and its element, with the sandbox's allowed-hosts pasted in. */
function checkoutPage(how: 'cdn' | 'bundle'): string {
  const script = how === 'cdn' ? block('html', 'cdn.example').trim() : '<script type="module" src="/bundle/app.js"></script>';
  const element = block('html', '<wallet-pay-button').trim();
  assert.match(element, /allowed-hosts="[^"]*"/);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title>
${script}
</head>
<body>
<h1>Checkout</h1>
${element.replace(/allowed-hosts="[^"]*"/, `allowed-hosts="${allowedHosts}"`)}
</body>
</html>`;
}

function resultPage(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
}

/** The README's server, started afresh (its orders in memory), as `node server.ts` with a TypeScript loader. */
async function startShopServer(): Promise<{ stop(): void; output: ReturnType<typeof watchOutput> }> {
  // Each start is a shop of its own: its orders (in memory) and its bookings (a new database) begin empty.
  const database = `shop_${++databases}`;
  const admin = new pg.Client({ connectionString: postgres!.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), serverFile], {
    cwd: shop.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(shopPort),
      SHOP_URL: frontOrigin,
      DATABASE_URL: postgres!.url.replace(/\/postgres$/, `/${database}`),
      // The README's server on eSewa's ePay v2 as the sandbox plays it, with eSewa's published test account.
      ESEWA_BASE_URL: serviceUrl,
    },
  });
  const output = watchOutput(child);
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The README's server exited (${child.exitCode}):\n${output.lines.join('\n')}`);
    const up = await fetch(`http://127.0.0.1:${shopPort}/api/pay/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`The README's server did not listen within 20 s:\n${output.lines.join('\n')}`);
    await new Promise((done) => setTimeout(done, 100));
  }
  return { stop: () => child.kill(), output };
}

/** Serves the README's CDN address from the installed package's dist/cdn/ folder, as a CDN would. */
async function serveCdn(page: Page): Promise<string[]> {
  const served: string[] = [];
  const prefix = `https://cdn.example/npm/wallet-pay-button@${VERSION}/dist/cdn/`;
  const folder = join(shop.packageDir, 'dist/cdn');
  await page.route('https://cdn.example/**', async (route) => {
    const url = route.request().url();
    const file = normalize(join(folder, url.startsWith(prefix) ? url.slice(prefix.length).split('?')[0]! : '\0'));
    const body = file.startsWith(folder + sep) ? await readFile(file).catch(() => null) : null;
    if (!body) return route.fulfill({ status: 404, body: 'not found', headers: { 'access-control-allow-origin': '*' } });
    served.push(url.slice(prefix.length));
    return route.fulfill({
      status: 200,
      body,
      headers: { 'content-type': extname(file) === '.js' ? 'text/javascript; charset=utf-8' : 'application/json', 'access-control-allow-origin': '*' },
    });
  });
  return served;
}

test("the README's CDN address is this version's, and its snippets name only what the package ships", () => {
  const script = block('html', 'cdn.example');
  assert.match(script, new RegExp(`wallet-pay-button@${VERSION.replaceAll('.', '\\.')}/dist/cdn/wallet-pay-button\\.min\\.js`));
  const server = block('ts', 'createPaymentHandler');
  const imported = [...server.matchAll(/from '(wallet-pay-button[^']*)'/g)].map((match) => match[1]!);
  assert.deepEqual(imported, ['wallet-pay-button/server', 'wallet-pay-button/server/node', 'wallet-pay-button/server/postgres', 'wallet-pay-button/server/providers']);
  const exported = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports);
  assert.deepEqual(imported.filter((specifier) => !exported.includes(specifier.replace(/^wallet-pay-button/, '.'))), [], 'each import is an entry of the package');
});

async function payAs(profile: BrowserContextOptions, pay: (page: Page) => Promise<void>): Promise<void> {
  const server = await startShopServer();
  const context = await browser.newContext(profile);
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // The element's set-up warnings and any error: the README's snippets must set it up right.
      if ((message.type() === 'error' || message.type() === 'warning') && new URL(page.url()).origin === frontOrigin) problems.push(`${message.type()}: ${message.text()}`);
    });
    const served = await serveCdn(page);
    await page.goto(`${frontOrigin}/checkout`);
    const button = page.locator('wallet-pay-button').getByRole('button', { name: 'Pay with wallet' });
    await button.waitFor({ timeout: 15_000 });
    await button.click();
    await pay(page);
    await page.waitForURL((url) => url.origin === frontOrigin && url.pathname === '/checkout/paid', { timeout: 20_000 });
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('status'), 'SUCCESS');
    const recorded = JSON.parse((await server.output.waitFor(/^RECORDED /, "the README's onPaymentResult")).slice('RECORDED '.length)) as Record<string, unknown>;
    assert.deepEqual(
      { id: recorded.id, status: recorded.status, amount: recorded.amount, paidInFull: recorded.paidInFull },
      { id: 'A-1001', status: 'SUCCESS', amount: 250, paidInFull: true },
      "the README's server recorded the payment in full",
    );
    if (loading === 'cdn') {
      assert.ok(served.includes('wallet-pay-button.min.js') && served.some((file) => /^payment-[\w-]+\.min\.js$/.test(file)), `the entry and its payment chunk came from the folder: ${served.join(', ')}`);
    } else assert.deepEqual(served, [], 'the bundled page loads nothing from the CDN');
    assert.deepEqual(problems, [], 'no warning or error on the shop pages');
  } finally {
    await context.close();
    server.stop();
  }
}

/** On the sandbox's eSewa ePay v2 page (the form the element posted): eSewa's published test login, and Pay. */
async function confirm(page: Page): Promise<void> {
  await page.waitForURL((url) => url.origin !== frontOrigin, { timeout: 15_000 });
  assert.equal(new URL(page.url()).pathname, '/api/epay/main/v2/form', "the element posted eSewa's ePay v2 form");
  await page.getByRole('heading', { name: 'eSewa: sign in to pay' }).waitFor({ timeout: 10_000 });
  await page.getByLabel('eSewa ID').fill('9806800001');
  await page.getByLabel('Password').fill('Nepal@123');
  await page.getByLabel('Token').fill('123456');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
}

test("a shop built from the README's snippets takes a payment on a desktop (eSewa's ePay v2 page)", () =>
  payAs({ viewport: { width: 1280, height: 800 } }, confirm));

test("the README's bundler snippet (import 'wallet-pay-button/define'), bundled from the installed package, takes a payment on a desktop", async () => {
  assert.match(bundle, /customElements\.define\(\s*["'`]wallet-pay-button["'`]/, 'the bundle registers the element');
  loading = 'bundle';
  try {
    await payAs({ viewport: { width: 1280, height: 800 } }, confirm);
  } finally {
    loading = 'cdn';
  }
});

test("a shop built from the README's snippets takes a payment on a Pixel 7 (a web checkout only: the phone pays on ePay's page)", () => {
  const { defaultBrowserType: _ignored, ...pixel7 } = devices['Pixel 7']!;
  return payAs(pixel7, async (page) => {
    await page.waitForURL((url) => url.origin !== frontOrigin, { timeout: 15_000 });
    // No app channel with ePay alone: the phone's app booking is answered a web payment on the service port.
    assert.equal(new URL(page.url()).port, allowedHosts.split(' ')[0]!.split(':')[1], "the phone went to the sandbox's ePay page");
    await confirm(page);
  });
});
