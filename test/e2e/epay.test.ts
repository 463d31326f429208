/**
 * eSewa's web checkout (ePay v2) through the playground in Chromium: the checkout with `?web=epay`
 * books on the handler that lists ePay first, the element posts the signed form to the sandbox's ePay
 * page, the shopper signs in there and pays, fails or cancels, comes back to the checkout, and the
 * element's status check (eSewa's, through the kit) routes to the success or failure page. The phone
 * of a merchant with ePay only is in test/package/epay-engines.test.ts: the playground's handler lists
 * the intent service too, whose app channel a phone takes.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EPAY_LOGIN,
  bookingsOf,
  cleanConsole,
  element,
  elementEvents,
  epayTransactions,
  openCheckout,
  openShopper,
  resultPage,
  signInOnEpayPage,
  transactionOnEpayPage,
  type Shopper,
  useSuite,
  returnAddress,
} from './support.js';

const suite = useSuite();
const shoppers: Shopper[] = [];
after(async () => {
  for (const s of shoppers) await s.context.close().catch(() => undefined);
});

const WEB_EPAY = '?web=epay';
/** Each shopper's calls to the ePay-first endpoint (`book`, `status`, `cancel`), in order. */
const proxyCalls = new Map<Shopper, string[]>();
/** The ePay form's address on the sandbox: the POST answers the login page there. */
const formUrl = () => `${suite.pg.sandbox.baseUrl}/api/epay/main/v2/form`;

async function shopper(...args: Parameters<typeof openShopper> extends [unknown, ...infer Rest] ? Rest : never): Promise<Shopper> {
  const s = await openShopper(suite.browser, ...args);
  shoppers.push(s);
  const calls: string[] = [];
  proxyCalls.set(s, calls);
  s.page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/pay-epay/') && !path.endsWith('/order')) calls.push(path.slice('/api/pay-epay/'.length));
  });
  return s;
}

/**
 * One booking for the checkout: one `booked` event, naming the ePay transaction the page showed; no
 * booking at the intent service; the sandbox holds that transaction once, with `status`.
 */
async function assertOneEpayBooking(s: Shopper, checkout: string, uuid: string, status: string): Promise<void> {
  const booked = (await elementEvents(s.page)).filter((event) => event.type === 'booked');
  assert.deepEqual(
    booked.map((event) => event.detail?.booking_id),
    [uuid],
    JSON.stringify(booked),
  );
  assert.deepEqual(bookingsOf(suite.pg.sandbox, checkout), [], 'nothing booked at the intent service');
  const transactions = (await epayTransactions(suite.pg.sandbox)).filter((transaction) => transaction.transaction_uuid === uuid);
  assert.deepEqual(
    transactions.map((transaction) => [transaction.product_code, transaction.status]),
    [['EPAYTEST', status]],
  );
}

/**
 * Waits up to 15 s for the result page `name`; on time out, fails with where the tab is, what the
 * element's status region says and the element's events, so a checkout stuck after the return says why.
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

/** Every result the merchant was handed for this checkout's orders, as `[booking, status]`. */
function deliveriesOf(checkout: string): Array<[string | undefined, string]> {
  return suite.pg.deliveries.filter((result) => String(result.order?.id ?? '').endsWith(`/${checkout}`)).map((result) => [result.booking_id, result.status]);
}

describe('desktop with ?web=epay: eSewa\'s login page', () => {
  test('signs in and pays: back at the checkout with eSewa\'s ?data=, verified, the success page, the merchant\'s record SUCCESS', async () => {
    const s = await shopper('desktop');
    const checkout = await openCheckout(s, suite.pg.origin, 'A-1001', WEB_EPAY);
    assert.equal(await element(s.page).host.getAttribute('endpoint'), '/api/pay-epay');
    await element(s.page).pay.click();
    await s.page.waitForURL(formUrl(), { timeout: 10_000 });
    const uuid = await transactionOnEpayPage(s.page);
    await signInOnEpayPage(s.page);
    await waitForResultPage(s, 'success');
    const shown = await resultPage(s.page);
    assert.deepEqual([shown.page, shown.booking, shown.status], ['success', uuid, 'SUCCESS']);
    // eSewa glues its signed data onto the return address, after the kit's booking_id.
    const back = s.visited.find((url) => returnAddress(suite.pg.origin, `booking_id=${uuid}?data=`, false).test(url));
    assert.ok(back, s.visited.join('\n'));
    const record = suite.pg.records.get(uuid);
    assert.deepEqual([record?.status, record?.order_id, record?.verified_by], ['SUCCESS', `A-1001/${checkout}`, 'status-check']);
    assert.deepEqual(deliveriesOf(checkout), [[uuid, 'SUCCESS']]);
    await assertOneEpayBooking(s, checkout, uuid, 'COMPLETE');
    assert.deepEqual(cleanConsole(s), []);
  });

  // eSewa's status check reads a failed payment as NOT_FOUND (still BOOKED to the kit within the
  // session's lifetime); its failure redirect names the booking, which tells the element the payment
  // ended there, so the shopper goes on to the failure page.
  test('a wrong password is refused on the page; "Fail the payment" then ends on the failure page', async () => {
    const s = await shopper('desktop');
    const checkout = await openCheckout(s, suite.pg.origin, 'A-1001', WEB_EPAY);
    await element(s.page).pay.click();
    await s.page.waitForURL(formUrl(), { timeout: 10_000 });
    const uuid = await transactionOnEpayPage(s.page);
    await signInOnEpayPage(s.page, { ...EPAY_LOGIN, password: 'nepal@123' });
    await s.page.getByRole('alert').filter({ hasText: 'Wrong eSewa ID, password or token' }).waitFor({ timeout: 10_000 });
    await s.page.getByRole('button', { name: 'Fail the payment' }).click();
    await waitForResultPage(s, 'failure');
    const shown = await resultPage(s.page);
    assert.deepEqual([shown.page, shown.booking], ['failure', uuid]);
    assert.notEqual(shown.status, 'SUCCESS');
    assert.ok(s.visited.some((url) => returnAddress(suite.pg.origin, `booking_id=${uuid}`).test(url)), s.visited.join('\n'));
    // eSewa cannot cancel: the booking stays open at the kit until eSewa's session ends (reconcile then
    // delivers its CANCELED); nothing was paid.
    assert.notEqual(suite.pg.records.get(uuid)?.status, 'SUCCESS');
    await s.page.locator('#status', { hasText: 'not paid' }).waitFor({ timeout: 5_000 });
    await assertOneEpayBooking(s, checkout, uuid, 'NOT_FOUND');
    // The one console line is eSewa's page refusing the wrong password (HTTP 422), as it should.
    assert.deepEqual(cleanConsole(s).filter((line) => !/422 \(Unprocessable Entity\) \(http:\/\/127\.0\.0\.1:\d+\/epay\/session\//.test(line)), []);
  });

  test('Cancel on eSewa\'s page ends on the failure page with CANCELED', async () => {
    const s = await shopper('desktop');
    const checkout = await openCheckout(s, suite.pg.origin, 'A-1001', WEB_EPAY);
    await element(s.page).pay.click();
    await s.page.waitForURL(formUrl(), { timeout: 10_000 });
    const uuid = await transactionOnEpayPage(s.page);
    await s.page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await waitForResultPage(s, 'failure');
    const shown = await resultPage(s.page);
    assert.deepEqual([shown.page, shown.booking, shown.status], ['failure', uuid, 'CANCELED']);
    assert.equal(suite.pg.records.get(uuid)?.status, 'CANCELED');
    assert.deepEqual(deliveriesOf(checkout), [[uuid, 'CANCELED']]);
    await assertOneEpayBooking(s, checkout, uuid, 'CANCELED');
    assert.deepEqual(cleanConsole(s), []);
  });
});

test('a third-party in-app browser (environment inapp) with ?web=epay: one tap on eSewa\'s button is eSewa\'s page, which pays', async () => {
  const s = await shopper('pixel7');
  const checkout = await openCheckout(s, suite.pg.origin, 'A-1001', WEB_EPAY);
  await s.page.locator('input[name="environment"][value="inapp"]').check();
  const el = element(s.page);
  // The checkout offers two wallets here, each a web page inside someone else's in-app browser: one tap
  // on eSewa's button goes to eSewa's page, with no app booking made first.
  await el.host.getByRole('button', { name: 'Pay with eSewa', exact: true }).tap({ timeout: 10_000 });
  await s.page.waitForURL(formUrl(), { timeout: 10_000 });
  const uuid = await transactionOnEpayPage(s.page);
  assert.deepEqual(bookingsOf(suite.pg.sandbox, checkout), [], 'no booking at the intent service');
  await signInOnEpayPage(s.page);
  await waitForResultPage(s, 'success');
  const shown = await resultPage(s.page);
  assert.deepEqual([shown.page, shown.booking, shown.status], ['success', uuid, 'SUCCESS']);
  assert.equal(suite.pg.records.get(uuid)?.status, 'SUCCESS');
  assert.deepEqual(
    (await epayTransactions(suite.pg.sandbox)).filter((transaction) => transaction.transaction_uuid === uuid).map((transaction) => transaction.status),
    ['COMPLETE'],
  );
  assert.deepEqual(cleanConsole(s), []);
});
