/**
 * Pictures of the element in each state, on a desktop and on a phone, light and dark, taken from the
 * real playground. `npm test` saves them under test-results/screenshots/ (ignored by git, so a test run
 * never changes tracked files); `npm run screenshots` writes the same pictures to docs/images/, which
 * the README shows.
 * Each test also checks that the state it pictures is the one on screen.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, stat } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Route } from 'playwright';
import {
  confirmOnProviderPage,
  element,
  openCheckout,
  openShopper,
  waitForText,
  withoutWalletApp,
  type Shopper,
  useSuite,
  returnAddress,
} from './support.js';
import { within } from '../support/within.js';
import { IN_APP_USER_AGENTS } from '../fixtures/user-agents.js';

// Under the repository's real root, also when this file runs from the compiled copy (scripts/compiled-tests.mjs).
const ROOT = dirname(realpathSync(fileURLToPath(new URL('../../package.json', import.meta.url))));
const IMAGES = join(ROOT, process.env.SCREENSHOTS_DIR ?? 'test-results/screenshots', '/');


const suite = useSuite({ prepare: () => mkdir(IMAGES, { recursive: true }) });

type State = 'idle' | 'working' | 'fallback' | 'pending' | 'error' | 'handoff';

/** Brings the checkout into one state; returns what releases anything held (a request). */
const REACH: Record<State, (s: Shopper) => Promise<() => Promise<void>>> = {
  // Desktop only (a phone is not offered the hand-off): the code for the shopper's phone.
  async handoff(s) {
    await openCheckout(s, suite.pg.origin);
    await s.page.getByRole('button', { name: 'Pay with the app on your phone' }).click();
    await s.page.getByRole('img', { name: /QR code of the payment link/ }).waitFor();
    await waitForText(s.page.locator('wallet-pay-button [part~="handoff-status"]'), 'Waiting for the payment on your phone');
    return async () => undefined;
  },
  async idle(s) {
    await openCheckout(s, suite.pg.origin);
    assert.equal(await element(s.page).status.textContent(), '');
    return async () => undefined;
  },
  async working(s) {
    await openCheckout(s, suite.pg.origin);
    let held: Route | undefined;
    await s.page.route(`${suite.pg.origin}/api/pay/book`, (route) => {
      held = route;
    });
    const el = element(s.page);
    await el.pay.click();
    await waitForText(el.status, 'Preparing your payment');
    assert.equal(await el.pay.getAttribute('aria-busy'), 'true');
    return async () => {
      await held?.abort().catch(() => undefined);
    };
  },
  async fallback(s) {
    await withoutWalletApp(s.page, suite.pg.sandbox);
    await openCheckout(s, suite.pg.origin);
    // The desktop shot shows the panel through the playground's environment switch.
    await s.page.locator('input[name="environment"][value="mobile"]').check();
    const el = element(s.page);
    await el.pay.click();
    await el.panel.waitFor();
    await waitForText(el.status, 'Did the wallet app not open?');
    return async () => undefined;
  },
  async pending(s) {
    await openCheckout(s, suite.pg.origin, 'A-1002');
    const el = element(s.page);
    await el.pay.click();
    await confirmOnProviderPage(s.page, '1234');
    await s.page.waitForURL(returnAddress(suite.pg.origin, 'booking_id=', false));
    await waitForText(el.status, 'Waiting for the payment to be confirmed');
    await el.cancel.waitFor();
    return async () => undefined;
  },
  async error(s) {
    await openCheckout(s, suite.pg.origin);
    await s.page.route(`${suite.pg.origin}/api/pay/book`, (route) => route.abort('connectionrefused'));
    const el = element(s.page);
    await el.pay.click();
    await waitForText(el.status, 'We could not reach the payment service');
    await el.retry.waitFor();
    return async () => undefined;
  },
};

/**
 * The contrast of every text the element shows against what is behind it (the first opaque background
 * up the composed tree), so a look that is unreadable in one colour scheme fails here, not in a review.
 * A string, not a function: the test runner's transform would add helpers the page does not have.
 */
async function textContrasts(s: Shopper): Promise<Array<{ text: string; ratio: number }>> {
  return s.page.evaluate(`(() => {
    const rgba = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
    const luminance = ([r, g, b]) => {
      const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const backgroundOf = (node) => {
      for (let el = node; el; el = el.parentElement || (el.getRootNode() && el.getRootNode().host)) {
        const bg = rgba(getComputedStyle(el).backgroundColor);
        if (bg.length >= 3 && (bg[3] === undefined || bg[3] === 1)) return bg;
      }
      return [255, 255, 255];
    };
    const root = document.querySelector('wallet-pay-button').shadowRoot;
    return [...root.querySelectorAll('button, a, [role=status]')]
      .filter((el) => el.textContent.trim() !== '' && el.getClientRects().length > 0)
      .map((el) => {
        const fg = luminance(rgba(getComputedStyle(el).color));
        const bg = luminance(backgroundOf(el));
        return { text: el.textContent.trim(), ratio: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05) };
      });
  })()`);
}

for (const device of ['desktop', 'pixel7'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    describe(`${device}, ${colorScheme}`, () => {
      for (const state of Object.keys(REACH) as State[]) {
        if (state === 'handoff' && device !== 'desktop') continue;
        test(state, async () => {
          const s = await openShopper(suite.browser, device, { colorScheme });
          const release = await REACH[state](s);
          await within(s.page.evaluate(() => document.fonts.ready.then(() => undefined)), 15_000, 'the fonts to be ready');
          // The pointer left over from a click would keep the button in its hover look (sometimes).
          await s.page.mouse.move(0, 0);
          const contrasts = await textContrasts(s);
          for (const { text, ratio } of contrasts) {
            assert.ok(ratio >= 4.5, `"${text}" has a contrast of ${ratio.toFixed(2)}:1 in ${colorScheme} (WCAG AA needs 4.5:1)`);
          }
          const file = `${IMAGES}${state}-${device}-${colorScheme}.png`;
          // The element and the order card around it: what a shopper looks at.
          await s.page.locator('section.card', { has: s.page.locator('wallet-pay-button') }).screenshot({ path: file, animations: 'disabled', caret: 'hide', scale: 'css' });
          assert.ok((await stat(file)).size > 1000, `${file} was written`);
          if (state === 'idle' && colorScheme === 'light') {
            // The live log changes with every run (ids, timings): the picture stops above it, so it only
            // changes when the look does.
            const viewport = s.page.viewportSize()!;
            const log = await s.page.locator('.log-card').boundingBox();
            const height = Math.min(viewport.height, Math.floor(log?.y ?? viewport.height));
            await s.page.screenshot({ path: `${IMAGES}checkout-${device}-light.png`, animations: 'disabled', scale: 'css', clip: { x: 0, y: 0, width: viewport.width, height } });
          }
          await release();
          await s.context.close();
        });
      }
    });
  }
}

/** One user agent per app (the first listed), each app's own phone. */
const IN_APPS = IN_APP_USER_AGENTS.filter((row, index, rows) => rows.findIndex((other) => other.app === row.app) === index);

/**
 * The in-app panel of each app's browser, in English and in Nepali (docs/webview.md): the button
 * "Pay on the web" books, the provider's page does not load in the app's browser (held here), and the
 * page comes back into view with the booking open: the secondary ways under the button.
 */
describe('in-app panel, each app, English and Nepali', () => {
  // Each app's panel alone (kept out of docs/), then one sheet of them all per language (docs/webview.md).
  const taken: Array<{ app: string; platform: string; lang: 'en' | 'ne'; file: string }> = [];
  let panels: string | undefined;
  for (const { app, platform, userAgent } of IN_APPS) {
    for (const lang of ['en', 'ne'] as const) {
      test(`${app} on ${platform}, ${lang}`, async () => {
        const s = await openShopper(suite.browser, platform === 'android' ? 'pixel7' : 'iphone14', { userAgent });
        await s.page.goto(suite.pg.origin);
        const el = element(s.page);
        await el.host.evaluate((host, value) => host.setAttribute('lang', value), lang);
        const button = el.host.locator('[part~="button"]:visible');
        await waitForText(button, lang === 'en' ? 'Pay on the web' : 'वेबमा भुक्तानी गर्नुहोस्');
        await s.page.route(`${suite.pg.sandbox.webPaymentUrl}*`, (route) => route.fulfill({ status: 204 }));
        await button.click();
        await s.page.waitForFunction(() => document.querySelector('wallet-pay-button')?.getAttribute('aria-busy') !== 'true' && (document.querySelector('wallet-pay-button') as { paymentState?: { name: string } } | null)?.paymentState?.name === 'redirecting');
        await s.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
        const panel = el.host.locator('[part~="inapp"]');
        await panel.waitFor({ timeout: 10_000 });
        assert.equal(await panel.locator('[part~="open-browser"], [part~="copy-link"]').count(), 1, 'a way to the phone\'s own browser');
        await within(s.page.evaluate(() => document.fonts.ready.then(() => undefined)), 15_000, 'the fonts to be ready');
        await s.page.mouse.move(0, 0);
        panels ??= await mkdtemp(join(tmpdir(), 'wpb-panels-'));
        const file = join(panels, `inapp-${app}-${platform}-${lang}.png`);
        await el.host.screenshot({ path: file, animations: 'disabled', caret: 'hide', scale: 'css' });
        assert.ok((await stat(file)).size > 1000, `${file} was written`);
        taken.push({ app, platform, lang, file });
        await s.context.close();
      });
    }
  }

  for (const lang of ['en', 'ne'] as const) {
    test(`one sheet of every app's panel, ${lang}`, async () => {
      const mine = taken.filter((shot) => shot.lang === lang);
      assert.equal(mine.length, IN_APPS.length, `every app's ${lang} panel was taken`);
      const cells = await Promise.all(
        mine.map(async ({ app, platform, file }) => `<figure><img src="data:image/png;base64,${(await readFile(file)).toString('base64')}"><figcaption>${app}, ${platform}</figcaption></figure>`),
      );
      const s = await openShopper(suite.browser, 'desktop');
      await s.page.setViewportSize({ width: 1800, height: 900 });
      await s.page.setContent(
        `<style>body{margin:0;font:14px system-ui,sans-serif;background:#fff}main{display:grid;grid-template-columns:repeat(5,1fr);gap:16px;padding:16px}figure{margin:0}img{width:100%;border:1px solid #ddd}figcaption{padding-top:4px;color:#333}</style><main>${cells.join('')}</main>`,
      );
      await s.page.waitForFunction(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0));
      const file = `${IMAGES}inapp-panels-${lang}.png`;
      await s.page.locator('main').screenshot({ path: file, scale: 'css' });
      assert.ok((await stat(file)).size > 10_000, `${file} was written`);
      await s.context.close();
    });
  }
});
