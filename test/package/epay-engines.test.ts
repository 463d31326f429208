/**
 * A merchant whose only provider is eSewa's web checkout (ePay v2), paid through the CDN build in
 * Chromium, Firefox and WebKit: the element posts the signed form to the sandbox's ePay page, the
 * shopper signs in there and pays, eSewa's redirect brings the shopper back to the checkout (its
 * `?data=` glued on), and the element's status check routes to the success page. On a phone
 * (`environment="mobile"`) the element books the `app` channel, is answered a `web` payment (ePay has
 * no app channel) and follows the same page.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { esewaEpay } from '../../src/providers/epay/adapter.js';
import { EPAY_TEST_LOGIN } from '../../src/sandbox/epay/rules.js';
import { DIST, checkoutPage, resultPage, startMerchant, type Merchant } from './support.js';
import { ENGINES, WAIT, closeEngines, openEngine, within, type EnginePage } from './engines.js';

const ESM = '/dist/cdn/wallet-pay-button.min.js';
/** eSewa's published test merchant code and secret (providers.md, "Test credentials"). */
const PRODUCT_CODE = 'EPAYTEST';
const SECRET_KEY = '8gBm/:&EnhH.1/q';

/**
 * Kept in the tab's sessionStorage across the merchant's pages: each page's address, the channel of each booking request,
 * the element's booked and navigate events, and any uncaught error, console error or warning.
 */
const RECORDER = `<script>
(() => {
  const push = (key, value) => sessionStorage.setItem(key, JSON.stringify([...JSON.parse(sessionStorage.getItem(key) || '[]'), value]));
  push('t:pages', location.href);
  const fetchOf = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = String(input && input.url || input);
    if (url.endsWith('/api/pay/book') && init && typeof init.body === 'string') push('t:book', JSON.parse(init.body).channel);
    return fetchOf(input, init);
  };
  for (const name of ['booked', 'navigate']) {
    document.addEventListener('wallet-pay-' + name, (event) => push('t:events', { type: name, channel: event.detail.channel, url: event.detail.url, method: event.detail.method }));
  }
  addEventListener('error', (event) => push('t:errors', 'error: ' + event.message));
  addEventListener('unhandledrejection', (event) => push('t:errors', 'unhandled rejection: ' + String(event.reason)));
  for (const level of ['error', 'warn']) {
    const original = console[level].bind(console);
    console[level] = (...args) => { push('t:errors', 'console.' + level + ': ' + args.map(String).join(' ')); original(...args); };
  }
})();
</script>`;

const page = (environment: 'desktop' | 'mobile') =>
  checkoutPage(`${RECORDER}\n<script type="module" src="${ESM}"></script>`).replace('environment="desktop"', `environment="${environment}"`);

let merchant: Merchant;

before(async () => {
  merchant = await startMerchant({
    directories: { '/dist/': DIST },
    files: {
      '/checkout.html': { body: page('desktop') },
      '/phone.html': { body: page('mobile') },
      '/success.html': { body: resultPage('Paid', RECORDER) },
      '/failure.html': { body: resultPage('Not paid', RECORDER) },
      // WebKit's one window keeps the origin's sessionStorage from test to test: each starts here.
      '/fresh.html': { body: resultPage('Fresh', '<script>sessionStorage.clear()</script>') },
    },
    // ePay only: no intent service behind it, so a phone's app request is answered a web payment.
    providers: (sandbox) => [esewaEpay({ productCode: PRODUCT_CODE, secretKey: SECRET_KEY, baseUrl: sandbox.baseUrl })],
  });
});

after(async () => {
  await closeEngines();
  await merchant?.close();
});

/**
 * Polls the page's address until `wanted` holds (every 100 ms, a read limited to 3 s while a
 * navigation is under way); fails after `ms` naming `what` and the last address read.
 */
async function waitForAddress(tab: EnginePage, wanted: (href: string) => boolean, what: string, ms = 15_000): Promise<string> {
  const end = Date.now() + ms;
  let last = '(not read yet)';
  for (;;) {
    try {
      last = await tab.run<string>('return document.readyState === "complete" ? location.href : "";', `read the address while waiting for ${what}`, 3_000);
      if (last && wanted(last)) return last;
    } catch (error) {
      // A read that met a navigation: the next one reads the new page.
      last = `(read failed: ${(error as Error).message.split('\n')[0]})`;
    }
    if (Date.now() > end) throw new Error(`${tab.engine}: ${what}: not within ${ms} ms; the tab was last at ${last}`);
    await sleep(100);
  }
}

/** On the sandbox's ePay login page: the transaction it shows; signs in with eSewa's test login and presses Pay. */
function signInAndPay(tab: EnginePage): Promise<string> {
  return tab.run<string>(
    `const wait = async (check, what, ms = 10000) => {
  const end = Date.now() + ms;
  for (;;) { const value = check(); if (value) return value; if (Date.now() > end) throw new Error('timed out waiting: ' + what); await new Promise((r) => setTimeout(r, 50)); }
};
const form = await wait(() => document.querySelector('form[action$="/pay"]'), "the ePay login form");
form.querySelector('[name="esewa_id"]').value = ${JSON.stringify(EPAY_TEST_LOGIN.ids[0])};
form.querySelector('[name="password"]').value = ${JSON.stringify(EPAY_TEST_LOGIN.password)};
form.querySelector('[name="token"]').value = ${JSON.stringify(EPAY_TEST_LOGIN.token)};
const transaction = [...document.querySelectorAll('dt')].find((dt) => dt.textContent.trim() === 'Transaction');
// Pressed after this script has answered: the page is left at once.
setTimeout(() => form.querySelector('button.pay').click(), 0);
return transaction ? transaction.nextElementSibling.textContent.trim() : '';`,
    'sign in and pay on the ePay page',
  );
}

/** What the tab recorded on the merchant's pages (read on one of them). */
function recorded(tab: EnginePage): Promise<{ pages: string[]; book: string[]; events: Array<Record<string, string>>; errors: string[] }> {
  return tab.run(
    `const read = (key) => JSON.parse(sessionStorage.getItem(key) || '[]');
return { pages: read('t:pages'), book: read('t:book'), events: read('t:events'), errors: read('t:errors') };`,
    "read what the merchant's pages recorded",
  );
}

/** The sandbox's ePay transaction `uuid`, through its control. */
async function transaction(uuid: string): Promise<{ status: string; total_amount: string }> {
  const response = await within(fetch(`${merchant.sandbox.baseUrl}/sandbox/epay/transactions/${PRODUCT_CODE}/${encodeURIComponent(uuid)}`), 5_000, `the sandbox's ePay transaction ${uuid}`);
  assert.equal(response.status, 200, `the sandbox knows ePay transaction ${uuid}`);
  return ((await response.json()) as { data: { status: string; total_amount: string } }).data;
}

/** Pays through the checkout at `path`: the element's button, the ePay page, back, verified, the success page. */
async function pay(tab: EnginePage, path: '/checkout.html' | '/phone.html'): Promise<{ uuid: string; success: URL }> {
  await tab.open(`${merchant.origin}/fresh.html`);
  await tab.open(`${merchant.origin}${path}`);
  await tab.run(
    `${WAIT}
// Pressed after this script has answered: the element books, then posts the form and leaves the page.
setTimeout(() => part('button').click(), 0);
return true;`,
    'the element shows its button and is pressed',
  );
  const form = `${merchant.sandbox.baseUrl}/api/epay/main/v2/form`;
  await waitForAddress(tab, (href) => href === form, "the ePay login page (the form's POST answered)");
  const uuid = await signInAndPay(tab);
  assert.match(uuid, /^[A-Za-z0-9-]+$/, 'the ePay page shows the transaction in eSewa\'s alphabet');
  const success = new URL(await waitForAddress(tab, (href) => href.startsWith(`${merchant.origin}/success.html?`), 'the success page after the status check'));
  return { uuid, success };
}

/**
 * The tab's pages at the merchant: the checkout at `path`, then eSewa's success redirect to the kit's
 * return address (the desktop checkout's, for the phone's order too: startMerchant's returnPath) with
 * the booking and eSewa's `?data=` glued on, then the success page.
 */
function assertReturn(pages: string[], path: string, uuid: string): void {
  const [checkout, back, success, ...rest] = pages.map((href) => new URL(href));
  assert.equal(checkout?.pathname, path, pages.join('\n'));
  assert.equal(back?.pathname, '/checkout.html', pages.join('\n'));
  assert.match(back.search, new RegExp(`^\\?order=DIST-1-\\d+&booking_id=${uuid}\\?data=[A-Za-z0-9+/=]+$`), pages.join('\n'));
  assert.equal(success?.pathname, '/success.html', pages.join('\n'));
  assert.deepEqual(rest, []);
}

for (const engine of ENGINES) {
  test(`${engine}: desktop: the signed form's POST reaches eSewa's page, which pays; back on the checkout the element confirms and goes to the success page`, async () => {
    const tab = await openEngine(engine);
    try {
      const { uuid, success } = await pay(tab, '/checkout.html');
      assert.deepEqual([success.searchParams.get('booking_id'), success.searchParams.get('status')], [uuid, 'SUCCESS']);
      const paid = await transaction(uuid);
      assert.deepEqual([paid.status, paid.total_amount], ['COMPLETE', '250.0'], "the sandbox's transaction, paid for the merchant's amount");
      const { pages, book, events, errors } = await recorded(tab);
      assertReturn(pages, '/checkout.html', uuid);
      assert.deepEqual(book, ['web']);
      assert.deepEqual(
        events.map((event) => [event.type, event.channel ?? event.method]),
        [['booked', 'web'], ['navigate', 'POST'], ['navigate', 'GET']],
      );
      assert.deepEqual(errors, []);
    } finally {
      await tab.close();
    }
  });

  test(`${engine}: phone: the element books "app", is answered "web" (ePay only) and follows eSewa's page, which pays; back, confirmed, the success page`, async () => {
    const tab = await openEngine(engine);
    try {
      const { uuid, success } = await pay(tab, '/phone.html');
      assert.deepEqual([success.searchParams.get('booking_id'), success.searchParams.get('status')], [uuid, 'SUCCESS']);
      assert.equal((await transaction(uuid)).status, 'COMPLETE');
      const { pages, book, events, errors } = await recorded(tab);
      assertReturn(pages, '/phone.html', uuid);
      assert.deepEqual(book, ['app'], 'the phone asked for the app channel');
      assert.deepEqual(
        events.map((event) => [event.type, event.channel ?? event.method]),
        [['booked', 'web'], ['navigate', 'POST'], ['navigate', 'GET']],
        'answered a web payment, which the phone followed',
      );
      assert.equal(events[1]?.url, `${merchant.sandbox.baseUrl}/api/epay/main/v2/form`);
      assert.match(events[2]?.url ?? '', new RegExp(`/success\\.html\\?booking_id=${uuid}&status=SUCCESS$`));
      assert.deepEqual(errors, []);
    } finally {
      await tab.close();
    }
  });
}
