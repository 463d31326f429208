/**
 * The way back in another browser: the wallet sends the shopper to the phone's default browser, not to
 * the tab that started the payment. The first tab pays on the provider's page, but the provider's
 * redirect is taken from it (as the wallet app hands it to another browser) and opened in a fresh
 * browser context, with none of the first tab's storage, before the merchant heard anything: the
 * sandbox holds back every callback of this file (`sendCallback`), and eSewa's ePay v2 sends none. The
 * checkout's return address names its order, the element asks `POST {endpoint}/order`, the kit asks the
 * provider, and the shopper reads "Payment received, thank you" within seconds, never a pay button.
 *
 * And the playground plays a host app only when asked: a WebView's user agent with the switch on auto
 * goes on as an in-app browser (books on the web, goes to its payment; back with the booking open, the
 * in-app panel, and the button pays the same booking); the switch on webview hands over.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright';
import { USER_AGENT_CASES } from '../fixtures/user-agents.js';
import {
  bookingIdOnProviderPage,
  bookingsOf,
  cleanConsole,
  confirmOnProviderPage,
  element,
  elementEvents,
  openCheckout,
  openShopper,
  resultPage,
  returnAddress,
  signInOnEpayPage,
  transactionOnEpayPage,
  until,
  useSuite,
  waitForText,
  type ProfileName,
  type Shopper,
  holdWebPayment,
} from './support.js';
import { within } from '../support/within.js';

// No callback reaches the merchant in this file: every return comes before it.
const suite = useSuite({ sandbox: { sendCallback: () => false } });
const shoppers: Shopper[] = [];
after(async () => {
  for (const s of shoppers) await s.context.close().catch(() => undefined);
});

/** How soon the fresh browser must say the order is paid. */
const PAID_WITHIN_MS = 5_000;
const PAID_TEXT = 'Payment received, thank you';

async function shopper(profile: ProfileName, userAgent?: string): Promise<Shopper> {
  const s = await openShopper(suite.browser, profile, userAgent ? { userAgent } : {});
  shoppers.push(s);
  return s;
}

/**
 * Takes the provider's redirect back to the checkout away from the first tab: the provider page's form
 * POST is sent without following its redirect, and a redirect to the checkout is answered 204 instead,
 * so the tab stays on the provider's page. Resolves with the redirect's address, within 15 s.
 */
async function redirectTakenFrom(page: Page, pay: () => Promise<void>): Promise<string> {
  const { origin, sandbox } = suite.pg;
  const providers = new Set([new URL(sandbox.baseUrl).origin, new URL(sandbox.linksUrl).origin]);
  let taken!: (url: string) => void;
  const address = new Promise<string>((resolve) => {
    taken = resolve;
  });
  await page.route(
    (url) => providers.has(url.origin),
    async (route) => {
      const request = route.request();
      if (request.method() !== 'POST' || !request.isNavigationRequest()) return route.fallback();
      const response = await route.fetch({ maxRedirects: 0 });
      const location = response.headers()['location'];
      const target = location ? new URL(location, request.url()) : undefined;
      if (target?.origin !== origin) return route.fulfill({ response });
      taken(target.href);
      return route.fulfill({ status: 204 });
    },
  );
  await pay();
  return within(address, 15_000, "the provider's redirect back to the checkout");
}

/**
 * Opens `back` in a fresh context (no storage of the first tab) and waits for the paid text.
 */
async function openInAnotherBrowser(profile: ProfileName, back: string): Promise<{ s: Shopper; orderAnswers: unknown[] }> {
  const s = await shopper(profile);
  const answers: Array<Promise<unknown>> = [];
  s.page.on('response', (response) => {
    if (response.url().endsWith('/order')) answers.push(response.json().catch((error: unknown) => `unreadable: ${String(error)}`));
  });
  const orderAnswers = () => within(Promise.all(answers), 5_000, 'the /order answers to be read');
  await s.page.goto(back);
  const el = element(s.page);
  try {
    await waitForText(el.status, PAID_TEXT, PAID_WITHIN_MS);
  } catch (error) {
    const status = await el.status.textContent({ timeout: 1_000 }).catch(() => '(no status region)');
    const payShown = (await el.host.locator('button[part~="button"]:visible').count()) > 0;
    throw new Error(
      `"${PAID_TEXT}" within ${PAID_WITHIN_MS} ms at ${back}; the status says ${JSON.stringify(status?.trim())}, ` +
        `the pay button is ${payShown ? 'shown' : 'hidden'}, /order answered ${JSON.stringify(await orderAnswers())}`,
      { cause: error },
    );
  }
  return { s, orderAnswers: await orderAnswers() };
}

/**
 * What a paid order shows in a tab with nothing kept (docs/element.md, "Coming back"): the paid text
 * and "See your order", no pay button at any moment, and no routing: the page stays where it landed.
 */
async function assertShownPaid(s: Shopper, back: string): Promise<void> {
  const el = element(s.page);
  assert.equal(await el.host.locator('button[part~="button"]:visible').count(), 0, 'no pay button beside the paid text');
  assert.equal(await el.host.getByRole('link', { name: 'See your order' }).getAttribute('href'), `${suite.pg.origin}/success.html`);
  assert.deepEqual(s.visited, [back], 'a paid order in a tab with nothing kept is shown, not routed');
  assert.deepEqual((await elementEvents(s.page)).map((event) => event.type), []);
  assert.deepEqual(cleanConsole(s), []);
}

/** Paid at the intent service from a phone's wallet page: the return opened in another browser. */
async function intentReturn(): Promise<{ s: Shopper; back: string }> {
  const first = await shopper('pixel7');
  const checkout = await openCheckout(first, suite.pg.origin);
  let bookingId = '';
  const back = await redirectTakenFrom(first.page, async () => {
    await element(first.page).pay.tap();
    await first.page.waitForURL(new RegExp(`^${suite.pg.sandbox.linksUrl}/pay/BK-`));
    bookingId = await bookingIdOnProviderPage(first.page);
    await confirmOnProviderPage(first.page, '1234');
  });
  assert.equal(suite.pg.sandbox.getBooking(bookingId)?.status, 'SUCCESS');
  assert.equal(suite.pg.records.get(bookingId), undefined, 'the merchant knows nothing yet');

  const { s, orderAnswers } = await openInAnotherBrowser('pixel7', back);
  await assertShownPaid(s, back);
  assert.match(back, returnAddress(suite.pg.origin, `booking_id=${bookingId}&status=SUCCESS`));
  assert.deepEqual(orderAnswers.map((answer) => (answer as { data?: unknown }).data), [{ paid: true, status: 'SUCCESS' }]);
  // The kit asked the service and delivered what it learned; no callback came.
  assert.deepEqual([suite.pg.records.get(bookingId)?.status, suite.pg.records.get(bookingId)?.verified_by], ['SUCCESS', 'status-check']);
  assert.deepEqual(suite.pg.sandbox.callbackAttempts().filter((attempt) => attempt.booking_id === bookingId), []);
  assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1, 'nothing booked again');
  return { s, back };
}

/** Paid on eSewa's ePay v2 page from a desktop's `?web=epay` checkout: the return opened in another browser. */
async function epayReturn(): Promise<{ s: Shopper; back: string }> {
  const first = await shopper('desktop');
  // The ePay endpoint lists eSewa and Khalti: a button for each wallet, the module's own hidden.
  await first.page.goto(`${suite.pg.origin}/?web=epay`);
  const payWithEsewa = element(first.page).host.getByRole('button', { name: 'Pay with eSewa' });
  await payWithEsewa.waitFor({ timeout: 10_000 });
  const checkout = (await element(first.page).host.getAttribute('order-id'))!.replace(/^A-1001\//, '');
  let uuid = '';
  const back = await redirectTakenFrom(first.page, async () => {
    await payWithEsewa.click();
    await first.page.waitForURL(`${suite.pg.sandbox.baseUrl}/api/epay/main/v2/form`, { timeout: 10_000 });
    uuid = await transactionOnEpayPage(first.page);
    await signInOnEpayPage(first.page);
  });
  assert.equal(suite.pg.records.get(uuid), undefined, 'the merchant knows nothing yet');

  const { s } = await openInAnotherBrowser('desktop', back);
  await assertShownPaid(s, back);
  assert.match(back, returnAddress(suite.pg.origin, `booking_id=${uuid}?data=`, false));
  const record = suite.pg.records.get(uuid);
  assert.deepEqual([record?.status, record?.order_id, record?.verified_by], ['SUCCESS', `A-1001/${checkout}`, 'status-check']);
  return { s, back };
}

describe('paid, then back in another browser before the callback', () => {
  test('pixel7, the intent service: the wallet page pays, the return opens in a fresh context and shows the order paid', async () => {
    await intentReturn();
  });

  test("desktop, ?web=epay: eSewa's page pays, the return (its ?data= glued on) opens in a fresh context and shows the order paid", async () => {
    await epayReturn();
  });

  test("pixel7: the shop's /order failing in the other browser shows the pay button; a press books nothing and ends on the paid text", async () => {
    const first = await shopper('pixel7');
    const checkout = await openCheckout(first, suite.pg.origin);
    let bookingId = '';
    const back = await redirectTakenFrom(first.page, async () => {
      await element(first.page).pay.tap();
      await first.page.waitForURL(new RegExp(`^${suite.pg.sandbox.linksUrl}/pay/BK-`));
      bookingId = await bookingIdOnProviderPage(first.page);
      await confirmOnProviderPage(first.page, '1234');
    });
    const s = await shopper('pixel7');
    // The pay button waits, hidden, while /order is asked; a failed /order shows it (no dead end), so
    // the shopper can press it for an order that is paid: the kit is what refuses the second booking.
    await s.page.route(`${suite.pg.origin}/api/pay/order`, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', headers: { 'retry-after': '1' }, body: JSON.stringify({ code: 'IP-503', message: 'The shop is busy' }) }),
    );
    const bookAnswers: Array<Promise<unknown>> = [];
    s.page.on('response', (response) => {
      if (response.url().endsWith('/api/pay/book')) bookAnswers.push(response.json());
    });
    await s.page.goto(back);
    const el = element(s.page);
    await el.pay.tap();
    await waitForText(el.status, PAID_TEXT, PAID_WITHIN_MS);
    const codes = (await within(Promise.all(bookAnswers), 5_000, 'the /book answers')).map((answer) => (answer as { code?: string }).code);
    assert.deepEqual(codes, ['IP-412'], 'the kit refused to book the paid order again');
    assert.deepEqual(bookingsOf(suite.pg.sandbox, checkout).map((booking) => [booking.booking_id, booking.status]), [[bookingId, 'SUCCESS']]);
    assert.equal(await el.host.locator('button[part~="button"]:visible').count(), 0);
    assert.deepEqual(cleanConsole(s), []);
  });
});

describe('the playground plays a host app only when asked', () => {
  const webview = USER_AGENT_CASES.find((row) => row.name === 'Android WebView')!.userAgent;

  test('an Android WebView, the switch on auto: the in-app panel, and a payment through "Pay on the web"', async () => {
    const s = await shopper('pixel7', webview);
    const checkout = await openCheckout(s, suite.pg.origin);
    assert.equal(await s.page.locator('#detected').textContent(), 'webview');
    const el = element(s.page);
    // The press goes on as in an in-app browser (no host app took it): a web booking and its payment
    // page, held here (answered 204, the tab stays) as when the shopper comes back from it unpaid.
    const held = await holdWebPayment(s.page, `${suite.pg.sandbox.webPaymentUrl}*`);
    await el.pay.tap();
    await held.reached();
    await held.release();
    const events = await elementEvents(s.page);
    assert.deepEqual(events.map((event) => event.type), ['webview', 'booked', 'navigate']);
    assert.deepEqual([events[1]!.detail?.['channel'], events[2]!.detail?.['reason']], ['web', 'web-payment']);
    assert.deepEqual(s.visited, [`${suite.pg.origin}/`]);
    const [webBooking] = bookingsOf(suite.pg.sandbox, checkout);
    assert.ok(webBooking, 'a web booking was made: no host app took the payment');

    // Back on the page with the booking open: the in-app panel, the booking kept for it.
    await s.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await el.host.locator('[part~="inapp"]').waitFor({ timeout: 10_000 });
    await waitForText(el.status, 'Pay in the wallet app or on the web.');
    assert.equal(suite.pg.sandbox.getBooking(webBooking.booking_id)?.status, 'BOOKED');

    // The button goes on with the same booking to its web payment, which pays.
    await el.host.locator('button[part~="button"]').tap();
    await s.page.waitForURL(`${suite.pg.sandbox.webPaymentUrl}*`, { timeout: 15_000 });
    const bookingId = await bookingIdOnProviderPage(s.page);
    assert.equal(bookingId, webBooking.booking_id);
    await confirmOnProviderPage(s.page, '1234');
    await s.page.waitForURL(/\/success\.html\?/, { timeout: 15_000 });
    assert.deepEqual([(await resultPage(s.page)).status, suite.pg.sandbox.getBooking(bookingId)?.status], ['SUCCESS', 'SUCCESS']);
    assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1, 'one booking in all');
    assert.deepEqual(cleanConsole(s), []);
  });

  // A host app's bridge, installed before the page's scripts as the app installs it.
  for (const { bridge, install } of [
    { bridge: 'window.ReactNativeWebView', install: 'window.ReactNativeWebView = { postMessage() {} };' },
    { bridge: 'window.webkit.messageHandlers', install: 'window.webkit = { messageHandlers: { walletPay: { postMessage() {} } } };' },
  ]) {
    test(`an Android WebView with ${bridge}, the switch on auto: the host app takes the payment`, async () => {
      const s = await shopper('pixel7', webview);
      await s.context.addInitScript(install);
      const checkout = await openCheckout(s, suite.pg.origin);
      const el = element(s.page);
      await el.pay.tap();
      await waitForText(el.status, 'Continue the payment in the app.');
      assert.deepEqual((await elementEvents(s.page)).map((event) => event.type), ['webview']);
      assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 0);
      assert.deepEqual(cleanConsole(s), []);
    });
  }

  test('an Android WebView, the switch on webview: the host app takes the payment, nothing is booked', async () => {
    const s = await shopper('pixel7', webview);
    const checkout = await openCheckout(s, suite.pg.origin);
    await s.page.locator('input[name="environment"][value="webview"]').check();
    await until(async () => (await element(s.page).host.getAttribute('environment')) === 'webview', 'the element takes the switch', 5_000);
    const el = element(s.page);
    await el.pay.tap();
    await waitForText(el.status, 'Continue the payment in the app.');
    assert.deepEqual((await elementEvents(s.page)).map((event) => event.type), ['webview']);
    assert.equal(await el.host.locator('[part~="inapp"]').count(), 0);
    assert.deepEqual(s.visited, [`${suite.pg.origin}/`]);
    assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 0);
    assert.deepEqual(cleanConsole(s), []);
  });
});
