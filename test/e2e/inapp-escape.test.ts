/**
 * The escape from someone else's in-app browser carries the payment, not the session: the playground
 * (real merchant kit, real sandbox) behind a login, as a shop whose `lookupOrder` checks the login
 * cookie answers (a book without the cookie is `IP-424`). Instagram's in-app browser on an iPhone 14,
 * signed in, books "Pay on the web"; its page comes back into view with the booking open and "Copy
 * link" gives the booking's continuation address. A fresh browser context (the phone's own browser:
 * no cookie, no storage) opens it and pays on the provider's page without booking again, and the page
 * left in the in-app browser follows the booking to its success page. The continuation of a booking
 * that was cancelled since shows the pay button, a way forward, not a broken page.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright';
import { IN_APP_USER_AGENTS } from '../fixtures/user-agents.js';
import { bookingIdOnProviderPage, bookingsOf, cleanConsole, confirmOnProviderPage, element, openShopper, resultPage, until, useSuite, type Shopper, holdWebPayment } from './support.js';
import { within } from '../support/within.js';

const suite = useSuite();
const shoppers: Shopper[] = [];
after(async () => {
  for (const s of shoppers) await s.context.close().catch(() => undefined);
});

const INSTAGRAM_IOS = IN_APP_USER_AGENTS.find((row) => row.app === 'instagram' && row.platform === 'ios')!.userAgent;
const FACEBOOK_ANDROID = IN_APP_USER_AGENTS.find((row) => row.app === 'facebook' && row.platform === 'android')!.userAgent;
const SESSION = { name: 'shop_session', value: 'signed-in' };

/**
 * The shop's login: a book without the session cookie is refused as a shop whose `lookupOrder` finds
 * no order for an anonymous shopper refuses it (`IP-424`, the kit's envelope). Status, cancel and
 * order need no session, as the kit's routes do not.
 */
async function behindLogin(context: BrowserContext): Promise<string[]> {
  const refused: string[] = [];
  await context.route(`${suite.pg.origin}/api/pay/book`, async (route) => {
    const cookie = (await route.request().headerValue('cookie')) ?? '';
    if (cookie.includes(`${SESSION.name}=${SESSION.value}`)) return route.fallback();
    refused.push(route.request().url());
    return route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ code: 'IP-424', error_message: 'No such order for this shopper.' }) });
  });
  return refused;
}

/**
 * Instagram's in-app browser, signed in, at the checkout of `checkout` (named in the address, as the
 * shop's own link would): "Pay on the web" books; the provider's page does not load in the app's
 * browser, and the page comes back into view with the booking open, showing the in-app panel.
 */
async function inAppWithBooking(checkout: string, userAgent = INSTAGRAM_IOS): Promise<{ s: Shopper; bookingId: string }> {
  const s = await openShopper(suite.browser, userAgent === INSTAGRAM_IOS ? 'iphone14' : 'pixel7', { userAgent });
  shoppers.push(s);
  await s.context.addCookies([{ ...SESSION, url: suite.pg.origin }]);
  await behindLogin(s.context);
  await s.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.pg.origin });
  await s.page.goto(`${suite.pg.origin}/?checkout=${checkout}&item=A-1001`);
  // The provider's page held: answered 204 once the press reached it, so the tab stays. The page is
  // brought back into view only after that answer, never while the press is still on its way.
  const held = await holdWebPayment(s.page, `${suite.pg.sandbox.webPaymentUrl}*`);
  const el = element(s.page);
  // The element's first render there: one button, "Pay on the web".
  await el.host.getByRole('button', { name: 'Pay on the web', exact: true }).tap({ timeout: 15_000 });
  await held.reached();
  await until(() => bookingsOf(suite.pg.sandbox, checkout).length === 1, 'the in-app browser booked');
  const [booking] = bookingsOf(suite.pg.sandbox, checkout);
  await s.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await el.host.locator('[part~="inapp"]').waitFor({ timeout: 10_000 });
  return { s, bookingId: booking!.booking_id };
}

/** "Copy link": the copied continuation address (or the one shown to copy by hand). */
async function copiedLink(s: Shopper): Promise<string> {
  const el = element(s.page);
  await el.host.getByRole('button', { name: 'Copy link' }).tap();
  await el.host.locator('.note[aria-live]').filter({ hasText: /Link copied|Copy this link/ }).waitFor({ timeout: 10_000 });
  const field = el.host.locator('[part~="copy-field"]');
  return (await field.count()) > 0 ? field.inputValue() : s.page.evaluate(() => navigator.clipboard.readText());
}

/** The phone's own browser: a fresh context, behind the same login, without its cookie. */
async function ownBrowser(profile: 'iphone14' | 'pixel7' = 'iphone14'): Promise<{ s: Shopper; refused: string[] }> {
  const s = await openShopper(suite.browser, profile);
  shoppers.push(s);
  return { s, refused: await behindLogin(s.context) };
}

describe('the escape from an in-app browser carries the payment, not the session', () => {
  test('Instagram on iPhone 14: "Copy link" opened in a fresh browser without the login pays; the in-app page follows it to the success page', async () => {
    const checkout = 'escape0001';
    const { s: inApp, bookingId } = await inAppWithBooking(checkout);
    const address = await copiedLink(inApp);
    assert.match(address, new RegExp(`^${suite.pg.origin}/\\?checkout=${checkout}&item=A-1001#wallet-pay=`));

    const { s: own, refused } = await ownBrowser();
    await own.page.goto(address);
    await own.page.waitForURL(`${suite.pg.sandbox.webPaymentUrl}*`, { timeout: 15_000 });
    assert.equal(await bookingIdOnProviderPage(own.page), bookingId, "the in-app browser's booking, not a new one");
    await confirmOnProviderPage(own.page, '1234');
    await own.page.waitForURL(/\/success\.html\?|[?&]status=SUCCESS/, { timeout: 20_000 });
    assert.equal(suite.pg.sandbox.getBooking(bookingId)?.status, 'SUCCESS');
    assert.deepEqual(refused, [], 'the fresh browser never asked to book');
    assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1, 'one booking in all');

    // The page left in the in-app browser follows its booking by itself.
    await inApp.page.waitForURL(/\/success\.html\?/, { timeout: 30_000 });
    assert.equal((await resultPage(inApp.page)).status, 'SUCCESS');
    assert.deepEqual(cleanConsole(inApp), []);
    assert.deepEqual(cleanConsole(own), []);
  });

  test('Facebook on Pixel 7: "Open in your browser" is an intent whose address, read as Android reads it, pays in a fresh browser', async () => {
    const checkout = 'escape0003';
    const { s: inApp, bookingId } = await inAppWithBooking(checkout, FACEBOOK_ANDROID);
    const href = (await element(inApp.page).host.getByRole('link', { name: 'Open in your browser' }).getAttribute('href'))!;
    // Android's Intent.parseUri: the data ends at the last '#', and `scheme=` takes the place of `intent:`.
    const last = href.lastIndexOf('#');
    assert.match(href.slice(last), /^#Intent;scheme=http;end$/, href);
    const address = `http:${href.slice('intent:'.length, last)}`;
    assert.match(address, new RegExp(`^${suite.pg.origin}/\\?checkout=${checkout}&item=A-1001#wallet-pay=`));

    const { s: own, refused } = await ownBrowser('pixel7');
    await own.page.goto(address);
    await own.page.waitForURL(`${suite.pg.sandbox.webPaymentUrl}*`, { timeout: 15_000 });
    assert.equal(await bookingIdOnProviderPage(own.page), bookingId);
    await confirmOnProviderPage(own.page, '1234');
    await inApp.page.waitForURL(/\/success\.html\?/, { timeout: 30_000 });
    assert.deepEqual(refused, []);
    assert.equal(bookingsOf(suite.pg.sandbox, checkout).length, 1);
  });

  test('the continuation of a booking cancelled since shows the pay button, a way forward', async () => {
    const checkout = 'escape0002';
    const { s: inApp, bookingId } = await inAppWithBooking(checkout);
    const address = await copiedLink(inApp);
    await element(inApp.page).cancel.tap();
    await until(() => suite.pg.sandbox.getBooking(bookingId)?.status === 'CANCELED', 'the booking is cancelled');

    const { s: own } = await ownBrowser();
    const asked = new Promise<void>((resolve) => own.page.on('response', (response) => response.url().endsWith('/api/pay/status') && resolve()));
    await own.page.goto(address);
    await within(asked, 10_000, 'the status of the continued booking to be asked');
    const el = element(own.page);
    await el.pay.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(new URL(own.page.url()).hash, '', 'the continuation left the address');
    assert.equal(own.page.url().startsWith(suite.pg.origin), true, 'still on the checkout');
    assert.equal(await el.pay.isEnabled(), true);
    const status = ((await el.status.textContent()) ?? '').trim();
    assert.doesNotMatch(status, /error|could not|went wrong/i, status);
    assert.deepEqual(cleanConsole(own), []);
  });
});
