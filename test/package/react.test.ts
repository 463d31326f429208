/**
 * `wallet-pay-button/react`: a small React app, bundled by Vite's API from the built package (the
 * `default` export condition, so dist/react.js), loaded in Chromium. The element's events reach the
 * app as `onX` props, and props set the element's properties; the click books through the real
 * merchant handler and sandbox.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser } from 'playwright';
import { ORDER_ID, ROOT, launchBrowser, payButton, startMerchant, watchPage, type Merchant } from './support.js';

const APP = `
import { createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { WalletPayButton } from 'wallet-pay-button/react';

function App() {
  const [log, setLog] = useState([]);
  const add = (line) => setLog((lines) => [...lines, line]);
  return createElement('main', null,
    createElement(WalletPayButton, {
      endpoint: '/api/pay',
      orderId: ${JSON.stringify(ORDER_ID)},
      environment: 'desktop',
      allowedHosts: '127.0.0.1',
      onBooked: (event) => add('booked ' + event.detail.booking_id),
      onNavigate: (event) => {
        // A single-page app routes itself: the element stays, the handler records where it would go.
        event.preventDefault();
        add('navigate ' + event.detail.reason + ' ' + event.detail.booking_id);
      },
    }),
    createElement('output', { id: 'log' }, log.join('\\n')));
}

createRoot(document.getElementById('root')).render(createElement(App));
`;

const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>React checkout</title>
<script type="module" src="./main.js"></script></head>
<body><div id="root"></div></body></html>`;

let dir: string;
let merchant: Merchant;
let browser: Browser;

before(async () => {
  // Inside the package, so `wallet-pay-button/react` resolves through the package's own exports.
  dir = await mkdtemp(join(ROOT, 'test/package/.react-'));
  await writeFile(join(dir, 'index.html'), HTML);
  await writeFile(join(dir, 'main.js'), APP);
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: dir,
    base: '/app/',
    logLevel: 'warn',
    build: { outDir: join(dir, 'out'), emptyOutDir: true, minify: false },
  });
  merchant = await startMerchant({ directories: { '/app/': join(dir, 'out') } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await merchant?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the React component renders the element, takes props and fires onBooked and onNavigate', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const watched = watchPage(page);
  try {
    await page.goto(`${merchant.origin}/app/index.html`);
    await payButton(page).waitFor({ state: 'visible' });
    // Props became properties of the element (order-id is not in the markup React rendered).
    assert.equal(await page.evaluate(() => (document.querySelector('wallet-pay-button') as HTMLElement & { orderId: string }).orderId), ORDER_ID);
    await payButton(page).click();
    await page.locator('#log', { hasText: 'navigate' }).waitFor();
    const lines = ((await page.locator('#log').textContent()) ?? '').split('\n');
    const bookingId = /^booked (\S+)$/.exec(lines[0] ?? '')?.[1] ?? '';
    assert.ok(merchant.sandbox.getBooking(bookingId), `onBooked got a booking the sandbox holds (log: ${JSON.stringify(lines)})`);
    assert.deepEqual(lines, [`booked ${bookingId}`, `navigate web-payment ${bookingId}`]);
    assert.equal(new URL(page.url()).pathname, '/app/index.html', 'onNavigate cancelled the navigation');
    assert.deepEqual(watched.errors, []);
  } finally {
    await context.close();
  }
});

test('server rendering (Next.js and the like): ./react and ./define import in Node and render the tag without a DOM', async () => {
  // A child process on the built package, as a framework's server imports a client component.
  const script = `
    const { createElement } = await import('react');
    const { renderToString } = await import('react-dom/server');
    const { WalletPayButton } = await import('wallet-pay-button/react');
    await import('wallet-pay-button/define');
    console.log(JSON.stringify({
      document: typeof globalThis.document,
      html: renderToString(createElement(WalletPayButton, { endpoint: '/api/pay', orderId: 'A-1', onBooked: () => {} })),
    }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, timeout: 120_000 });
  const result = JSON.parse(stdout.trim()) as { document: string; html: string };
  assert.equal(result.document, 'undefined');
  // Properties and handlers are set on the client after hydration; the server sends the bare tag.
  assert.match(result.html, /^<wallet-pay-button[^>]*><\/wallet-pay-button>$/);
});
