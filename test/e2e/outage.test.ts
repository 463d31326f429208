/**
 * A short outage of the shop's server while the element waits for a result, through the playground:
 * the merchant proxy's status route refuses connections for a few seconds (a restart, a Wi-Fi blink)
 * while the shopper pays. The wait goes on with its backoff, the code or panel stays with a note that
 * the shop's server is not answering, and once the proxy answers again the page reaches the success
 * page by itself, with no button pressed. One test per wait: the phone hand-off, the pending panel,
 * coming back from the app.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright';
import {
  bookingIdOnProviderPage,
  cleanConsole,
  confirmOnProviderPage,
  element,
  openCheckout,
  openShopper,
  payInWalletApp,
  resultPage,
  until,
  useSuite,
  waitForText,
} from './support.js';
import { readQrFromPage } from './qr-support.js';

const RECONNECTING = "The shop's server is not answering right now. Still waiting for your payment: reconnecting…";
/** How long the proxy stays unreachable, at least. */
const OUTAGE_MS = 2000;

/** The shop's status route, unreachable until `end()` is called; counts the checks it refused. */
async function outage(page: Page, origin: string): Promise<{ refused: () => number; end: () => Promise<void>; since: number }> {
  let refused = 0;
  const url = `${origin}/api/pay/status`;
  await page.route(url, (route) => {
    refused++;
    return route.abort('connectionrefused');
  });
  const since = Date.now();
  return {
    refused: () => refused,
    since,
    end: async () => {
      // A few seconds, and long enough for the element to have met it at least once.
      await until(() => refused > 0, 'a status check met the outage', 20_000);
      await until(() => Date.now() - since >= OUTAGE_MS, 'the outage lasted its time');
      await page.unroute(url);
    },
  };
}

describe('a short outage of the shop\'s server while the element waits', () => {
  const suite = useSuite();

  test('the phone hand-off: the code stays with the note; the phone pays; the desktop reaches the success page by itself', async () => {
    const desktop = await openShopper(suite.browser, 'desktop');
    await openCheckout(desktop, suite.pg.origin);
    const el = element(desktop.page);
    await desktop.page.getByRole('button', { name: 'Pay with the app on your phone' }).click();
    const code = desktop.page.getByRole('img', { name: /QR code of the payment link/ });
    await code.waitFor();
    const link = await readQrFromPage(desktop.page, code);
    const down = await outage(desktop.page, suite.pg.origin);
    await waitForText(el.status, RECONNECTING, 20_000);
    assert.ok(await code.isVisible(), 'the code stays while reconnecting');
    assert.equal(await el.retry.count(), 0, 'no "Try again": the wait goes on by itself');
    // The shopper pays on the phone while the shop's server is away.
    const phone = await openShopper(suite.browser, 'pixel7');
    await phone.page.goto(link);
    await confirmOnProviderPage(phone.page, '1234');
    await down.end();
    await desktop.page.waitForURL(/\/success\.html\?/, { timeout: 30_000 });
    assert.equal((await resultPage(desktop.page)).status, 'SUCCESS');
    assert.deepEqual(cleanConsole(desktop), []);
    await Promise.all([desktop.context.close(), phone.context.close()]);
  });

  test('the pending panel (back from the app before paying): the panel stays with the note; the app pays; the page reaches the success page by itself', async () => {
    const s = await openShopper(suite.browser, 'pixel7');
    await openCheckout(s, suite.pg.origin);
    await element(s.page).pay.tap();
    await s.page.waitForURL(new RegExp(`^${suite.pg.sandbox.linksUrl}/pay/BK-`));
    const bookingId = await bookingIdOnProviderPage(s.page);
    await s.page.goBack();
    const el = element(s.page);
    await waitForText(el.status, 'Waiting for the payment to be confirmed', 20_000);
    const down = await outage(s.page, suite.pg.origin);
    await waitForText(el.status, RECONNECTING, 20_000);
    assert.ok(await el.panel.isVisible(), 'the panel stays while reconnecting');
    assert.ok(await el.cancel.isVisible());
    await payInWalletApp(s.context, suite.pg.sandbox, bookingId);
    await down.end();
    await s.page.waitForURL(/\/success\.html\?/, { timeout: 30_000 });
    assert.deepEqual([(await resultPage(s.page)).booking, (await resultPage(s.page)).status], [bookingId, 'SUCCESS']);
    assert.deepEqual(cleanConsole(s), []);
    await s.context.close();
  });

  test('coming back from the app while the shop\'s server is away: no error, the note, then the success page by itself', async () => {
    const s = await openShopper(suite.browser, 'pixel7');
    await openCheckout(s, suite.pg.origin);
    await element(s.page).pay.tap();
    await s.page.waitForURL(new RegExp(`^${suite.pg.sandbox.linksUrl}/pay/BK-`));
    const bookingId = await bookingIdOnProviderPage(s.page);
    await payInWalletApp(s.context, suite.pg.sandbox, bookingId);
    const down = await outage(s.page, suite.pg.origin);
    await s.page.goBack();
    const el = element(s.page);
    await waitForText(el.status, RECONNECTING, 20_000);
    assert.equal(await el.retry.count(), 0, 'no "Try again": the wait goes on by itself');
    await down.end();
    await s.page.waitForURL(/\/success\.html\?/, { timeout: 30_000 });
    assert.deepEqual([(await resultPage(s.page)).booking, (await resultPage(s.page)).status], [bookingId, 'SUCCESS']);
    assert.ok(down.refused() > 0);
    assert.deepEqual(cleanConsole(s), []);
    await s.context.close();
  });
});
