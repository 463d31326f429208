/**
 * Paying through each example proxy of examples/backends/ (PHP, Python) in Chromium: the desktop path
 * (the provider's web payment page) and a Pixel 7 (the deeplink to the wallet page). The checkout page
 * is served by Vite with the element's source; `/api/pay/*` on the same origin is passed through to
 * the example proxy, a real PHP or Python process with its own SQLite file. Each proxy is restarted
 * between the booking and the shopper's return: nothing is lost, the shopper lands on the success page
 * and the order is paid in the proxy's own store.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import type { Browser } from 'playwright';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ensureBackends } from '../../scripts/backends.mjs';
import { EXAMPLE_KINDS, startExample, type ExampleKind, type RunningExample } from '../node/check/examples.js';
import { bookingIdOnProviderPage, cleanConsole, confirmOnProviderPage, element, launchBrowser, openShopper, type ProfileName } from './support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PREFIX = 'SHOP-';
const AMOUNT = 1250.5;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The shop's pages (checkout, success, failure) and the pass-through of /api/pay/* to the proxy. */
function shop(state: { sandbox?: Sandbox; proxy?: RunningExample }): Plugin {
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${title}</title></head><body>${body}</body></html>`;
  const passThrough = (req: IncomingMessage, res: ServerResponse) => {
    const target = new URL(req.url!, state.proxy!.url);
    const upstream = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ code: 'IP-502', error_message: 'The book proxy is not running.' }));
    });
    req.pipe(upstream);
  };
  return {
    name: 'backends-shop',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://shop');
        if (url.pathname.startsWith('/api/pay/')) return passThrough(req, res);
        const html = (body: string) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(body);
        };
        if (url.pathname === '/checkout') {
          const order = url.searchParams.get('order') ?? '';
          return html(
            page(
              'Checkout',
              `<h1>Order ${escape(order)}</h1><wallet-pay-button endpoint="/api/pay" order-id="${escape(order)}" success-url="/success" failure-url="/failure" allowed-hosts="${escape(state.sandbox!.allowedHosts)}" phone-handoff="off"></wallet-pay-button><script type="module" src="/src/define.ts"></script>`,
            ),
          );
        }
        if (url.pathname === '/success' || url.pathname === '/failure') {
          return html(page(url.pathname.slice(1), `<h1 id="result">${url.pathname.slice(1)}</h1><p id="booking">${escape(url.searchParams.get('booking_id') ?? '')}</p>`));
        }
        next();
      });
    },
  };
}

/** The order's `paid` flag in the proxy's SQLite file, read with Python's sqlite3. */
function paidFlag(python: string, db: string, orderId: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    execFile(
      python,
      ['-c', 'import sqlite3, sys, json; r = sqlite3.connect(sys.argv[1]).execute("SELECT paid FROM orders WHERE id = ?", (sys.argv[2],)).fetchone(); print(json.dumps(r[0] if r else None))', db, orderId],
      { timeout: 10_000 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as number | null)),
    );
  });
}

let browser: Browser;
let vite: ViteDevServer;
let origin: string;
let dir: string;
let python: string;
const state: { sandbox?: Sandbox; proxy?: RunningExample } = {};

before(async () => {
  python = (ensureBackends({ log: () => {} }) as { python: string }).python;
  dir = mkdtempSync(join(tmpdir(), 'wpb-backends-e2e-'));
  vite = await createServer({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: 0, hmr: false },
    plugins: [shop(state)],
  });
  await vite.listen();
  origin = vite.resolvedUrls!.local[0]!.replace(/\/$/, '');
  await vite.warmupRequest('/src/define.ts');
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await vite?.close();
  await state.proxy?.stop();
  await state.sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

for (const kind of EXAMPLE_KINDS) {
  describe(`paying through the ${kind} example proxy`, () => {
    before(async () => {
      await state.proxy?.stop();
      await state.sandbox?.close();
      state.sandbox = await startSandbox({ callbackRetry: { attempts: 6, baseDelayMs: 100 } });
      state.proxy = await startExample(kind, settings(kind));
    });

    const settings = (k: ExampleKind, port?: number) => ({
      sandboxPort: Number(new URL(state.sandbox!.baseUrl).port),
      db: join(dir, `${k}.sqlite`),
      orderPrefix: PREFIX,
      amount: AMOUNT,
      redirectUrl: `${origin}/checkout?order={order_id}`,
      ...(port ? { port } : {}),
    });

    for (const profile of ['desktop', 'pixel7'] as const satisfies readonly ProfileName[]) {
      test(`${profile}: booked, the proxy restarted, paid, back on the success page with the order paid in its SQLite store`, async () => {
        const order = `${PREFIX}${kind}-${profile}-${Date.now()}`;
        const s = await openShopper(browser, profile);
        try {
          await s.page.goto(`${origin}/checkout?order=${encodeURIComponent(order)}`);
          const pay = element(s.page).pay;
          await (profile === 'desktop' ? pay.click() : pay.tap());
          const provider = profile === 'desktop' ? `${state.sandbox!.webPaymentUrl}` : new RegExp(`^${state.sandbox!.linksUrl}/pay/BK-`);
          await s.page.waitForURL(provider, { timeout: 15_000 });
          const bookingId = await bookingIdOnProviderPage(s.page);
          assert.equal(state.sandbox!.getBooking(bookingId)?.amount, AMOUNT, "the service was asked for the shop's amount");
          // The proxy goes down and comes back on the same port with the same SQLite file.
          const port = state.proxy!.port;
          await state.proxy!.stop();
          state.proxy = await startExample(kind, settings(kind, port));
          await confirmOnProviderPage(s.page, '1234');
          await s.page.waitForURL(new RegExp(`^${origin}/success\\?`), { timeout: 20_000 });
          assert.equal(await s.page.locator('#booking').textContent(), bookingId);
          assert.equal(state.sandbox!.getBooking(bookingId)?.status, 'SUCCESS');
          assert.equal(await paidFlag(python, settings(kind).db, order), 1, "the order is paid in the proxy's own store");
          assert.deepEqual(cleanConsole(s), []);
        } finally {
          await s.context.close();
        }
      });
    }
  });
}
