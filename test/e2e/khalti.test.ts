/**
 * Khalti (KPG-2) through the playground's two-wallet checkout (`?web=epay`: the `/api/pay-epay`
 * handler lists ePay v2, Khalti and the intent service, the element shows "Pay with eSewa" and "Pay
 * with Khalti") in Chromium, on a desktop, a Pixel 7 and an iPhone 14. Khalti is paid on its web page
 * on every device: the shopper pays or cancels there, comes back to the checkout, and the element's
 * status check (a lookup through the kit: Khalti's return is unsigned) routes to the result page. A
 * switch from Khalti to eSewa leaves the Khalti booking open at Khalti (it cannot cancel) but
 * superseded: eSewa's payment pays the order, and the stale Khalti page paid afterwards reaches the
 * merchant as a duplicate.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { payOnPage } from '../../src/testing/pay-on-page.js';
import {
  bookingsOf,
  cleanConsole,
  element,
  elementEvents,
  khaltiPayment,
  onKhaltiPage,
  openCheckout,
  openShopper,
  resultPage,
  returnAddress,
  until,
  useSuite,
  type ProfileName,
  type Shopper,
} from './support.js';

const suite = useSuite();
const shoppers: Shopper[] = [];
after(async () => {
  for (const s of shoppers) await s.context.close().catch(() => undefined);
});

const WEB_EPAY = '?web=epay';
const PROFILES: ProfileName[] = ['desktop', 'pixel7', 'iphone14'];
/** Each shopper's calls to the two-wallet endpoint (`book`, `status`, `cancel`), in order. */
const proxyCalls = new Map<Shopper, string[]>();
/** Each shopper's book requests: the wallet and channel asked for. */
const bookRequests = new Map<Shopper, Array<[unknown, unknown]>>();

async function shopper(profile: ProfileName): Promise<Shopper> {
  const s = await openShopper(suite.browser, profile);
  shoppers.push(s);
  const calls: string[] = [];
  const books: Array<[unknown, unknown]> = [];
  proxyCalls.set(s, calls);
  bookRequests.set(s, books);
  s.page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/pay-epay/') && !path.endsWith('/order')) calls.push(path.slice('/api/pay-epay/'.length));
    if (path === '/api/pay-epay/book') {
      const body = request.postDataJSON() as { wallet?: unknown; channel?: unknown } | null;
      books.push([body?.wallet, body?.channel]);
    }
  });
  return s;
}

/**
 * Waits up to 15 s for the result page `name`; on time out, fails with where the tab is, what the
 * element's status region says, its events and the endpoint calls.
 */
async function waitForResultPage(s: Shopper, name: 'success' | 'failure'): Promise<void> {
  try {
    await s.page.waitForURL(new RegExp(`/${name}\\.html\\?`), { timeout: 15_000 });
  } catch (error) {
    const status = await element(s.page).status.textContent({ timeout: 1_000 }).catch(() => '(no status region)');
    const events = (await elementEvents(s.page).catch(() => [])).map((event) => event.type);
    throw new Error(
      `the ${name} page within 15 s; the tab is at ${s.page.url()}, its status says ${JSON.stringify(status?.trim())}, ` +
        `the element fired ${events.join(', ') || 'nothing'} and called ${proxyCalls.get(s)?.join(', ') || 'nothing'}`,
      { cause: error },
    );
  }
}

/** Every result the merchant was handed for this checkout's orders, as `[booking, status, duplicate]`. */
function deliveriesOf(checkout: string): Array<[string | undefined, string, boolean]> {
  return suite.pg.deliveries
    .filter((result) => String(result.order?.id ?? '').endsWith(`/${checkout}`))
    .map((result) => [result.booking_id, result.status, result.duplicate === true]);
}

/** The `booked` events of the tab: each booking's id and channel. */
async function bookedIn(s: Shopper): Promise<Array<[unknown, unknown]>> {
  return (await elementEvents(s.page)).filter((event) => event.type === 'booked').map((event) => [event.detail?.booking_id, event.detail?.channel]);
}

/** Waits (up to 10 s) for the tab to leave the merchant for one of the sandbox's pages; fails naming where it is. */
async function leftForSandbox(s: Shopper): Promise<void> {
  const { baseUrl, linksUrl } = suite.pg.sandbox;
  try {
    await s.page.waitForURL((url) => url.href.startsWith(baseUrl) || url.href.startsWith(linksUrl), { timeout: 10_000 });
  } catch (error) {
    const status = await element(s.page).status.textContent({ timeout: 1_000 }).catch(() => '(no status region)');
    throw new Error(`a sandbox payment page within 10 s; the tab is at ${s.page.url()}, its status says ${JSON.stringify(status?.trim())}, calls ${proxyCalls.get(s)?.join(', ')}`, { cause: error });
  }
}

/** Presses "Pay with Khalti" on the checkout and waits for Khalti's pay page. */
async function pressKhalti(s: Shopper): Promise<{ url: string; pidx: string }> {
  await element(s.page).payWith('Khalti').click();
  return onKhaltiPage(s.page, suite.pg.sandbox);
}

/**
 * Presses Khalti, comes back by the browser's back button without paying, presses eSewa and pays
 * (ePay's page on a desktop, the intent service's wallet page on a phone, whose eSewa is its app),
 * ending on the success page. Asserts one order paid, by eSewa, and the Khalti booking still
 * `Initiated` at Khalti and never delivered as paid.
 *
 * The back button's return asks /cancel: Khalti has no cancel, so the kit answers CANCELED and keeps
 * the booking open (the payment stays payable at Khalti); reconcile and /order look it up until Khalti
 * ends it, and a payment of the stale page is delivered as the duplicate it is.
 */
async function switchKhaltiToEsewa(s: Shopper): Promise<{ checkout: string; stale: { url: string; pidx: string }; paid: string }> {
  const checkout = await openCheckout(s, suite.pg.origin, 'A-1001', WEB_EPAY);
  const stale = await pressKhalti(s);
  await s.page.goBack({ timeout: 10_000 });
  await element(s.page).payWith('eSewa').click({ timeout: 10_000 });
  await leftForSandbox(s);
  const paidOn = await payOnPage(s.page, undefined, { within: 10_000 });
  await waitForResultPage(s, 'success');
  const shown = await resultPage(s.page);
  assert.equal(shown.status, 'SUCCESS');
  assert.notEqual(shown.booking, stale.pidx);
  const booked = await bookedIn(s);
  assert.deepEqual([booked.length, booked[0], booked[1]?.[0]], [2, [stale.pidx, 'web'], shown.booking], `eSewa's booking paid on ${paidOn.page}: ${JSON.stringify(booked)}`);
  assert.deepEqual(bookRequests.get(s)?.map(([wallet]) => wallet), ['khalti', 'esewa']);
  assert.deepEqual(
    deliveriesOf(checkout),
    [[shown.booking, 'SUCCESS', false]],
    'one order paid, by eSewa; the Khalti booking the back button left stays open (Khalti cannot cancel it), not delivered',
  );
  assert.equal(suite.pg.records.get(shown.booking)?.status, 'SUCCESS');
  // Khalti cannot cancel: the booking stays open there.
  assert.equal((await khaltiPayment(suite.pg.sandbox, stale.pidx)).status, 'Initiated');
  return { checkout, stale, paid: shown.booking };
}

for (const profile of PROFILES) {
  describe(`${profile} with ?web=epay: Khalti's pay page`, () => {
    test('"Pay with Khalti" pays on Khalti\'s page: back at the checkout, the success page, the merchant\'s record SUCCESS, one Khalti booking', async () => {
      const s = await shopper(profile);
      const checkout = await openCheckout(s, suite.pg.origin, 'A-1001', WEB_EPAY);
      const { pidx } = await pressKhalti(s);
      assert.equal((await khaltiPayment(suite.pg.sandbox, pidx)).status, 'Initiated', 'open at Khalti before the shopper pays');
      await payOnPage(s.page, undefined, { within: 10_000 });
      await waitForResultPage(s, 'success');
      const shown = await resultPage(s.page);
      assert.deepEqual([shown.page, shown.booking, shown.status], ['success', pidx, 'SUCCESS']);
      // Khalti's unsigned return: the checkout's address with Khalti's parameters appended.
      assert.ok(s.visited.some((url) => returnAddress(suite.pg.origin, `pidx=${pidx}&`, false).test(url)), s.visited.join('\n'));
      const record = suite.pg.records.get(pidx);
      assert.deepEqual([record?.status, record?.order_id], ['SUCCESS', `A-1001/${checkout}`]);
      assert.deepEqual(deliveriesOf(checkout), [[pidx, 'SUCCESS', false]]);
      // Khalti is a web payment on every device: a phone's app request is answered a web booking.
      assert.deepEqual(await bookedIn(s), [[pidx, 'web']]);
      assert.deepEqual(bookRequests.get(s), [['khalti', profile === 'desktop' ? 'web' : 'app']], 'one book, for Khalti');
      assert.equal((await khaltiPayment(suite.pg.sandbox, pidx)).status, 'Completed');
      assert.deepEqual(bookingsOf(suite.pg.sandbox, checkout), [], 'nothing booked at the intent service');
      assert.deepEqual(cleanConsole(s), []);
    });

    test('Cancel on Khalti\'s page ends on the failure page with CANCELED', async () => {
      const s = await shopper(profile);
      const checkout = await openCheckout(s, suite.pg.origin, 'A-1001', WEB_EPAY);
      const { pidx } = await pressKhalti(s);
      await payOnPage(s.page, undefined, { action: 'cancel', within: 10_000 });
      await waitForResultPage(s, 'failure');
      const shown = await resultPage(s.page);
      assert.deepEqual([shown.page, shown.booking, shown.status], ['failure', pidx, 'CANCELED']);
      assert.equal(suite.pg.records.get(pidx)?.status, 'CANCELED');
      assert.deepEqual(deliveriesOf(checkout), [[pidx, 'CANCELED', false]]);
      assert.equal((await khaltiPayment(suite.pg.sandbox, pidx)).status, 'User canceled');
      assert.deepEqual(cleanConsole(s), []);
    });

    test('Khalti, back without paying, then eSewa paid: one order paid, by eSewa; the Khalti booking left open at Khalti and not delivered as paid', async () => {
      const s = await shopper(profile);
      await switchKhaltiToEsewa(s);
      assert.deepEqual(cleanConsole(s), []);
    });

    test('the stale Khalti page, kept by its address and paid after the order was paid by eSewa, reaches the merchant as a duplicate', async () => {
      const s = await shopper(profile);
      const { checkout, stale, paid } = await switchKhaltiToEsewa(s);
      await payOnPage(s.page, stale.url, { within: 10_000 });
      assert.equal((await khaltiPayment(suite.pg.sandbox, stale.pidx)).status, 'Completed');
      // Khalti's return comes back to the checkout (its address names the order, and Khalti adds pidx).
      await s.page.waitForURL(returnAddress(suite.pg.origin, `pidx=${stale.pidx}&`, false), { timeout: 10_000 });
      // That tab shows the order paid from its own storage and asks nothing: the merchant's reconcile,
      // which looks up a superseded Khalti booking until it expires, finds the payment (here at once).
      await suite.pg.reconcile({ olderThanMs: 0, recheckAfterMs: 0 });
      await until(
        () => deliveriesOf(checkout).some(([booking, status]) => booking === stale.pidx && status === 'SUCCESS'),
        `the merchant to be handed the stale Khalti payment ${stale.pidx} (Completed at Khalti); it got ${JSON.stringify(deliveriesOf(checkout))}, ` +
          `and the tab called ${proxyCalls.get(s)?.join(', ')} (the return's /order not counted)`,
        10_000,
      );
      assert.deepEqual(deliveriesOf(checkout), [
        [paid, 'SUCCESS', false],
        [stale.pidx, 'SUCCESS', true],
      ]);
      assert.equal(suite.pg.deliveries.find((result) => result.booking_id === stale.pidx && result.status === 'SUCCESS')?.duplicate_of, paid);
      assert.deepEqual(cleanConsole(s), []);
    });
  });
}
