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
import { esewaEpay } from '../../src/providers/epay/adapter.js';
import { EPAY_TEST_CREDENTIALS } from '../../src/providers/epay/wire.js';
import { DIST, startMerchant, type Merchant } from './support.js';
import { ENGINES, closeEngines, openEngine, type EnginePage } from './engines.js';
import { EPAY_LOGIN_FIELDS, epayTransactionShown, fillAndPress, merchantPages, openFresh, press, recorded, sandboxControl, waitForAddress } from './engine-pages.js';

let merchant: Merchant;

before(async () => {
  merchant = await startMerchant({
    directories: { '/dist/': DIST },
    files: merchantPages({ phone: true, recorder: true }),
    // ePay only: no intent service behind it, so a phone's app request is answered a web payment.
    providers: (sandbox) => [esewaEpay({ ...EPAY_TEST_CREDENTIALS, baseUrl: sandbox.baseUrl })],
  });
});

after(async () => {
  await closeEngines();
  await merchant?.close();
});

/** On the sandbox's ePay login page: the transaction it shows; signs in with eSewa's test login and presses Pay. */
async function signInAndPay(tab: EnginePage): Promise<string> {
  const transaction = await epayTransactionShown(tab);
  await fillAndPress(tab, 'form[action$="/pay"]', EPAY_LOGIN_FIELDS, 'button.pay', 'sign in and pay on the ePay page');
  return transaction;
}

/** The sandbox's ePay transaction `uuid`, through its control. */
async function transaction(uuid: string): Promise<{ status: string; total_amount: string }> {
  return (await sandboxControl<{ data: { status: string; total_amount: string } }>(merchant, `/sandbox/epay/transactions/${EPAY_TEST_CREDENTIALS.productCode}/${encodeURIComponent(uuid)}`)).data;
}

/** Pays through the checkout at `path`: the element's button, the ePay page, back, verified, the success page. */
async function pay(tab: EnginePage, path: '/checkout.html' | '/phone.html'): Promise<{ uuid: string; success: URL }> {
  await openFresh(tab, merchant, path);
  // The element books, then posts the form and leaves the page.
  await press(tab);
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
      assert.deepEqual(book.map((request) => request.channel), ['web']);
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
      assert.deepEqual(book.map((request) => request.channel), ['app'], 'the phone asked for the app channel');
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
