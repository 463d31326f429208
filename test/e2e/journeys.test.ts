/**
 * The shopper's journeys through the playground in Chromium: desktop, Android phone, iPhone and an
 * Android WebView. Each checks what the shopper sees, where the browser goes, the final status in the
 * sandbox and the verified result at the merchant.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bookingIdOnProviderPage,
  bookingsOf,
  cleanConsole,
  confirmOnProviderPage,
  element,
  elementEvents,
  launchBrowser,
  openCheckout,
  openShopper,
  payInWalletApp,
  resultPage,
  waitForText,
  withoutWalletApp,
  type Shopper,
  useSuite,
  returnAddress,
} from './support.js';

const shoppers: Shopper[] = [];

const suite = useSuite();

async function shopper(...args: Parameters<typeof openShopper> extends [unknown, ...infer Rest] ? Rest : never): Promise<Shopper> {
  const s = await openShopper(suite.browser, ...args);
  shoppers.push(s);
  return s;
}

/** The merchant verified this final status (by callback or status check) and the callback was answered 2xx. */
async function assertMerchantVerified(bookingId: string, status: string, expectCallback = true): Promise<void> {
  await suite.pg.sandbox.whenCallbacksSettled();
  const record = suite.pg.records.get(bookingId);
  assert.equal(record?.status, status, `merchant record of ${bookingId}`);
  const attempts = suite.pg.sandbox.callbackAttempts().filter((attempt) => attempt.booking_id === bookingId);
  if (expectCallback) {
    assert.ok(attempts.some((attempt) => attempt.delivered), `a delivered callback for ${bookingId}: ${JSON.stringify(attempts)}`);
  }
}

describe('desktop: the provider web payment page', () => {
  for (const { name, mpin, cancel, page: expectedPage, status } of [
    { name: 'pays and ends on the success page with the verified SUCCESS', mpin: '1234', cancel: false, page: 'success', status: 'SUCCESS' },
    { name: 'a failed MPIN ends on the failure page with FAILED', mpin: '0000', cancel: false, page: 'failure', status: 'FAILED' },
    { name: 'a shopper who cancels ends on the failure page with CANCELED', mpin: '', cancel: true, page: 'failure', status: 'CANCELED' },
  ] as const) {
    test(name, async () => {
      const s = await shopper('desktop');
      const checkout = await openCheckout(s, suite.pg.origin);
      await element(s.page).pay.click();
      await s.page.waitForURL(`${suite.pg.sandbox.webPaymentUrl}`);
      const bookingId = await bookingIdOnProviderPage(s.page);
      if (cancel) {
        await s.page.getByRole('button', { name: 'Cancel', exact: true }).click();
      } else {
        await confirmOnProviderPage(s.page, mpin);
      }
      await s.page.waitForURL(new RegExp(`/${expectedPage}\\.html\\?`));
      const shown = await resultPage(s.page);
      assert.deepEqual([shown.page, shown.booking, shown.status], [expectedPage, bookingId, status]);
      assert.equal(new URL(s.page.url()).searchParams.get('booking_id'), bookingId);
      // Back at the checkout first (the redirect URL), where the element verified and routed.
      assert.ok(s.visited.some((url) => returnAddress(suite.pg.origin, `booking_id=${bookingId}`, false).test(url)), s.visited.join('\n'));
      assert.equal(suite.pg.sandbox.getBooking(bookingId)?.status, status);
      assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1);
      await assertMerchantVerified(bookingId, status);
      assert.deepEqual(cleanConsole(s), []);
      await s.context.close();
    });
  }
});

describe('phones: the deeplink opens the wallet page that stands in for the app', () => {
  for (const profile of ['pixel7', 'iphone14'] as const) {
    test(`${profile}: deeplink → wallet page → pay → the merchant's success page`, async () => {
      const s = await shopper(profile);
      const checkout = await openCheckout(s, suite.pg.origin);
      await element(s.page).pay.tap();
      await s.page.waitForURL(new RegExp(`^${suite.pg.sandbox.linksUrl}/pay/BK-`));
      const bookingId = await bookingIdOnProviderPage(s.page);
      assert.equal(s.page.url(), `${suite.pg.sandbox.linksUrl}/pay/${bookingId}`);
      await confirmOnProviderPage(s.page, '4321', 'bank');
      await s.page.waitForURL(/\/success\.html\?/);
      const shown = await resultPage(s.page);
      assert.deepEqual([shown.page, shown.booking, shown.status], ['success', bookingId, 'SUCCESS']);
      assert.equal(suite.pg.sandbox.getBooking(bookingId)?.status, 'SUCCESS');
      assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1);
      const navigate = (await elementEvents(s.page)).find((event) => event.type === 'navigate' && event.detail?.reason === 'app');
      assert.equal(navigate?.detail?.url, `${suite.pg.sandbox.linksUrl}/pay/${bookingId}`);
      await assertMerchantVerified(bookingId, 'SUCCESS');
      assert.deepEqual(cleanConsole(s), []);
      await s.context.close();
    });
  }

  // The element routes the shopper who comes back with the back button whether the engine restores
  // the checkout from the back/forward cache (`pageshow` with `persisted`) or loads it afresh; each
  // way is tested on its own so neither depends on the engine's choice. Chromium says why it did not
  // restore a page (`Page.backForwardCacheNotUsed`), which the assertions quote.
  for (const restore of [true, false]) {
    test(`pixel7: back button from the wallet page (${restore ? 'a bfcache restore' : 'the checkout loaded afresh'}) → status verified → routed`, async () => {
      // The suite's browser (the headless shell, the cache off as Playwright sets it) can only load the
      // page afresh; a restore needs Chromium itself with its back/forward cache on.
      const browser = restore ? await launchBrowser({ bfcache: true }) : suite.browser;
      try {
        await backButtonJourney(await openShopper(browser, 'pixel7'), restore);
      } finally {
        if (restore) await browser.close();
      }
    });
  }
});

/** Pays on the wallet page's stand-in, then comes back to the checkout with the back button. */
async function backButtonJourney(s: Shopper, restore: boolean): Promise<void> {
  shoppers.push(s);
  const cdp = await s.context.newCDPSession(s.page);
  await cdp.send('Page.enable');
  const notRestored: string[] = [];
  cdp.on('Page.backForwardCacheNotUsed', ({ notRestoredExplanations }) =>
    notRestored.push(...notRestoredExplanations.map(({ reason, type }) => `${reason} (${type})`)),
  );
  // Each `pageshow` of the checkout, and whether it was a restore, kept across the page's loads.
  await s.context.addInitScript(() => {
    addEventListener('pageshow', (event) => {
      if (location.pathname !== '/') return;
      const shows = JSON.parse(sessionStorage.getItem('e2e:checkout-shows') ?? '[]') as boolean[];
      sessionStorage.setItem('e2e:checkout-shows', JSON.stringify([...shows, (event as PageTransitionEvent).persisted]));
    });
  });
  const checkout = await openCheckout(s, suite.pg.origin);
  await element(s.page).pay.tap();
  await s.page.waitForURL(new RegExp(`^${suite.pg.sandbox.linksUrl}/pay/BK-`));
  const bookingId = await bookingIdOnProviderPage(s.page);
  // The app takes the payment; the shopper then comes back with the system back button.
  await payInWalletApp(s.context, suite.pg.sandbox, bookingId);
  await s.page.goBack({ waitUntil: 'commit' });
  await s.page.waitForURL(/\/success\.html\?/);
  const shown = await resultPage(s.page);
  assert.deepEqual([shown.page, shown.booking, shown.status], ['success', bookingId, 'SUCCESS']);
  const checkoutVisits = s.visited.filter((url) => url === `${suite.pg.origin}/`);
  assert.equal(checkoutVisits.length, 2, `checkout, then back to it: ${s.visited.join('\n')}`);
  const shows = await s.page.evaluate(() => sessionStorage.getItem('e2e:checkout-shows'));
  const why = notRestored.length > 0 ? `Chromium did not restore it: ${notRestored.join(', ')}` : 'Chromium reported no reason not to restore it';
  if (restore) assert.equal(shows, '[false,true]', `the checkout came back from the bfcache (${why})`);
  else assert.equal(shows, '[false,false]', `the checkout was loaded afresh (${why})`);
  assert.equal(notRestored.length > 0, !restore, why);
  assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1);
  await assertMerchantVerified(bookingId, 'SUCCESS');
  assert.deepEqual(cleanConsole(s), []);
  await s.context.close();
}

describe('app not installed: the deeplink does not leave the page', () => {
  for (const { profile, store } of [
    { profile: 'pixel7', store: 'https://play.google.com/store/apps/details?id=com.example.wallet' },
    { profile: 'iphone14', store: 'https://apps.apple.com/app/id1234567890' },
  ] as const) {
    test(`${profile}: the fallback panel, its store link, a real link to the deeplink, and "pay on the web" pays`, async () => {
      const s = await shopper(profile);
      await withoutWalletApp(s.page, suite.pg.sandbox);
      const checkout = await openCheckout(s, suite.pg.origin);
      const el = element(s.page);
      await el.pay.tap();
      await el.panel.waitFor();
      await waitForText(el.status, 'Did the wallet app not open?');
      assert.equal(s.page.url(), `${suite.pg.origin}/`);
      const [first] = bookingsOf(suite.pg.sandbox, checkout);
      assert.ok(first);
      const deeplink = `${suite.pg.sandbox.linksUrl}/pay/${first.booking_id}`;
      assert.equal(await el.getApp.getAttribute('href'), store);
      assert.equal(await el.openApp.evaluate((a) => `${a.tagName} ${a.getAttribute('href')}`), `A ${deeplink}`);
      // Every choice is reachable: the panel never dead-ends.
      for (const choice of [el.openApp, el.getApp, el.payOnWeb, el.cancel]) assert.ok(await choice.isVisible());

      await el.payOnWeb.tap();
      await s.page.waitForURL(suite.pg.sandbox.webPaymentUrl);
      const webBooking = await bookingIdOnProviderPage(s.page);
      assert.notEqual(webBooking, first.booking_id);
      // The app booking was cancelled before the web attempt, so it can never be paid as well.
      assert.equal(suite.pg.sandbox.getBooking(first.booking_id)?.status, 'CANCELED');
      await confirmOnProviderPage(s.page, '1234');
      await s.page.waitForURL(/\/success\.html\?/);
      const shown = await resultPage(s.page);
      assert.deepEqual([shown.page, shown.booking, shown.status], ['success', webBooking, 'SUCCESS']);
      assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 2);
      await assertMerchantVerified(webBooking, 'SUCCESS');
      assert.deepEqual(cleanConsole(s), []);
      await s.context.close();
    });
  }

  test('iphone14: tapping the panel\'s link opens the wallet page (the second tap iOS needs)', async () => {
    const s = await shopper('iphone14');
    const installApp = await withoutWalletApp(s.page, suite.pg.sandbox);
    await openCheckout(s, suite.pg.origin);
    const el = element(s.page);
    await el.pay.tap();
    await el.openApp.waitFor();
    const href = await el.openApp.getAttribute('href');
    // The app is there after all: the tap on the real link is what opens it.
    await installApp();
    await el.openApp.tap();
    await s.page.waitForURL(href!);
    const bookingId = await bookingIdOnProviderPage(s.page);
    await confirmOnProviderPage(s.page, '1234');
    await s.page.waitForURL(/\/success\.html\?/);
    assert.equal((await resultPage(s.page)).status, 'SUCCESS');
    assert.equal(suite.pg.sandbox.getBooking(bookingId)?.status, 'SUCCESS');
    assert.deepEqual(cleanConsole(s), []);
    await s.context.close();
  });
});

test('WebView: no booking, no navigation, the hand-off event carries what the host needs, the message shows', async () => {
  const s = await shopper('webview');
  const proxyCalls: string[] = [];
  s.page.on('request', (request) => {
    // Whether the order is paid already (`/order`) is asked on every checkout; nothing is booked here.
    if (request.url().startsWith(`${suite.pg.origin}/api/pay/`) && !request.url().endsWith('/order')) proxyCalls.push(request.url());
  });
  const checkout = await openCheckout(s, suite.pg.origin);
  // The playground plays the host app only when asked: its switch says WebView.
  await s.page.locator('input[name="environment"][value="webview"]').check();
  const el = element(s.page);
  await el.pay.tap();
  await waitForText(el.status, 'Continue the payment in the app.');
  const events = await elementEvents(s.page);
  assert.deepEqual(
    events.map((event) => event.type),
    ['webview'],
  );
  const detail = events[0]!.detail as { order: unknown; endpoint: string; success_url: string; failure_url: string };
  // What the app around the page needs to take over: the order, the merchant's proxy and where to return.
  assert.match(String((detail.order as { id?: unknown }).id), /^A-1001\/[\w-]+$/);
  assert.deepEqual(Object.keys(detail.order as object), ['id']);
  assert.equal(detail.endpoint, `${suite.pg.origin}/api/pay`);
  // Absolute, like the endpoint: the app has no page to resolve a relative address against.
  assert.equal(detail.success_url, `${suite.pg.origin}/success.html`);
  assert.equal(detail.failure_url, `${suite.pg.origin}/failure.html`);
  assert.deepEqual(s.visited, [`${suite.pg.origin}/`]);
  assert.deepEqual(proxyCalls, []);
  assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 0);
  assert.deepEqual(cleanConsole(s), []);
  await s.context.close();
});

describe('pending: the sandbox keeps the payment PENDING', () => {
  for (const choice of ['check again', 'cancel payment'] as const) {
    test(`the element keeps checking, the last check runs after five minutes, then "${choice}" works`, async () => {
      const s = await shopper('desktop');
      await s.page.clock.install();
      const statusCalls: string[] = [];
      s.page.on('request', (request) => {
        if (request.url() === `${suite.pg.origin}/api/pay/status`) statusCalls.push(request.url());
      });
      const checkout = await openCheckout(s, suite.pg.origin, 'A-1002');
      const el = element(s.page);
      await el.pay.click();
      await s.page.waitForURL(suite.pg.sandbox.webPaymentUrl);
      const bookingId = await bookingIdOnProviderPage(s.page);
      await confirmOnProviderPage(s.page, '1234');
      await s.page.waitForURL(returnAddress(suite.pg.origin, `booking_id=${bookingId}&status=PENDING`));
      await waitForText(el.status, 'Waiting for the payment to be confirmed');
      assert.equal(suite.pg.sandbox.getBooking(bookingId)?.status, 'PENDING');

      // The backoff keeps asking: run the first delays and see more status checks.
      const before = statusCalls.length;
      const nextCheck = s.page.waitForRequest(`${suite.pg.origin}/api/pay/status`);
      await s.page.clock.runFor(6000);
      await nextCheck;
      await waitForText(el.status, 'Waiting for the payment to be confirmed');
      assert.ok(statusCalls.length > before, `status checks while pending: ${before} → ${statusCalls.length}`);

      await s.page.clock.fastForward('05:01');
      await el.checkAgain.waitFor();
      await waitForText(el.status, 'We have not received a final answer');
      assert.ok(await el.cancel.isVisible());
      const pendingEvents = (await elementEvents(s.page)).filter((event) => event.type === 'pending');
      assert.ok(pendingEvents.length >= 2, JSON.stringify(pendingEvents));

      if (choice === 'check again') {
        const calls = statusCalls.length;
        const answered = s.page.waitForResponse(`${suite.pg.origin}/api/pay/status`);
        await el.checkAgain.click();
        await answered;
        await el.checkAgain.waitFor();
        assert.equal(statusCalls.length, calls + 1);
        await waitForText(el.status, 'We have not received a final answer');
        assert.equal(suite.pg.sandbox.getBooking(bookingId)?.status, 'PENDING');
      } else {
        await el.cancel.click();
        await s.page.waitForURL(/\/failure\.html\?/);
        const shown = await resultPage(s.page);
        assert.deepEqual([shown.page, shown.booking, shown.status], ['failure', bookingId, 'CANCELED']);
        assert.equal(suite.pg.sandbox.getBooking(bookingId)?.status, 'CANCELED');
        assert.equal(suite.pg.records.get(bookingId)?.verified_by, 'cancel');
      }
      assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1);
      assert.deepEqual(cleanConsole(s), []);
      await s.context.close();
    });
  }
});
