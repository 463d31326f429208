/**
 * The CDN files on plain HTML pages with no bundler: the ESM file as a module script, the IIFE file as
 * a classic script. Each registers the element on load, renders its button, and a click books through
 * the merchant kit's real handler in front of the real sandbox, ending in `wallet-pay-navigate`.
 * Loading the files twice, or next to the npm build's `./define`, never throws.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import type { WalletPayEventDetail } from '../../src/element/events.js';
import { STRINGS_NE } from '../../src/element/i18n/index.js';
import { INTEGRITY_FILE, integrityOf } from '../../scripts/cdn-integrity.mjs';
import { DIST, ROOT, checkoutPage, launchBrowser, payButton, startMerchant, watchPage, type Merchant } from './support.js';
import { within } from '../support/within.js';
import { ENGINES, WAIT, closeEngines, openEngine, startFront } from './engines.js';

const ESM = '/dist/cdn/wallet-pay-button.min.js';
const IIFE = '/dist/cdn/wallet-pay-button.iife.min.js';

// The npm build leaves Lit to the page's bundler; without one, an import map stands in for it.
const IMPORT_MAP = JSON.stringify({
  imports: {
    lit: '/node_modules/lit/index.js',
    'lit/': '/node_modules/lit/',
    'lit-html': '/node_modules/lit-html/lit-html.js',
    'lit-html/': '/node_modules/lit-html/',
    'lit-element/': '/node_modules/lit-element/',
    '@lit/reactive-element': '/node_modules/@lit/reactive-element/reactive-element.js',
    '@lit/reactive-element/': '/node_modules/@lit/reactive-element/',
  },
});

let merchant: Merchant;
let browser: Browser;

before(async () => {
  const cdnIntegrity = JSON.parse(readFileSync(join(DIST, 'cdn', INTEGRITY_FILE), 'utf8')) as Record<string, string>;
  merchant = await startMerchant({
    directories: { '/dist/': DIST, '/node_modules/': join(ROOT, 'node_modules') },
    files: {
      '/esm.html': { body: checkoutPage(`<script type="module" src="${ESM}"></script>`) },
      '/iife.html': { body: checkoutPage(`<script src="${IIFE}"></script>`) },
      '/esm-ne.html': { body: checkoutPage(`<script type="module" src="${ESM}"></script>`, 'lang="ne"') },
      '/esm-sri.html': { body: checkoutPage(`<script type="module" src="${ESM}" integrity="${cdnIntegrity['wallet-pay-button.min.js']}"></script>`) },
      // A legacy page (not UTF-8) on a server that names no charset for scripts: a classic script is
      // then decoded with the page's encoding unless the file says otherwise.
      '/legacy.html': {
        body: checkoutPage('<script src="/legacy/wallet-pay-button.iife.min.js"></script>', 'lang="ne"').replace('<meta charset="utf-8">', '<meta charset="windows-1252">'),
        type: 'text/html; charset=windows-1252',
      },
      '/legacy/wallet-pay-button.iife.min.js': { body: readFileSync(join(DIST, 'cdn', 'wallet-pay-button.iife.min.js'), 'utf8'), type: 'text/javascript' },
      '/twice.html': {
        body: checkoutPage(
          [
            `<script type="importmap">${IMPORT_MAP}</script>`,
            `<script type="module" src="/dist/define.js"></script>`,
            `<script type="module" src="${ESM}"></script>`,
            `<script type="module" src="${ESM}?copy=2"></script>`,
            `<script src="${IIFE}"></script>`,
            `<script src="${IIFE}?copy=2"></script>`,
          ].join('\n'),
        ),
      },
    },
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await closeEngines();
  await merchant?.close();
});

/** Resolves with the detail of the next `wallet-pay-navigate` (within 15 s), cancelled so the page stays. */
function nextNavigate(page: Page): Promise<WalletPayEventDetail<'navigate'>> {
  return within(page.evaluate(
    () =>
      new Promise<WalletPayEventDetail<'navigate'>>((resolve) => {
        document.querySelector('wallet-pay-button')!.addEventListener(
          'wallet-pay-navigate',
          (event) => {
            event.preventDefault();
            resolve(event.detail);
          },
          { once: true },
        );
      }),
  ), 15_000, 'the element to navigate (wallet-pay-navigate)');
}

/** The element is registered, upgraded and shows its button. */
async function assertUpgraded(page: Page): Promise<void> {
  await payButton(page).waitFor({ state: 'visible' });
  const upgraded = await page.evaluate(() => {
    const element = document.querySelector('wallet-pay-button')!;
    const defined = customElements.get('wallet-pay-button');
    return { defined: defined !== undefined, isInstance: defined !== undefined && element instanceof defined, shadow: element.shadowRoot !== null };
  });
  assert.deepEqual(upgraded, { defined: true, isInstance: true, shadow: true });
}

/** Runs `check` on a fresh desktop page at `path`, then asserts the page logged no error. */
async function onPage(path: string, check: (page: Page) => Promise<void>, beforeLoad?: (page: Page) => void): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const watched = watchPage(page);
  try {
    beforeLoad?.(page);
    await page.goto(`${merchant.origin}${path}`);
    await check(page);
    // Lit's production build: no dev-mode warning, and nothing else in the console either.
    assert.deepEqual(watched.errors, []);
  } finally {
    await context.close();
  }
}

for (const [kind, path] of [
  ['ESM module script', '/esm.html'],
  ['IIFE classic script', '/iife.html'],
] as const) {
  test(`${kind}: a plain page registers the element, and a click books through the real handler and sandbox`, () =>
    onPage(path, async (page) => {
      await assertUpgraded(page);
      const navigate = nextNavigate(page);
      await payButton(page).click();
      const detail = await navigate;
      assert.equal(detail.reason, 'web-payment');
      assert.ok(detail.url.startsWith(merchant.sandbox.webPaymentUrl), `the shopper is sent to the provider's page, not ${detail.url}`);
      const booking = merchant.sandbox.getBooking(detail.booking_id);
      assert.ok(booking, 'the sandbox holds the booking the element got');
      assert.equal(booking.amount, 250, "the amount comes from the merchant's lookup");
    }));
}

test('the ESM entry loads its payment chunk beside it; an English page never loads the Nepali chunk, a Nepali page loads it with the payment code', async () => {
  for (const [path, nepali] of [
    ['/esm.html', false],
    ['/esm-ne.html', true],
  ] as const) {
    const chunks: string[] = [];
    // Watched from before the page loads: the idle prefetch may ask for the payment chunk at once.
    const watch = (page: Page) =>
      page.on('request', (request) => {
        const name = new URL(request.url()).pathname.split('/').pop()!;
        if (/^(payment|ne)-[\w-]+\.min\.js$/.test(name)) chunks.push(name.split('-')[0]!);
      });
    await onPage(path, async (page) => {
      await assertUpgraded(page);
      const label = (await payButton(page).textContent())?.trim();
      assert.equal(label, nepali ? STRINGS_NE['button.pay'] : 'Pay with wallet', 'the label in the page language at the first render');
      const navigate = nextNavigate(page);
      await payButton(page).click();
      assert.equal((await navigate).reason, 'web-payment');
      assert.deepEqual([...new Set(chunks)].sort(), nepali ? ['ne', 'payment'] : ['payment']);
    }, watch);
  }
});

const HANDOFF_CHUNK = /\/dist\/cdn\/handoff-[\w-]+\.min\.js/;
const INAPP_CHUNK = /\/dist\/cdn\/inapp-[\w-]+\.min\.js/;
const PAYMENT_CHUNK = /\/dist\/cdn\/payment-[\w-]+\.min\.js/;

for (const engine of ENGINES) {
  test(`${engine}: a payment chunk the network dropped is an error with "Try again", which loads it and pays, without a reload`, async () => {
    const front = await startFront(merchant.origin, PAYMENT_CHUNK);
    const page = await openEngine(engine);
    try {
      // Before the page loads: the idle prefetch meets the dropped chunk too.
      front.rule = { pattern: PAYMENT_CHUNK, answer: 'drop' };
      await page.open(`${front.origin}/esm.html`);
      const failed = await page.run<{ status: string; retry: boolean }>(
        `${WAIT}
window.__samePage = true;
part('button').click();
await wait(() => part('retry'), 'Try again shows after the dropped chunk');
return { status: statusText(), retry: true };`,
        'the dropped chunk is shown as an error with Try again',
      );
      assert.match(failed.status, /could not reach the payment service/);
      const before = front.seen.length;
      front.rule = null;
      const paid = await page.run<{ reason: string; url: string; samePage: boolean }>(
        `${WAIT}
const navigate = new Promise((resolve) => el.addEventListener('wallet-pay-navigate', (event) => { event.preventDefault(); resolve(event.detail); }, { once: true }));
part('retry').click();
const detail = await Promise.race([navigate, new Promise((_, reject) => setTimeout(() => reject(new Error('no wallet-pay-navigate within 15 s of Try again')), 15000))]);
return { reason: detail.reason, url: detail.url, samePage: window.__samePage === true };`,
        '"Try again" loads the chunk and books',
      );
      assert.equal(paid.reason, 'web-payment');
      assert.ok(paid.url.startsWith(merchant.sandbox.webPaymentUrl), `the shopper is sent to the provider's page, not ${paid.url}`);
      assert.equal(paid.samePage, true, 'the page was not reloaded');
      assert.ok(front.seen.slice(before).some((line) => line.startsWith('GET ')), `"Try again" requested the chunk again: ${front.seen.join(', ')}`);
    } finally {
      await page.close();
      await front.close();
    }
  });

  test(`${engine}: the hand-off chunk the network dropped: its panel offers "Try again", which loads it and shows the code`, async () => {
    const front = await startFront(merchant.origin, HANDOFF_CHUNK);
    const page = await openEngine(engine);
    try {
      front.rule = { pattern: HANDOFF_CHUNK, answer: 'drop' };
      await page.open(`${front.origin}/esm.html`);
      await page.run(
        `${WAIT}
window.__samePage = true;
(await wait(() => part('pay-on-phone'), 'the offer to pay on the phone shows')).click();
await wait(() => part('panel') && part('retry'), 'the panel offers Try again after the dropped chunk');
return true;`,
        'the dropped hand-off chunk is shown in the panel with Try again',
      );
      front.rule = null;
      const shown = await page.run<{ qr: boolean; samePage: boolean }>(
        `${WAIT}
part('retry').click();
await wait(() => part('qr'), 'the code shows after Try again');
return { qr: true, samePage: window.__samePage === true };`,
        '"Try again" loads the hand-off chunk',
      );
      assert.deepEqual(shown, { qr: true, samePage: true });
    } finally {
      await page.close();
      await front.close();
    }
  });

  test(`${engine}: the in-app panel's chunk the network dropped: "Pay on the web" still pays; back with the booking open, the button goes on with it under a panel of Pay on the web, Cancel and "Try again", which loads the chunk and shows the way out`, async () => {
    const front = await startFront(merchant.origin, INAPP_CHUNK);
    const page = await openEngine(engine);
    try {
      front.rule = { pattern: INAPP_CHUNK, answer: 'drop' };
      await page.open(`${front.origin}/esm.html`);
      const pressed = await page.run<{ label: string; reasons: string[]; bookings: string[]; posted: string[] }>(
        `${WAIT}
window.__samePage = true;
// The provider's page held: its form is not sent, and the page stays as when the shopper comes back
// from it unpaid (the element's own navigator posts through this prototype's submit).
const posted = [];
HTMLFormElement.prototype.submit = function () { posted.push(this.getAttribute('action')); };
const navigations = [];
el.addEventListener('wallet-pay-navigate', (event) => navigations.push(event.detail));
el.setAttribute('environment', 'inapp');
await wait(() => part('button').textContent.trim() === 'Pay on the web', 'the button reads Pay on the web');
const label = part('button').textContent.trim();
part('button').click();
await wait(() => posted.length === 1, 'one press posts the web payment');
document.dispatchEvent(new Event('visibilitychange'));
await wait(() => part('pay-web') && part('cancel') && part('retry'), 'back with the booking open: the panel offers Pay on the web, Cancel and Try again after the dropped chunk');
part('button').click();
await wait(() => posted.length === 2, 'the button above the panel posts the web payment again');
document.dispatchEvent(new Event('visibilitychange'));
await wait(() => part('pay-web') && part('retry'), 'back once more: the panel shows again');
part('pay-web').click();
await wait(() => posted.length === 3, "the panel's own Pay on the web posts the web payment");
return { label, reasons: navigations.map((n) => n.reason), bookings: navigations.map((n) => n.booking_id), posted };`,
        'the in-app press pays on the web and the dropped in-app chunk is shown in the panel with Try again',
      );
      assert.equal(pressed.label, 'Pay on the web');
      assert.deepEqual(pressed.reasons, ['web-payment', 'web-payment', 'web-payment']);
      assert.equal(pressed.bookings[1], pressed.bookings[0], 'the same booking, not a second one');
      assert.equal(pressed.bookings[2], pressed.bookings[0], "the panel's Pay on the web goes on with the same booking too");
      for (const url of pressed.posted) assert.ok(url.startsWith(merchant.sandbox.webPaymentUrl), `the provider's web payment, not ${url}`);
      front.rule = null;
      const shown = await page.run<{ way: boolean; retry: boolean; samePage: boolean }>(
        `${WAIT}
document.dispatchEvent(new Event('visibilitychange'));
await wait(() => part('retry'), 'back again: Try again shows');
part('retry').click();
await wait(() => part('inapp') && (part('copy-link') || part('open-browser')), 'the in-app panel and its way out show after Try again');
return { way: true, retry: !!part('retry'), samePage: window.__samePage === true };`,
        '"Try again" loads the in-app chunk',
      );
      assert.deepEqual(shown, { way: true, retry: false, samePage: true });
    } finally {
      await page.close();
      await front.close();
    }
  });

  test(`${engine}: a payment chunk the server lacks (404) is the set-up: a console warning naming the file and the fix, wallet-pay-error, and no "Try again"`, async () => {
    const front = await startFront(merchant.origin, PAYMENT_CHUNK);
    const page = await openEngine(engine);
    try {
      front.rule = { pattern: PAYMENT_CHUNK, answer: 404 };
      await page.open(`${front.origin}/esm.html`);
      const shown = await page.run<{ status: string; retry: boolean; warnings: string[]; error: { kind: string; message: string } }>(
        `${WAIT}
const warnings = [];
const warn = console.warn;
console.warn = (...args) => { warnings.push(args.join(' ')); warn.apply(console, args); };
const error = new Promise((resolve) => el.addEventListener('wallet-pay-error', (event) => resolve(event.detail), { once: true }));
part('button').click();
const detail = await Promise.race([error, new Promise((_, reject) => setTimeout(() => reject(new Error('no wallet-pay-error within 15 s')), 15000))]);
await wait(() => /not set up/.test(statusText()), 'the set-up message shows');
return { status: statusText(), retry: !!part('retry'), warnings, error: { kind: detail.kind, message: detail.message } };`,
        'the missing chunk is reported',
      );
      assert.equal(shown.status, 'This payment button is not set up completely. Please contact the shop.');
      assert.equal(shown.retry, false, 'no "Try again" that cannot work');
      assert.equal(shown.error.kind, 'config');
      assert.match(shown.error.message, /payment-[\w-]+\.min\.js is missing \(HTTP 404\).*Serve the whole folder/);
      assert.ok(shown.warnings.some((line) => /payment-[\w-]+\.min\.js is missing.*Serve the whole folder/.test(line)), shown.warnings.join('\n'));
    } finally {
      await page.close();
      await front.close();
    }
  });
}

test('the ESM entry loads with the integrity attribute integrity.json gives for it', () => onPage('/esm-sri.html', assertUpgraded));

test('the IIFE file shows its Nepali texts intact on a page that is not UTF-8, served without a charset', () =>
  onPage('/legacy.html', async (page) => {
    assert.equal(await page.evaluate(() => document.characterSet), 'windows-1252');
    await assertUpgraded(page);
    assert.equal((await payButton(page).textContent())?.trim(), STRINGS_NE['button.pay']);
  }));

test('loading the npm define and both CDN files twice on one page never throws, and the element works', () =>
  onPage('/twice.html', async (page) => {
    await page.waitForLoadState('load');
    await assertUpgraded(page);
    // Five copies ran: the first registered the tag, the other four saw it taken and stood back (the
    // page logged no error: onPage checks).
    const navigate = nextNavigate(page);
    await payButton(page).click();
    assert.equal((await navigate).reason, 'web-payment');
  }));

test('the CDN files are minified, carry the licence banner, and import nothing but their own chunks', () => {
  const cdn = join(DIST, 'cdn');
  const chunks = readdirSync(cdn).filter((name) => name.endsWith('.min.js') && !name.startsWith('wallet-pay-button.'));
  for (const file of ['wallet-pay-button.min.js', 'wallet-pay-button.iife.min.js', ...chunks]) {
    const code = readFileSync(join(cdn, file), 'utf8');
    assert.match(code, /^\/\*! wallet-pay-button \S+ \(MIT\) \| Lit \(BSD-3-Clause, Google LLC\) \*\//, `${file} starts with the banner`);
    // Only the ESM entry (and its chunks, from each other) import anything: their chunks, beside them.
    const specifiers = [...code.matchAll(/\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)|\b(?:import|export)\s*(?:\{[^}]*\}\s*from\s*)?["'`]([^"'`]+)["'`]/g)].map(
      (match) => match[1] ?? match[2],
    );
    if (file.includes('.iife.')) assert.deepEqual(specifiers, [], `${file} imports nothing`);
    for (const specifier of specifiers) {
      assert.match(specifier!, /^\.\/[\w-]+\.min\.js$/, `${file} imports ${specifier} relative to its own URL`);
      assert.ok(chunks.includes(specifier!.slice(2)) || specifier === './wallet-pay-button.min.js', `${file} imports ${specifier}, which is built`);
    }
    const longLines = code.split('\n').filter((line) => line.length > 1000).length;
    assert.ok(code.length < 2000 || (longLines >= 1 && code.split('\n').length < code.length / 200), `${file} is minified`);
    // Every non-ASCII text is escaped, so no page encoding can garble it.
    assert.ok([...code].every((char) => char.charCodeAt(0) < 0x80), `${file} is plain ASCII`);
  }
});

test('dist/cdn/integrity.json names the sha384 of every CDN file, and nothing else', () => {
  const cdn = join(DIST, 'cdn');
  const manifest = JSON.parse(readFileSync(join(cdn, INTEGRITY_FILE), 'utf8')) as Record<string, string>;
  const files = readdirSync(cdn).filter((name) => name !== INTEGRITY_FILE).sort();
  assert.ok(files.includes('wallet-pay-button.min.js') && files.includes('wallet-pay-button.iife.min.js'));
  // The phone hand-off's chunk (QR encoder and panel) is one of them, named for what it holds.
  assert.equal(files.filter((name) => /^handoff-[\w-]+\.min\.js$/.test(name)).length, 1, files.join(', '));
  // So is the in-app browser's panel, loaded only there.
  assert.equal(files.filter((name) => /^inapp-[\w-]+\.min\.js$/.test(name)).length, 1, files.join(', '));
  assert.deepEqual(Object.keys(manifest).sort(), files);
  for (const name of files) assert.equal(manifest[name], integrityOf(readFileSync(join(cdn, name))), `${name}'s hash`);
});
