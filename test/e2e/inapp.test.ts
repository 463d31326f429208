/**
 * Third-party in-app browsers, as the shopper meets them: the playground (real merchant kit, real
 * sandbox) in Chromium's Pixel 7 and iPhone 14 profiles with the real user agent of each app
 * (test/fixtures/user-agents.ts names each string's public source). The button reads "Pay on the web"
 * from the start, with nothing under it; one press books the web channel and goes to the provider's web
 * payment page (a form, never a script-made navigation to an app link, which there only loads its web
 * page). Back on the page with that booking still open, the other ways show under the button, which
 * goes on with the same booking.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { IN_APP_USER_AGENTS } from '../fixtures/user-agents.js';
import {
  bookingIdOnProviderPage,
  bookingsOf,
  cleanConsole,
  confirmOnProviderPage,
  element,
  elementEvents,
  openInAppCheckout,
  openShopper,
  payInWalletApp,
  payOnTheWeb,
  resultPage,
  until,
  useSuite,
  waitForText,
  type Shopper,
  holdWebPayment,
} from './support.js';

const suite = useSuite();
const shoppers: Shopper[] = [];
after(async () => {
  for (const s of shoppers) await s.context.close().catch(() => undefined);
});

/** One user agent per app and platform: the first listed. */
const CASES = IN_APP_USER_AGENTS.filter((row, index, rows) => rows.findIndex((other) => other.app === row.app && other.platform === row.platform) === index);

async function inAppShopper(platform: 'android' | 'ios', userAgent: string): Promise<Shopper> {
  const s = await openShopper(suite.browser, platform === 'android' ? 'pixel7' : 'iphone14', { userAgent });
  shoppers.push(s);
  return s;
}

function inApp(s: Shopper) {
  const host = element(s.page).host;
  return {
    panel: host.locator('[part~="inapp"]'),
    caption: host.locator('[part~="inapp"] #inapp-label'),
    payWeb: payOnTheWeb(s.page),
    openApp: host.getByRole('link', { name: 'Open the wallet app' }),
    browser: host.locator('[part~="open-browser"], [part~="copy-link"]'),
    cancel: host.getByRole('button', { name: 'Cancel payment' }),
  };
}

/**
 * Presses "Pay on the web" with the provider's page held (answered 204, so the tab stays, as when the
 * shopper comes back from it unpaid), then brings the page back into view: the booking is still open
 * and the in-app panel shows. Returns the booking.
 */
async function pressedAndBack(s: Shopper, checkout: string): Promise<string> {
  const held = await holdWebPayment(s.page, `${suite.pg.sandbox.webPaymentUrl}*`);
  await inApp(s).payWeb.tap();
  await held.reached();
  await held.release();
  assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1, 'the press booked once');
  await s.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await inApp(s).panel.waitFor({ timeout: 10_000 });
  return bookingsOf(suite.pg.sandbox, checkout)[0]!.booking_id;
}

describe('in each known in-app browser, the shopper stays on the page and "Pay on the web" reaches the payment page', () => {
  for (const { app, platform, userAgent, source } of CASES) {
    test(`${app} on ${platform === 'android' ? 'Pixel 7' : 'iPhone 14'} (${source})`, async () => {
      const s = await inAppShopper(platform, userAgent);
      const checkout = await openInAppCheckout(s, suite.pg.origin);
      const el = element(s.page);
      const ui = inApp(s);
      // Before a booking: the one button, nothing under it (no control that does nothing), no code for a phone.
      assert.equal(await el.host.locator('button:visible').count(), 1);
      assert.equal(await ui.panel.count(), 0);
      assert.equal(await el.host.locator('[part~="pay-on-phone"], [part~="qr"]').count(), 0);

      const bookingId = await pressedAndBack(s, checkout);
      await waitForText(el.status, 'Pay in the wallet app or on the web.');
      assert.equal(((await ui.caption.textContent()) ?? '').trim(), 'Other ways to pay');
      // Still on the checkout: the web payment was a form to the provider's page, never an app link by script.
      assert.deepEqual(s.visited, [`${suite.pg.origin}/`]);
      assert.equal(await el.host.locator('[part~="pay-on-phone"], [part~="qr"]').count(), 0);
      const booking = suite.pg.sandbox.getBooking(bookingId);
      // Kept open for its other ways, not cancelled on the way back.
      assert.equal(booking?.status, 'BOOKED');
      // A web booking has no deeplink: no link to the app, never a dead one; one way to the phone's own browser.
      assert.equal(await ui.openApp.count(), 0);
      assert.equal(await ui.browser.count(), 1);
      assert.equal(await ui.cancel.count(), 1);
      // Booked on the web and followed to its payment (nor a hand-off to a host app that is not there to take it).
      const events = await elementEvents(s.page);
      const types = events.map((event) => event.type);
      assert.equal(types[0], 'booked');
      assert.equal(events[0]!.detail?.['channel'], 'web');
      assert.deepEqual(
        events.filter((event) => event.type === 'navigate').map((event) => [event.detail?.['reason'], event.detail?.['booking_id']]),
        [['web-payment', bookingId]],
      );
      assert.ok(!types.includes('webview'), types.join(' '));

      // The button goes on with the same booking: its web payment, never a second booking.
      await ui.payWeb.tap();
      await s.page.waitForURL(`${suite.pg.sandbox.webPaymentUrl}*`, { timeout: 15_000 });
      assert.equal(await bookingIdOnProviderPage(s.page), bookingId);
      assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1, 'one booking in all');
      assert.deepEqual(cleanConsole(s), []);
      await s.context.close();
    });
  }
});

test('Instagram on Pixel 7: paid in the wallet app (back in another browser), the page left in the in-app browser follows by itself', async () => {
  const row = IN_APP_USER_AGENTS.find((r) => r.app === 'instagram' && r.platform === 'android')!;
  const s = await inAppShopper('android', row.userAgent);
  const checkout = await openInAppCheckout(s, suite.pg.origin);
  const bookingId = await pressedAndBack(s, checkout);
  await payInWalletApp(s.context, suite.pg.sandbox, bookingId);
  await s.page.waitForURL(/\/success\.html\?/, { timeout: 20_000 });
  assert.equal((await resultPage(s.page)).status, 'SUCCESS');
  assert.deepEqual(cleanConsole(s), []);
  await s.context.close();
});

test('TikTok on iPhone 14: tapping the real link out of the app ("Open in your browser") opens the payment in Safari, which pays', async () => {
  const row = IN_APP_USER_AGENTS.find((r) => r.app === 'tiktok' && r.platform === 'ios')!;
  const s = await inAppShopper('ios', row.userAgent);
  const checkout = await openInAppCheckout(s, suite.pg.origin);
  const bookingId = await pressedAndBack(s, checkout);
  // A real link (the shopper's tap leaves the app; a script's navigation would not), to Safari by its scheme.
  const link = element(s.page).host.getByRole('link', { name: 'Open in your browser' });
  const href = (await link.getAttribute('href'))!;
  assert.match(href, /^x-safari-http:\/\//, href);
  const address = href.slice('x-safari-'.length);
  // The page's own address (the checkout, not in the address here) and the booking's continuation.
  assert.ok(address.startsWith(`${s.page.url().split('#')[0]}#wallet-pay=`), address);

  // Safari: a fresh context (no cookie, no storage) opens the address and pays the same booking.
  const safari = await openShopper(suite.browser, 'iphone14');
  shoppers.push(safari);
  await safari.page.goto(address);
  await safari.page.waitForURL(`${suite.pg.sandbox.webPaymentUrl}*`, { timeout: 15_000 });
  assert.equal(await bookingIdOnProviderPage(safari.page), bookingId);
  await confirmOnProviderPage(safari.page, '1234');
  await until(() => suite.pg.sandbox.getBooking(bookingId)?.status === 'SUCCESS', 'the sandbox records the payment', 20_000);
  assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1, 'one booking in all');
  // The page left in TikTok follows the booking to its success page.
  await s.page.waitForURL(/\/success\.html\?/, { timeout: 30_000 });
  assert.equal((await resultPage(s.page)).status, 'SUCCESS');
  assert.deepEqual(cleanConsole(safari), []);
  await s.context.close();
});
