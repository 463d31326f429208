/**
 * `payOnPage` of wallet-pay-button/testing in Chromium: it pays, fails and cancels on every sandbox
 * payment page (the intent service's wallet page and web payment form, eSewa ePay v2's login page,
 * Khalti's pay page), in English and in Nepali, and when the tab holds none of them it names what it
 * found and why.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { payOnPage, walletPayFixtures, type PayOnPageOptions } from '../../../src/testing/index.js';
import { launchChromium } from '../../../scripts/chromium.mjs';
import { book, control } from './support.js';
import { epayForm, EPAYTEST } from './epay/support.js';
import { initiate } from './khalti/support.js';

const within = '8s';
let browser: Browser;
let sandbox: Sandbox;

before(async () => {
  browser = await launchChromium();
  sandbox = await startSandbox();
});
after(async () => {
  await sandbox?.close();
  await browser?.close();
});

/** A fresh tab for `run`, closed after it. */
async function inTab<T>(run: (page: Page) => Promise<T>): Promise<T> {
  const page = await browser.newPage();
  try {
    return await run(page);
  } finally {
    await page.close();
  }
}

/** A booking whose shopper comes back to the sandbox itself (a 404 page: a place the tab can land). */
async function booking(): Promise<{ id: string; deeplink: string; correlation: string }> {
  const { status, body } = await book(sandbox.baseUrl, { key: sandbox.accessKey, product: 'SANDBOX', redirectUrl: `${sandbox.baseUrl}/returned` });
  assert.equal(status, 200, JSON.stringify(body));
  return { id: body.data!['booking_id']!, deeplink: body.data!['deeplink']!, correlation: body.data!['correlation_id']! };
}

/** A page of the merchant's that posts `fields` to `action` as soon as it loads (a form POST, as a checkout does). */
async function postFrom(page: Page, action: string, fields: Record<string, string>): Promise<void> {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`)
    .join('');
  await page.setContent(`<form method="post" action="${action}">${inputs}<button>Pay</button></form>`);
  await Promise.all([page.waitForURL(action, { timeout: 8000 }), page.locator('button').click({ timeout: 8000 })]);
}

const OUTCOMES: Array<[NonNullable<PayOnPageOptions['action']>, string]> = [
  ['pay', 'SUCCESS'],
  ['fail', 'FAILED'],
  ['cancel', 'CANCELED'],
];

describe('payOnPage on the intent service pages', () => {
  for (const [action, status] of OUTCOMES) {
    test(`the wallet page behind the deeplink: ${action} makes the booking ${status} and lands on the merchant's redirect`, () =>
      inTab(async (page) => {
        const { id, deeplink } = await booking();
        const result = await payOnPage(page, deeplink, { action, within });
        assert.equal(result.page, 'wallet');
        assert.equal(sandbox.getBooking(id)?.status, status);
        assert.match(result.url, new RegExp(`/returned\\?booking_id=${id}&status=${status}$`));
      }));

    test(`the web payment form (a signed POST /web/pay): ${action} makes the booking ${status}`, () =>
      inTab(async (page) => {
        const { id, correlation } = await booking();
        const signature = createHmac('sha256', sandbox.accessKey).update(`booking_id=${id},correlation_id=${correlation}`).digest('base64');
        await postFrom(page, sandbox.webPaymentUrl, { booking_id: id, correlation_id: correlation, signed_field_names: 'booking_id,correlation_id', signature });
        const result = await payOnPage(page, undefined, { action, within });
        assert.equal(result.page, 'web');
        assert.equal(sandbox.getBooking(id)?.status, status);
      }));
  }

  test('the fixture hands the test its page; a scenario of the picker decides', () =>
    inTab(async (page) => {
      const { id, deeplink } = await booking();
      await walletPayFixtures.payOnPage({ page }, async (pay) => {
        assert.deepEqual(await pay(deeplink, { scenario: 'WPS-003', within }), { page: 'wallet', url: `${sandbox.baseUrl}/returned?booking_id=${id}&status=CANCELED` });
      });
      assert.equal(sandbox.getBooking(id)?.scenario, 'WPS-003');
    }));
});

describe("payOnPage on eSewa ePay v2's login page", () => {
  const ENDED: Array<[NonNullable<PayOnPageOptions['action']>, string, string]> = [
    ['pay', 'COMPLETE', '/esewa/success?data='],
    ['fail', 'NOT_FOUND', '/esewa/failure'],
    ['cancel', 'CANCELED', '/esewa/failure'],
  ];
  for (const [action, status, landing] of ENDED) {
    test(`${action}: the transaction is ${status} and the tab at the merchant's ${landing.split('?')[0]}`, () =>
      inTab(async (page) => {
        const fields = epayForm({ successUrl: `${sandbox.baseUrl}/esewa/success`, failureUrl: `${sandbox.baseUrl}/esewa/failure` });
        await postFrom(page, `${sandbox.baseUrl}/api/epay/main/v2/form`, fields);
        const result = await payOnPage(page, undefined, { action, within });
        assert.equal(result.page, 'epay');
        assert.ok(result.url.startsWith(`${sandbox.baseUrl}${landing}`), result.url);
        const record = await control<{ status: string }>(sandbox.baseUrl, `/sandbox/epay/transactions/${EPAYTEST}/${fields['transaction_uuid']}`);
        assert.equal(record.data.status, status);
      }));
  }

  test('a login the page refuses is named with the page\'s own words', () =>
    inTab(async (page) => {
      await postFrom(page, `${sandbox.baseUrl}/api/epay/main/v2/form`, epayForm());
      await assert.rejects(payOnPage(page, undefined, { password: 'wrong', within }), /eSewa ePay v2's login page refused the pay: "Wrong eSewa ID, password or token\./);
    }));
});

describe("payOnPage on Khalti's pay page", () => {
  const ENDED: Array<[NonNullable<PayOnPageOptions['action']>, string]> = [
    ['pay', 'Completed'],
    ['fail', 'Pending'],
    ['cancel', 'User canceled'],
  ];
  for (const [action, status] of ENDED) {
    test(`${action}: the return says ${status}${action === 'fail' ? ' (KHALTI-004: Failed 2 min later)' : ''}`, () =>
      inTab(async (page) => {
        const { pidx, body } = await initiate(sandbox.baseUrl, { return_url: `${sandbox.baseUrl}/khalti/return` });
        const result = await payOnPage(page, String(body['payment_url']), { action, within });
        assert.equal(result.page, 'khalti');
        assert.equal(new URL(result.url).searchParams.get('status'), status);
        const payment = await control<never>(sandbox.baseUrl, `/sandbox/khalti/payments/${pidx}`);
        assert.equal(payment.body['status'], status);
        if (action === 'fail') assert.equal(payment.body['scenario'], 'KHALTI-004');
      }));
  }
});

/** Where payOnPage leaves the shopper. */
type PayOnPageResult = Awaited<ReturnType<typeof payOnPage>>;

/** A page in Nepali: how the tab gets there, what payOnPage does on it, and what must follow. */
interface InNepali {
  name: string;
  /** Opens the page; answers what must hold once payOnPage acted on it. */
  open(page: Page): Promise<(result: PayOnPageResult) => void>;
  options: Omit<PayOnPageOptions, 'within'>;
  page: PayOnPageResult['page'];
}

/** Switches the tab's page to Nepali by the page's own language link. */
const switchToNepali = (page: Page) => Promise.all([page.waitForURL(/\?lang=ne$/, { timeout: 8000 }), page.locator('nav.lang a[lang="ne"]').click({ timeout: 8000 })]);

const IN_NEPALI: InNepali[] = [
  {
    name: 'the wallet page at ?lang=ne: a scenario picked by its value, and the pay',
    page: 'wallet',
    options: { scenario: 'WPS-003' },
    async open(page) {
      const { id, deeplink } = await booking();
      await page.goto(`${deeplink}?lang=ne`);
      return () => assert.equal(sandbox.getBooking(id)?.status, 'CANCELED');
    },
  },
  {
    name: "the web payment form, switched to Nepali by the page's own link: fail",
    page: 'web',
    options: { action: 'fail' },
    async open(page) {
      const { id, correlation } = await booking();
      const signature = createHmac('sha256', sandbox.accessKey).update(`booking_id=${id},correlation_id=${correlation}`).digest('base64');
      await postFrom(page, sandbox.webPaymentUrl, { booking_id: id, correlation_id: correlation, signed_field_names: 'booking_id,correlation_id', signature });
      await switchToNepali(page);
      return () => assert.equal(sandbox.getBooking(id)?.status, 'FAILED');
    },
  },
  {
    name: "ePay's login page, switched to Nepali by its own link: cancel",
    page: 'epay',
    options: { action: 'cancel' },
    async open(page) {
      const fields = epayForm({ successUrl: `${sandbox.baseUrl}/esewa/success`, failureUrl: `${sandbox.baseUrl}/esewa/failure` });
      await postFrom(page, `${sandbox.baseUrl}/api/epay/main/v2/form`, fields);
      await switchToNepali(page);
      return (result) => assert.ok(result.url.startsWith(`${sandbox.baseUrl}/esewa/failure`), result.url);
    },
  },
  {
    name: "Khalti's payment_url with lang=ne: pay",
    page: 'khalti',
    options: {},
    async open(page) {
      const { body } = await initiate(sandbox.baseUrl, { return_url: `${sandbox.baseUrl}/khalti/return` });
      await page.goto(`${String(body['payment_url'])}&lang=ne`);
      return (result) => assert.equal(new URL(result.url).searchParams.get('status'), 'Completed');
    },
  },
];

describe('payOnPage on the pages in Nepali (it reads fields and classes, never words)', () => {
  for (const nepali of IN_NEPALI) {
    test(nepali.name, () =>
      inTab(async (page) => {
        const followed = await nepali.open(page);
        // The page the tab shows is in Nepali, its buttons too.
        assert.equal(await page.locator('html').getAttribute('lang'), 'ne', `${page.url()} is in Nepali`);
        assert.match((await page.locator('button').allTextContents()).join(' '), /रद्द गर्नुहोस्/);
        const result = await payOnPage(page, undefined, { ...nepali.options, within });
        assert.equal(result.page, nepali.page);
        followed(result);
      }));
  }
});

describe('payOnPage names the real cause when it cannot act', () => {
  test('under --profile esewa-uat the deeplink leaves the sandbox: it names the redirect, where it went, and where the wallet page is', async () => {
    const uat = await startSandbox({ profile: 'esewa-uat' });
    try {
      await inTab(async (page) => {
        const { body } = await book(uat.baseUrl, { key: uat.accessKey, product: 'INTENT' });
        const deeplink = body.data!['deeplink']!;
        // Offline the marketing site does not load; online it does and is no payment page: both are named.
        await assert.rejects(payOnPage(page, deeplink, { within }), (error: Error) => {
          assert.match(error.message, /^payOnPage: expected one of the sandbox's payment pages \(the intent service's wallet page, .*Khalti's pay page\)/);
          assert.ok(error.message.includes(`${deeplink} was redirected to https://esewa.com.np/`), error.message);
          assert.match(error.message, /\(under --profile esewa-uat the links host redirects \/pay\/\{id\} by user agent; the wallet page is at \{links_url\}\/app\/\{id\}\)/);
          assert.match(error.message, /(did not load \(net::ERR_\w+\)|found ".*" at https:\/\/esewa\.com\.np\/)/);
          return true;
        });
        // A tab of its own: the failed navigation's error page may still be committing in this one.
        const result = await inTab((fresh) => payOnPage(fresh, deeplink.replace('/pay/', '/app/'), { within }));
        assert.equal(result.page, 'wallet', 'the wallet page where the profile keeps it');
      });
    } finally {
      await uat.close();
    }
  });

  test('a page that is no sandbox payment page is named by its title and place', () =>
    inTab(async (page) => {
      await page.setContent('<title>Checkout</title><p role="alert">Your cart is empty</p>');
      await assert.rejects(payOnPage(page, undefined, { within }), /found "Checkout" at about:blank, saying "Your cart is empty"\.$/);
    }));

  test('a closed booking: the page found and what it says', () =>
    inTab(async (page) => {
      const { id, deeplink } = await booking();
      await payOnPage(page, deeplink, { within });
      await assert.rejects(payOnPage(page, deeplink, { within }), new RegExp(`found "Payment closed" at ${deeplink}, saying ".*SUCCESS`));
      assert.equal(sandbox.getBooking(id)?.status, 'SUCCESS');
    }));

  test('a scenario the page does not offer, and a form the browser will not send, each within the time given', () =>
    inTab(async (page) => {
      const { deeplink } = await booking();
      await assert.rejects(payOnPage(page, deeplink, { scenario: 'EPAY-001', within }), /the intent service's wallet page offers no scenario "EPAY-001"; it offers WPS-001, .*WPS-016/);
      const started = Date.now();
      await assert.rejects(
        payOnPage(page, deeplink, { mpin: '12', within: '1s' }),
        /pressed button\.confirm on the intent service's wallet page to pay, but the tab did not move on within 1000 ms; it shows "Wallet: confirm payment"/,
      );
      assert.ok(Date.now() - started < 6000, 'bounded by within');
    }));
});
