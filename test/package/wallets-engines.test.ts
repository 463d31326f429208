/**
 * A merchant taking eSewa (ePay v2) and Khalti in one handler, paid through the CDN build with
 * `wallets="esewa khalti"` in Chromium, Firefox and WebKit, on a desktop and on a phone
 * (`environment="mobile"`): "Pay with Khalti" books at Khalti (a web payment on every device: a
 * phone's app request is answered `web`), the shopper pays on Khalti's page, Khalti's return brings
 * them back to the checkout and the element's lookup through the kit routes to the success page. A
 * switch from Khalti to eSewa for the same order (back at the checkout without paying) pays on eSewa's
 * page, with the Khalti payment left open at Khalti and eSewa's the one booking paid.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { esewaEpay } from '../../src/providers/epay/adapter.js';
import { khalti } from '../../src/providers/khalti/adapter.js';
import { EPAY_TEST_LOGIN } from '../../src/sandbox/epay/rules.js';
import { TEST_MPIN, TEST_OTP } from '../../src/sandbox/khalti/payments.js';
import { DIST, checkoutPage, resultPage, startMerchant, type Merchant } from './support.js';
import { ENGINES, WAIT, closeEngines, openEngine, within, type EnginePage } from './engines.js';

const ESM = '/dist/cdn/wallet-pay-button.min.js';
/** eSewa's published test merchant code and secret (providers.md, "Test credentials"). */
const PRODUCT_CODE = 'EPAYTEST';
const SECRET_KEY = '8gBm/:&EnhH.1/q';
/** Khalti's published test ID (providers.md, "Test credentials"). */
const KHALTI_ID = '9800000000';

/** Kept in the tab's sessionStorage across the merchant's pages: each book request's wallet and channel, and any error. */
const RECORDER = `<script>
(() => {
  const push = (key, value) => sessionStorage.setItem(key, JSON.stringify([...JSON.parse(sessionStorage.getItem(key) || '[]'), value]));
  const fetchOf = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = String(input && input.url || input);
    if (url.endsWith('/api/pay/book') && init && typeof init.body === 'string') { const body = JSON.parse(init.body); push('t:book', [body.wallet, body.channel]); }
    return fetchOf(input, init);
  };
  document.addEventListener('wallet-pay-booked', (event) => push('t:booked', [event.detail.booking_id, event.detail.channel]));
  addEventListener('error', (event) => push('t:errors', 'error: ' + event.message));
  addEventListener('unhandledrejection', (event) => push('t:errors', 'unhandled rejection: ' + String(event.reason)));
  for (const level of ['error', 'warn']) {
    const original = console[level].bind(console);
    console[level] = (...args) => { push('t:errors', 'console.' + level + ': ' + args.map(String).join(' ')); original(...args); };
  }
})();
</script>`;

const page = (environment: 'desktop' | 'mobile') =>
  checkoutPage(`${RECORDER}\n<script type="module" src="${ESM}"></script>`, 'wallets="esewa khalti"').replace('environment="desktop"', `environment="${environment}"`);

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
    providers: (sandbox) => [
      esewaEpay({ productCode: PRODUCT_CODE, secretKey: SECRET_KEY, baseUrl: sandbox.baseUrl }),
      // The sandbox's access key is Khalti's secret key there; the shop's site is only checked to be a URL.
      khalti({ secretKey: sandbox.accessKey, websiteUrl: 'http://127.0.0.1/', baseUrl: sandbox.baseUrl }),
    ],
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

/** In-page: waits for a form on the sandbox's page, fills `fields`, and presses `button` once the script has answered. */
function fillAndPress(tab: EnginePage, form: string, fields: Record<string, string>, button: string, what: string): Promise<void> {
  return tab.run(
    `const end = Date.now() + 10000;
let form;
while (!(form = document.querySelector(${JSON.stringify(form)}))) {
  if (Date.now() > end) throw new Error('timed out waiting: ' + ${JSON.stringify(what)});
  await new Promise((r) => setTimeout(r, 50));
}
for (const [name, value] of Object.entries(${JSON.stringify(fields)})) form.querySelector('[name="' + name + '"]').value = value;
// Pressed after this script has answered: the page is left at once.
setTimeout(() => form.querySelector(${JSON.stringify(button)}).click(), 0);`,
    what,
  );
}

/**
 * Presses the element's button for `wallet` once it takes a press (not busy: a press while busy is
 * ignored, as on a way back where the element first asks about its kept booking), after the script
 * has answered: the element books and leaves.
 */
function press(tab: EnginePage, wallet: 'esewa' | 'khalti'): Promise<void> {
  return tab.run(
    `${WAIT}
const button = await wait(() => {
  const b = part('button-${wallet}');
  return b && !b.disabled && el.getAttribute('aria-busy') !== 'true' && !el.shadowRoot.querySelector('[aria-busy="true"]') && b;
}, 'the ${wallet} button, not busy (status: ' + statusText() + ')');
setTimeout(() => button.click(), 0);`,
    `press the ${wallet} button`,
  );
}

/** Presses Khalti and waits for Khalti's pay page; answers its `pidx`. */
async function toKhalti(tab: EnginePage): Promise<string> {
  await press(tab, 'khalti');
  const prefix = `${merchant.sandbox.baseUrl}/khalti/pay/?pidx=`;
  const at = await waitForAddress(tab, (href) => href.startsWith(prefix), "Khalti's pay page");
  return new URL(at).searchParams.get('pidx') ?? '';
}

/** What the tab recorded on the merchant's pages (read on one of them). */
function recorded(tab: EnginePage): Promise<{ book: Array<[string, string]>; booked: Array<[string, string]>; errors: string[] }> {
  return tab.run(
    `const read = (key) => JSON.parse(sessionStorage.getItem(key) || '[]');
return { book: read('t:book'), booked: read('t:booked'), errors: read('t:errors') };`,
    "read what the merchant's pages recorded",
  );
}

/** The sandbox's control of a payment: Khalti's by pidx, ePay's by transaction. */
async function control<T>(path: string): Promise<T> {
  const response = await within(fetch(`${merchant.sandbox.baseUrl}${path}`), 5_000, `the sandbox's ${path}`);
  assert.equal(response.status, 200, `the sandbox knows ${path}`);
  return (await response.json()) as T;
}
const khaltiStatus = async (pidx: string) => (await control<{ status: string }>(`/sandbox/khalti/payments/${encodeURIComponent(pidx)}`)).status;
const epayStatus = async (uuid: string) => (await control<{ data: { status: string } }>(`/sandbox/epay/transactions/${PRODUCT_CODE}/${encodeURIComponent(uuid)}`)).data.status;

const successOf = (href: string) => href.startsWith(`${merchant.origin}/success.html?`);

for (const engine of ENGINES) {
  for (const [where, path] of [['desktop', '/checkout.html'], ['phone', '/phone.html']] as const) {
    const channel = where === 'desktop' ? 'web' : 'app';

    test(`${engine}: ${where}: "Pay with Khalti" books at Khalti, pays on its page; back on the checkout, the lookup confirms and the success page follows`, async () => {
      const tab = await openEngine(engine);
      try {
        await tab.open(`${merchant.origin}/fresh.html`);
        await tab.open(`${merchant.origin}${path}`);
        const pidx = await toKhalti(tab);
        await fillAndPress(tab, 'form[action$="/khalti/pay/"]', { khalti_id: KHALTI_ID, mpin: TEST_MPIN, otp: TEST_OTP }, 'button[value="pay"]', "pay on Khalti's page");
        const success = new URL(await waitForAddress(tab, successOf, 'the success page after the lookup'));
        assert.deepEqual([success.searchParams.get('booking_id'), success.searchParams.get('status')], [pidx, 'SUCCESS']);
        assert.equal(await khaltiStatus(pidx), 'Completed');
        const { book, booked, errors } = await recorded(tab);
        assert.deepEqual(book, [['khalti', channel]], 'one book, for Khalti');
        assert.deepEqual(booked, [[pidx, 'web']], 'a web payment on every device');
        assert.deepEqual(errors, []);
      } finally {
        await tab.close();
      }
    });

    test(`${engine}: ${where}: Khalti, back at the checkout without paying, then eSewa paid on its page: the success page, eSewa's the one booking paid, Khalti's left open`, async () => {
      const tab = await openEngine(engine);
      try {
        await tab.open(`${merchant.origin}/fresh.html`);
        await tab.open(`${merchant.origin}${path}`);
        const order = await tab.run<string>(`${WAIT}\nreturn el.getAttribute('order-id');`, "the checkout's order");
        const pidx = await toKhalti(tab);
        // Back at the checkout of the same order, as the return address names it.
        await tab.open(`${merchant.origin}${path}?order=${encodeURIComponent(order)}`);
        await press(tab, 'esewa');
        const form = `${merchant.sandbox.baseUrl}/api/epay/main/v2/form`;
        await waitForAddress(tab, (href) => href === form, "eSewa's login page (the form's POST answered)");
        await fillAndPress(
          tab,
          'form[action$="/pay"]',
          { esewa_id: EPAY_TEST_LOGIN.ids[0], password: EPAY_TEST_LOGIN.password, token: EPAY_TEST_LOGIN.token },
          'button.pay',
          'sign in and pay on the ePay page',
        );
        const success = new URL(await waitForAddress(tab, successOf, 'the success page after the status check'));
        const uuid = success.searchParams.get('booking_id') ?? '';
        assert.equal(success.searchParams.get('status'), 'SUCCESS');
        assert.notEqual(uuid, pidx);
        assert.equal(await epayStatus(uuid), 'COMPLETE');
        // Khalti cannot cancel: its payment stays open there, and the order was paid once, by eSewa.
        assert.equal(await khaltiStatus(pidx), 'Initiated');
        // The kit's word on the order: paid (by eSewa's booking, the one it hands out as payable).
        const answer = await within(
          fetch(`${merchant.origin}/api/pay/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: { id: order } }) }),
          5_000,
          `the kit's /order for ${order}`,
        );
        assert.deepEqual(((await answer.json()) as { data?: unknown }).data, { paid: true, status: 'SUCCESS' });
        const { book, booked, errors } = await recorded(tab);
        assert.deepEqual(book, [['khalti', channel], ['esewa', channel]]);
        assert.deepEqual(booked, [[pidx, 'web'], [uuid, 'web']]);
        assert.deepEqual(errors, []);
      } finally {
        await tab.close();
      }
    });
  }
}
