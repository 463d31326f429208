/**
 * Self-hosting the CDN folder across an upgrade (docs/distribution.md, "Self-hosting the CDN folder"):
 * the built dist/cdn/ served under /v1/, a changed copy under /v2/. A checkout opened on v1 before the
 * deploy still pays after it, from v1's chunks; a checkout opened after it pays from v2; and with the
 * old folder gone, the open v1 checkout's click asks for a chunk that is no longer there. Runs after
 * `npm run build`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright';
import { DIST, checkoutPage, launchBrowser, payButton, startMerchant, type Merchant, type MerchantOptions } from './support.js';
import { within } from '../support/within.js';

const ENTRY = 'wallet-pay-button.min.js';
let merchant: Merchant;
let browser: Browser;
let v2: string;
const options: MerchantOptions = { files: {}, directories: {} };

/** Publishes the checkout page naming one version's folder, as a deploy does. */
function deploy(version: 'v1' | 'v2'): void {
  options.files!['/checkout.html'] = { body: checkoutPage(`<script type="module" src="/assets/${version}/${ENTRY}"></script>`) };
}

before(async () => {
  // Version 2: the same build with a changed entry (a release whose entry differs).
  v2 = mkdtempSync(join(tmpdir(), 'wpb-cdn-v2-'));
  cpSync(join(DIST, 'cdn'), v2, { recursive: true });
  writeFileSync(join(v2, ENTRY), `${readFileSync(join(v2, ENTRY), 'utf8')}\n/* version 2 */\n`);
  options.directories = { '/assets/v1/': join(DIST, 'cdn'), '/assets/v2/': v2 };
  deploy('v1');
  merchant = await startMerchant(options);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await merchant?.close();
  rmSync(v2, { recursive: true, force: true });
});

/**
 * A browser context whose pages never go idle: the element then fetches its payment chunk only when
 * the shopper reaches for the button, as on a busy page, so the chunk is asked for after the deploy.
 */
async function busyContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
  return context;
}

/** Opens the checkout and waits for the button; returns the page and the script URLs it loaded. */
async function openCheckout(context: BrowserContext): Promise<{ page: Page; scripts: string[] }> {
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) scripts.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  await page.goto(`${merchant.origin}/checkout.html`);
  await within(payButton(page).waitFor({ state: 'visible' }), 15_000, 'the pay button');
  return { page, scripts };
}

/** Clicks pay; resolves with the navigation the element asks for (cancelled, so the page stays). */
async function pay(page: Page): Promise<string> {
  const navigated = page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.querySelector('wallet-pay-button')!.addEventListener(
          'wallet-pay-navigate',
          (event) => {
            event.preventDefault();
            resolve((event as unknown as CustomEvent<{ url: string }>).detail.url);
          },
          { once: true },
        );
      }),
  );
  await payButton(page).click();
  return within(navigated, 20_000, 'the element to navigate to the provider');
}

test('a checkout opened before a deploy pays from its own version\'s folder, one opened after from the new one', async () => {
  const context = await busyContext();
  try {
    const before = await openCheckout(context);
    assert.deepEqual(before.scripts, [`200 /assets/v1/${ENTRY}`], 'the entry alone, until the shopper reaches for the button');
    deploy('v2');
    const afterDeploy = await openCheckout(context);
    // The old tab's click loads its chunks from /assets/v1/, kept through the deploy.
    assert.match(await pay(before.page), /\/web\/pay|\/pay\//);
    assert.ok(before.scripts.some((s) => /^200 \/assets\/v1\/payment-.*\.min\.js$/.test(s)), before.scripts.join('\n'));
    assert.ok(before.scripts.every((s) => s.includes('/assets/v1/')), before.scripts.join('\n'));
    assert.match(await pay(afterDeploy.page), /\/web\/pay|\/pay\//);
    assert.ok(afterDeploy.scripts.some((s) => /^200 \/assets\/v2\/payment-.*\.min\.js$/.test(s)), afterDeploy.scripts.join('\n'));
    assert.ok(afterDeploy.scripts.every((s) => s.includes('/assets/v2/')), afterDeploy.scripts.join('\n'));
  } finally {
    await context.close();
    deploy('v1');
  }
});

test('without the old folder, a checkout opened before the deploy asks for a chunk that is gone', async () => {
  const context = await busyContext();
  try {
    deploy('v1');
    const open = await openCheckout(context);
    // The deploy that removes the old folder.
    deploy('v2');
    delete options.directories!['/assets/v1/'];
    const missing = open.page.waitForResponse((response) => /\/assets\/v1\/payment-.*\.min\.js$/.test(response.url()), { timeout: 20_000 });
    await payButton(open.page).click();
    assert.equal((await missing).status(), 404);
  } finally {
    options.directories!['/assets/v1/'] = join(DIST, 'cdn');
    deploy('v1');
    await context.close();
  }
});

test('the copy under /v2/ is the whole folder: the entry and every chunk it names', () => {
  const names = readdirSync(v2);
  for (const [, chunk] of readFileSync(join(v2, ENTRY), 'utf8').matchAll(/["'`]\.\/([\w.-]+\.min\.js)["'`]/g)) assert.ok(names.includes(chunk!), chunk);
});
