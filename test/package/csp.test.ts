/**
 * Strict pages: the merchant's checkout and result pages are served with the Content-Security-Policy
 * docs/distribution.md gives merchants (no inline script, no inline style, Trusted Types enforced),
 * and the whole desktop flow runs without a single violation: click, the provider's web payment page,
 * pay, back to the checkout, the element's status check, the success page. Violations are caught two
 * ways: `securitypolicyviolation` events in every page, and the policy's `report-uri`, which must
 * receive nothing. A control page with an inline script proves both catch a real violation.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext } from 'playwright';
import {
  DIST,
  buildSplitFixture,
  checkoutPage,
  launchBrowser,
  payButton,
  payOnProviderPage,
  resultPage,
  startMerchant,
  watchPage,
  type Merchant,
  type SplitBuild,
} from './support.js';
import { within } from '../support/within.js';

/**
 * The policy of docs/distribution.md, for a merchant who serves the CDN file (or their bundle) from
 * their own origin and whose provider's web payment page is `providerOrigin`.
 */
export function merchantCsp(providerOrigin: string, reportUri: string, trustedTypes = 'lit-html'): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    `form-action 'self' ${providerOrigin}`,
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    `trusted-types ${trustedTypes}`,
    `report-uri ${reportUri}`,
  ].join('; ');
}

interface Violation {
  documentURI: string;
  violatedDirective: string;
  blockedURI: string;
  sample: string;
}

let merchant: Merchant;
let browser: Browser;
let split: SplitBuild;

/** A strict page with the split fixture's CDN entry; its chunks are loaded from the same directory. */
function splitPage(lang: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><title>Split</title><script type="module" src="/split/wallet-pay-button.min.js"></script></head>
<body><split-fixture></split-fixture></body>
</html>`;
}

before(async () => {
  const script = '<script type="module" src="/dist/cdn/wallet-pay-button.min.js"></script>';
  split = await buildSplitFixture();
  merchant = await startMerchant({
    directories: { '/dist/': DIST, '/split/': split.dir },
    files: {
      '/checkout.html': { body: checkoutPage(script) },
      '/success.html': { body: resultPage('Paid', script) },
      '/failure.html': { body: resultPage('Not paid', script) },
      '/control.html': { body: resultPage('Control', '<script>document.title = "inline ran";</script>') },
      '/checkout-ne.html': { body: checkoutPage(script, 'lang="ne"') },
      '/split-en.html': { body: splitPage('en') },
      '/split-ne.html': { body: splitPage('ne') },
      '/two-copies.html': {
        body: checkoutPage(`${script}\n<script src="/dist/cdn/wallet-pay-button.iife.min.js"></script>`),
      },
    },
    htmlHeaders: (_origin, sandbox, path) => ({
      'content-security-policy': merchantCsp(
        new URL(sandbox.webPaymentUrl).origin,
        '/csp-report',
        // Each copy of Lit creates its own `lit-html` policy; a second one needs the duplicate allowed.
        path === '/two-copies.html' ? "lit-html 'allow-duplicates'" : 'lit-html',
      ),
    }),
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await merchant?.close();
  split?.dispose();
});

/** Polls the report endpoint (reports are sent in the background) until `done` holds or 10 s pass. */
async function reportsUntil(done: (reports: unknown[]) => boolean): Promise<unknown[]> {
  const deadline = Date.now() + 10_000;
  while (!done(merchant.cspReports)) {
    if (Date.now() > deadline) throw new Error(`CSP reports never reached the expected state: ${JSON.stringify(merchant.cspReports)}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return merchant.cspReports;
}

/** A desktop context whose pages report every CSP violation (the `securitypolicyviolation` event) into `violations`. */
async function violationWatchingContext(): Promise<{ context: BrowserContext; violations: Violation[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const violations: Violation[] = [];
  await context.exposeBinding('reportViolation', (_source, violation: Violation) => {
    violations.push(violation);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportViolation(violation: Violation): void }).reportViolation;
      report({ documentURI: event.documentURI, violatedDirective: event.violatedDirective, blockedURI: event.blockedURI, sample: event.sample });
    });
  });
  return { context, violations };
}

test('the whole desktop flow runs under the strict policy without a violation', async () => {
  const { context, violations } = await violationWatchingContext();
  const page = await context.newPage();
  const watched = watchPage(page);
  try {
    const checkout = await page.goto(`${merchant.origin}/checkout.html`);
    assert.match(checkout?.headers()['content-security-policy'] ?? '', /require-trusted-types-for 'script'/, 'the page is served strict');
    await payButton(page).click();
    await payOnProviderPage(page, merchant.sandbox);
    // Back on the checkout, the element asks for the status and routes to the success page.
    await page.waitForURL((url) => url.pathname === '/success.html', { timeout: 15_000 });
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('status'), 'SUCCESS');
    const bookingId = landed.searchParams.get('booking_id') ?? '';
    assert.equal(merchant.sandbox.getBooking(bookingId)?.status, 'SUCCESS');
    await page.waitForLoadState('load');

    // The control: an inline script is refused, seen by the event and by the report endpoint.
    await page.goto(`${merchant.origin}/control.html`);
    assert.equal(await page.title(), 'Control', 'the inline script was blocked');
    await reportsUntil((reports) => reports.length > 0);
    assert.ok(violations.some((violation) => violation.documentURI.endsWith('/control.html')), 'the event catches the control');

    const beforeControl = violations.filter((violation) => !violation.documentURI.endsWith('/control.html'));
    assert.deepEqual(beforeControl, [], 'no page of the flow raised a violation');
    const reported = merchant.cspReports.filter((report) => !JSON.stringify(report).includes('/control.html'));
    assert.deepEqual(reported, [], 'the report-uri received nothing from the flow');
    const consoleProblems = watched.errors.filter((error) => !error.includes('/control.html') && !/inline script/i.test(error));
    assert.deepEqual(consoleProblems, [], 'and the console stayed clean');
  } finally {
    await context.close();
  }
});

test("two copies of Lit on a strict page (both CDN files) need only 'allow-duplicates' for the lit-html policy", async () => {
  const { context, violations } = await violationWatchingContext();
  const page = await context.newPage();
  const watched = watchPage(page);
  try {
    await page.goto(`${merchant.origin}/two-copies.html`);
    await page.waitForLoadState('load');
    await payButton(page).waitFor({ state: 'visible' });
    assert.equal(await page.evaluate(() => typeof (window as unknown as { WalletPayButton?: unknown }).WalletPayButton), 'object', 'the classic script ran too');
    assert.deepEqual(violations.map((violation) => violation.violatedDirective), []);
    assert.deepEqual(watched.errors, []);
  } finally {
    await context.close();
  }
});

test("the element's CDN build loads its payment and Nepali chunks from its own directory under the strict policy", async () => {
  const { context, violations } = await violationWatchingContext();
  try {
    for (const [path, expected] of [
      ['/checkout.html', ['/dist/cdn/payment']],
      ['/checkout-ne.html', ['/dist/cdn/ne', '/dist/cdn/payment']],
    ] as const) {
      // A tab of its own: the booking the previous page kept stays in that tab's sessionStorage.
      const page = await context.newPage();
      const watched = watchPage(page);
      await page.goto(`${merchant.origin}${path}`);
      await payButton(page).waitFor({ state: 'visible' });
      const navigate = within(
        page.evaluate(
          () =>
            new Promise<string>((resolve) =>
              document.querySelector('wallet-pay-button')!.addEventListener(
                'wallet-pay-navigate',
                (event) => {
                  event.preventDefault();
                  resolve(event.detail.reason);
                },
                { once: true },
              ),
            ),
        ),
        15_000,
        `the element on ${path} to navigate (wallet-pay-navigate)`,
      );
      await payButton(page).click();
      assert.equal(await navigate, 'web-payment');
      const chunks = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((name) => /\/(payment|ne)-[\w-]+\.min\.js$/.test(name))
          .map((name) => name.replace(/-[\w-]+\.min\.js$/, ''))
          .sort(),
      );
      assert.deepEqual(chunks, expected, `${path} loads its chunks from the entry's directory`);
      assert.deepEqual(watched.errors, []);
      await page.close();
    }
    assert.deepEqual(violations, [], 'no violation');
  } finally {
    await context.close();
  }
});

test('a split build loads its chunks under the strict policy: the payment chunk on click, the Nepali chunk on a Nepali page', async () => {
  const { context, violations } = await violationWatchingContext();
  const page = await context.newPage();
  const watched = watchPage(page);
  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((path) => path.endsWith('.js'))
        .sort(),
    );
  try {
    await page.goto(`${merchant.origin}/split-en.html`);
    const button = page.locator('split-fixture').locator('button[part="button"]');
    await button.waitFor({ state: 'visible' });
    assert.deepEqual(await scripts(), ['/split/wallet-pay-button.min.js'], 'an English page loads the entry alone');
    await button.click();
    await page.locator('split-fixture').locator('[role="status"]').filter({ hasText: 'paid after "Pay"' }).waitFor();
    const english = await scripts();
    assert.equal(english.length, 2);
    assert.match(english[0]!, /^\/split\/payment-[\w-]+\.min\.js$/, 'the payment chunk came from the entry\'s directory');

    await page.goto(`${merchant.origin}/split-ne.html`);
    await button.filter({ hasText: '\u092d\u0941\u0915\u094d\u0924\u093e\u0928\u0940' }).waitFor();
    assert.ok((await scripts()).some((path) => /^\/split\/ne-[\w-]+\.min\.js$/.test(path)), 'the Nepali chunk was loaded');

    assert.deepEqual(violations, [], 'no violation');
    // The first test's control page reported on purpose; nothing came from the split pages.
    assert.deepEqual(
      merchant.cspReports.filter((report) => JSON.stringify(report).includes('/split-')),
      [],
      'the report-uri received nothing',
    );
    assert.deepEqual(watched.errors, []);
  } finally {
    await context.close();
  }
});
