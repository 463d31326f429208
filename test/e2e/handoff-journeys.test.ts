/**
 * The phone hand-off through the playground, with two browser contexts: the desktop checkout shows the
 * code; the test reads it from a screenshot, as a phone camera would, opens the decoded link in a
 * Pixel 7 context and pays there on the sandbox's wallet page; the desktop page, which follows the
 * booking by itself, lands on the result page and the merchant's server has the verified result. Also:
 * a failed MPIN, cancel on the desktop, "Use this computer instead" and an expired code.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright';
import {
  bookingsOf,
  cleanConsole,
  confirmOnProviderPage,
  openCheckout,
  openShopper,
  resultPage,
  useSuite,
  type Playground,
  type Shopper,
  type Suite,
} from './support.js';
import { readQrFromPage } from './qr-support.js';

/** The hand-off's controls on the desktop checkout (inside the element's open shadow root). */
function handoff(page: Page) {
  return {
    offer: page.getByRole('button', { name: 'Pay with the app on your phone' }),
    code: page.getByRole('img', { name: /QR code of the payment link/ }),
    status: page.locator('wallet-pay-button [part~="handoff-status"]'),
    useComputer: page.getByRole('button', { name: 'Use this computer instead' }),
    cancel: page.getByRole('button', { name: 'Cancel payment' }),
    newCode: page.getByRole('button', { name: 'Get a new code' }),
  };
}

/** Opens the desktop checkout, presses the offer and reads the code off the screen. */
async function showCode(suite: Suite, item = 'A-1001'): Promise<{ desktop: Shopper; link: string; checkout: string }> {
  const desktop = await openShopper(suite.browser, 'desktop');
  const checkout = await openCheckout(desktop, suite.pg.origin, item);
  const h = handoff(desktop.page);
  await h.offer.click();
  await h.code.waitFor();
  assert.ok(((await h.code.boundingBox())?.width ?? 0) >= 200, 'the code is at least 200 px wide');
  return { desktop, link: await readQrFromPage(desktop.page, h.code), checkout };
}

/** The sandbox booking a deeplink names. */
function bookingOf(pg: Playground, link: string) {
  const id = decodeURIComponent(new URL(link).pathname.split('/').pop()!);
  const booking = pg.sandbox.getBooking(id);
  assert.ok(booking, `the sandbox has booking ${id}`);
  return booking;
}

describe('the phone hand-off', () => {
  const suite = useSuite();

  for (const { mpin, page: expected, status, phoneSays } of [
    { mpin: '1234', page: 'success', status: 'SUCCESS', phoneSays: 'Payment complete — you can return to your computer' },
    { mpin: '0000', page: 'failure', status: 'FAILED', phoneSays: 'The payment did not go through — return to your computer to try again' },
  ] as const) {
    test(`a phone pays from the code with MPIN ${mpin}: the desktop lands on the ${expected} page`, async () => {
      const { desktop, link } = await showCode(suite);
      const booking = bookingOf(suite.pg, link);
      assert.ok(link.startsWith(`${suite.pg.sandbox.linksUrl}/pay/`), link);
      assert.equal(booking.status, 'BOOKED');
      // The kit booked it as a hand-off: the phone's way back is the phone's page, not a checkout.
      assert.equal(booking.redirect_url, `${suite.pg.origin}/phone.html`);
      assert.equal(await handoff(desktop.page).status.textContent(), 'Waiting for the payment on your phone…');

      const phone = await openShopper(suite.browser, 'pixel7');
      await phone.page.goto(link);
      await confirmOnProviderPage(phone.page, mpin);
      await phone.page.waitForURL((url) => url.pathname === '/phone.html' && url.searchParams.get('booking_id') === booking.booking_id);
      await phone.page.getByRole('heading', { name: phoneSays }).waitFor();

      await desktop.page.waitForURL(new RegExp(`/${expected}\\.html\\?`), { timeout: 20_000 });
      const shown = await resultPage(desktop.page);
      assert.deepEqual([shown.page, shown.booking, shown.status], [expected, booking.booking_id, status]);
      await suite.pg.sandbox.whenCallbacksSettled();
      assert.equal(suite.pg.records.get(booking.booking_id)?.status, status, 'the merchant verified the result');
      assert.deepEqual(cleanConsole(desktop), []);
      assert.deepEqual(cleanConsole(phone), []);
      await Promise.all([desktop.context.close(), phone.context.close()]);
    });
  }

  test('the playground links the code as a simulated phone; "Cancel payment" cancels the booking at the sandbox', async () => {
    const { desktop, link } = await showCode(suite);
    const phoneLink = desktop.page.getByRole('link', { name: "Open the code's link as a simulated phone" });
    await phoneLink.waitFor();
    assert.equal(await phoneLink.getAttribute('href'), link);
    await handoff(desktop.page).cancel.click();
    await desktop.page.waitForURL(/\/failure\.html\?/);
    const booking = bookingOf(suite.pg, link);
    assert.equal(booking.status, 'CANCELED');
    assert.equal(booking.history.at(-1)?.reason, 'cancelled_by_merchant');
    assert.deepEqual(cleanConsole(desktop), []);
    await desktop.context.close();
  });

  test('"Use this computer instead" leaves one open booking, the web one', async () => {
    const { desktop, link, checkout } = await showCode(suite, 'A-1003');
    await handoff(desktop.page).useComputer.click();
    await desktop.page.waitForURL(suite.pg.sandbox.webPaymentUrl);
    const bookings = bookingsOf(suite.pg.sandbox, checkout);
    assert.equal(bookings.length, 2);
    assert.equal(bookings[0]!.booking_id, bookingOf(suite.pg, link).booking_id);
    assert.equal(bookings[0]!.status, 'CANCELED');
    assert.deepEqual(
      bookings.filter((b) => b.status === 'BOOKED').map((b) => b.booking_id),
      [bookings[1]!.booking_id],
    );
    assert.equal(bookings[1]!.redirect_url, `${suite.pg.origin}/?checkout=${checkout}&item=A-1003`, 'the web booking comes back to the checkout, naming its order');
    assert.deepEqual(cleanConsole(desktop), []);
    await desktop.context.close();
  });

  test('the hand-off code cannot be loaded: the element says so, keeps "Pay on the web" and "Cancel payment", and "Try again" brings the code', async () => {
    const desktop = await openShopper(suite.browser, 'desktop');
    await openCheckout(desktop, suite.pg.origin, 'A-1002');
    // The hand-off's module, however the page names it (source path in development, a hashed chunk when built).
    const module = /\/(?:src\/element\/handoff\/index\.ts|handoff-[\w-]+(?:\.min)?\.js)(?:\?|$)/;
    await desktop.page.route(module, (route) => route.abort('internetdisconnected'));
    const h = handoff(desktop.page);
    await h.offer.click();
    const retry = desktop.page.getByRole('button', { name: 'Try again' });
    await retry.waitFor({ timeout: 20_000 });
    const region = desktop.page.locator('wallet-pay-button [part~="status"]').first();
    assert.match((await region.textContent()) ?? '', /\S/, 'the status region says why the code is not there');
    assert.equal(await h.code.count(), 0);
    await desktop.page.getByRole('button', { name: 'Pay on the web instead' }).waitFor();
    await h.cancel.waitFor();
    // The booking was made and stays payable: the network comes back, "Try again" shows its code.
    await desktop.page.unroute(module);
    await retry.click();
    await h.code.waitFor({ timeout: 20_000 });
    const link = await readQrFromPage(desktop.page, h.code);
    assert.equal(bookingOf(suite.pg, link).status, 'BOOKED');
    assert.equal(await retry.count(), 0, 'the way forward goes once the code is there');
    await desktop.context.close();
  });
});

describe('the phone hand-off: an expired code', () => {
  // Bookings live 3 s: the element's second check (after 2 s, then 3 s more) finds it expired.
  const suite = useSuite({ sandbox: { bookingTtlMs: 3000 } });

  test('says the code expired and offers a new one, a new booking', async () => {
    const { desktop, link } = await showCode(suite);
    const h = handoff(desktop.page);
    await h.status.filter({ hasText: 'This code has expired.' }).waitFor({ timeout: 20_000 });
    assert.equal(await h.code.count(), 0, 'the dead code is gone');
    const first = bookingOf(suite.pg, link);
    assert.equal(first.status, 'CANCELED');
    assert.equal(first.history.at(-1)?.reason, 'expired');
    await h.newCode.click();
    await h.code.waitFor();
    const next = await readQrFromPage(desktop.page, h.code);
    assert.notEqual(next, link);
    assert.equal(bookingOf(suite.pg, next).status, 'BOOKED');
    assert.deepEqual(cleanConsole(desktop), []);
    await desktop.context.close();
  });
});
