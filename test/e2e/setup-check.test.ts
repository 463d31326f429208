/**
 * Set-up problems are found where a developer looks first: the console of the page, as soon as the
 * element's payment code is in (fetched when the page is idle, before any click), one warning per
 * problem; a click with a problem books nothing.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright';
import { useSuite } from './support.js';
import { within } from '../support/within.js';

// The page imports the element's module by its source path, as a developer's page does under a dev server.
const suite = useSuite({ pages: 'source' });
// Its real path, also from the compiled copy of the tests (scripts/compiled-tests.mjs), whose .ts files are links.
const DEFINE = `/@fs${realpathSync(fileURLToPath(new URL('../../src/define.ts', import.meta.url)))}`;

/** Opens a page of the playground's origin holding `markup`, recording the element's warnings and book requests. */
async function openPage(markup: string): Promise<{ page: Page; warnings: string[]; books: string[] }> {
  const page = await suite.browser.newPage();
  const warnings: string[] = [];
  const books: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' && message.text().startsWith('<wallet-pay-button>')) warnings.push(message.text());
  });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/book')) books.push(request.url());
  });
  const url = `${suite.pg.origin}/setup-check.html`;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Set-up check</title>
        <script type="module" src="${DEFINE}"></script></head><body>${markup}</body></html>`,
    }),
  );
  await page.goto(url);
  await page.waitForFunction(() => customElements.get('wallet-pay-button') !== undefined);
  // The check comes with the payment code, which the element fetches once the page is idle; once that
  // fetch is under way, the element's loadsSettled() includes it.
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/element/payment.ts')));
  await page.evaluate(() => document.querySelector('wallet-pay-button')!.loadsSettled());
  return { page, warnings, books };
}

describe('set-up problems in the console', () => {
  test('each problem is one warning naming the attribute, the value and the fix, before any click', async () => {
    const other = suite.pg.origin.replace('127.0.0.1', 'localhost');
    const { page, warnings, books } = await openPage(`<wallet-pay-button endpoint="/api/pay" order-id="A-1001"
      environment="dekstop" booking-timeout="3.5s" success-url="${other}/result.html" sucess-url="/result.html"></wallet-pay-button>`);
    try {
      assert.deepEqual(warnings, [
        '<wallet-pay-button>: environment="dekstop" is not auto, desktop, mobile, webview or inapp: use one of those, or remove it for auto.',
        '<wallet-pay-button>: booking-timeout="3.5s" is not a positive number of ms: write e.g. booking-timeout="3500", or remove it.',
        '<wallet-pay-button>: allowed-hosts is empty: list the hosts of the wallet links and the web payment page.',
        `<wallet-pay-button>: success-url="${other}/result.html" is on another origin than this page (${suite.pg.origin}): use a page of this site, or list its origin in return-origins.`,
        '<wallet-pay-button>: sucess-url is not an attribute of <wallet-pay-button>: did you mean success-url?',
      ]);
      // The same problems again write nothing; a new one is written once.
      await within(
        page.evaluate(async () => {
          const el = document.querySelector('wallet-pay-button')!;
          // loadsSettled: each warning is written once its sentence (the set-up messages chunk) is in.
          el.orderId = 'A-1002';
          await el.loadsSettled();
          el.environment = 'tablet' as never;
          await el.loadsSettled();
          el.requestUpdate();
          await el.loadsSettled();
        }),
        15_000,
        'the element to settle after each change (loadsSettled)',
      );
      // The console's messages reach the test over the protocol: wait for the one expected, up to 5 s.
      for (const until = Date.now() + 5_000; warnings.length < 6 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(warnings.length, 6);
      assert.match(warnings[5]!, /environment="tablet"/);

      await page.locator('wallet-pay-button [part~="button"]').click();
      await page.locator('wallet-pay-button [role="status"]', { hasText: 'not set up correctly' }).waitFor();
      assert.deepEqual(books, [], 'nothing was booked');
    } finally {
      await page.close();
    }
  });

  test('a correct set-up writes nothing', async () => {
    const { page, warnings } = await openPage(
      `<wallet-pay-button endpoint="/api/pay" order-id="A-1001" allowed-hosts="127.0.0.1:4011" success-url="/result.html" failure-url="/result.html"></wallet-pay-button>`,
    );
    await page.close();
    assert.deepEqual(warnings, []);
  });
});
