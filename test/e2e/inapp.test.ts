/**
 * Third-party in-app browsers, as the shopper meets them: the playground (real merchant kit, real
 * sandbox) in Chromium's Pixel 7 and iPhone 14 profiles with the real user agent of each app
 * (test/fixtures/user-agents.ts names each string's public source). Pressing the button keeps the
 * shopper on the page (no script-made navigation, which there only loads an app link's web page),
 * and "Pay on the web" reaches the provider's web payment page.
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
  openCheckout,
  openShopper,
  payInWalletApp,
  resultPage,
  until,
  useSuite,
  waitForText,
  type Shopper,
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
    payWeb: host.getByRole('button', { name: 'Pay on the web', exact: true }),
    openApp: host.getByRole('link', { name: 'Open the wallet app' }),
    browser: host.locator('[part~="open-browser"], [part~="copy-link"]'),
  };
}

describe('in each known in-app browser, the shopper stays on the page and "Pay on the web" reaches the payment page', () => {
  for (const { app, platform, userAgent, source } of CASES) {
    test(`${app} on ${platform === 'android' ? 'Pixel 7' : 'iPhone 14'} (${source})`, async () => {
      const s = await inAppShopper(platform, userAgent);
      const checkout = await openCheckout(s, suite.pg.origin);
      const el = element(s.page);
      const ui = inApp(s);
      await el.pay.tap();
      await ui.panel.waitFor();
      await waitForText(el.status, 'Pay in the wallet app or on the web.');
      // Still on the checkout: nothing navigated by script, no code for a phone.
      assert.deepEqual(s.visited, [`${suite.pg.origin}/`]);
      assert.equal(await el.host.locator('[part~="pay-on-phone"], [part~="qr"]').count(), 0);
      const [booking] = bookingsOf(suite.pg.sandbox, checkout);
      assert.ok(booking, 'an app booking was made');
      // A real link to the booking's deeplink, for a real tap.
      assert.equal(await ui.openApp.evaluate((a) => `${a.tagName} ${a.getAttribute('href')}`), `A ${suite.pg.sandbox.linksUrl}/pay/${booking.booking_id}`);
      assert.equal(await ui.browser.count(), 1);
      // Booked and followed, never a navigation (nor a hand-off to a host app that is not there to take it).
      const types = (await elementEvents(s.page)).map((event) => event.type);
      assert.equal(types[0], 'booked');
      assert.ok(!types.includes('navigate') && !types.includes('webview'), types.join(' '));

      await ui.payWeb.tap();
      await s.page.waitForURL(suite.pg.sandbox.webPaymentUrl);
      const webBooking = await bookingIdOnProviderPage(s.page);
      // The app booking was cancelled first: it can never be paid as well.
      assert.equal(suite.pg.sandbox.getBooking(booking.booking_id)?.status, 'CANCELED');
      assert.notEqual(webBooking, booking.booking_id);
      assert.deepEqual(cleanConsole(s), []);
      await s.context.close();
    });
  }
});

test('Instagram on Pixel 7: paid in the wallet app (back in another browser), the page left in the in-app browser follows by itself', async () => {
  const row = IN_APP_USER_AGENTS.find((r) => r.app === 'instagram' && r.platform === 'android')!;
  const s = await inAppShopper('android', row.userAgent);
  const checkout = await openCheckout(s, suite.pg.origin);
  const el = element(s.page);
  await el.pay.tap();
  await inApp(s).panel.waitFor();
  const [booking] = bookingsOf(suite.pg.sandbox, checkout);
  await payInWalletApp(s.context, suite.pg.sandbox, booking!.booking_id);
  await s.page.waitForURL(/\/success\.html\?/, { timeout: 20_000 });
  assert.equal((await resultPage(s.page)).status, 'SUCCESS');
  assert.deepEqual(cleanConsole(s), []);
  await s.context.close();
});

test('TikTok on iPhone 14: tapping the real link to the deeplink opens the wallet page, which pays', async () => {
  const row = IN_APP_USER_AGENTS.find((r) => r.app === 'tiktok' && r.platform === 'ios')!;
  const s = await inAppShopper('ios', row.userAgent);
  await openCheckout(s, suite.pg.origin);
  await element(s.page).pay.tap();
  const link = inApp(s).openApp;
  await link.waitFor();
  const href = await link.getAttribute('href');
  await link.tap();
  await s.page.waitForURL(href!);
  const bookingId = await bookingIdOnProviderPage(s.page);
  await confirmOnProviderPage(s.page, '1234');
  await s.page.waitForURL(/\/success\.html\?/);
  assert.equal((await resultPage(s.page)).status, 'SUCCESS');
  await until(() => suite.pg.sandbox.getBooking(bookingId)?.status === 'SUCCESS', 'the sandbox records the payment');
  await s.context.close();
});
