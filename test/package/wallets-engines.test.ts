/**
 * A merchant taking eSewa (ePay v2) and Khalti in one handler, paid through the CDN build with
 * `wallets="esewa khalti"` in Chromium, Firefox and WebKit, on a desktop and on a phone
 * (`environment="mobile"`): "Pay with Khalti" books at Khalti (a web payment on every device: a
 * phone's app request is answered `web`), the shopper pays on Khalti's page, Khalti's return brings
 * them back to the checkout and the element's lookup through the kit routes to the success page. A
 * switch from Khalti to eSewa for the same order (back at the checkout without paying) pays on eSewa's
 * page, with the Khalti payment left open at Khalti and eSewa's the one booking paid.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { esewaEpay } from '../../src/providers/epay/adapter.js';
import { EPAY_TEST_CREDENTIALS } from '../../src/providers/epay/wire.js';
import { khalti } from '../../src/providers/khalti/adapter.js';
import { DIST, startMerchant, type Merchant } from './support.js';
import { ENGINES, WAIT, closeEngines, openEngine, within, type EnginePage } from './engines.js';
import { EPAY_LOGIN_FIELDS, KHALTI_LOGIN_FIELDS, fillAndPress, merchantPages, openFresh, press, recorded, sandboxControl, waitForAddress } from './engine-pages.js';

let merchant: Merchant;

before(async () => {
  merchant = await startMerchant({
    directories: { '/dist/': DIST },
    files: merchantPages({ attributes: 'wallets="esewa khalti"', phone: true, recorder: true }),
    providers: (sandbox) => [
      esewaEpay({ ...EPAY_TEST_CREDENTIALS, baseUrl: sandbox.baseUrl }),
      // The sandbox's access key is Khalti's secret key there; the shop's site is only checked to be a URL.
      khalti({ secretKey: sandbox.accessKey, websiteUrl: 'http://127.0.0.1/', baseUrl: sandbox.baseUrl }),
    ],
  });
});

after(async () => {
  await closeEngines();
  await merchant?.close();
});

/** Presses Khalti and waits for Khalti's pay page; answers its `pidx`. */
async function toKhalti(tab: EnginePage): Promise<string> {
  await press(tab, 'khalti');
  const prefix = `${merchant.sandbox.baseUrl}/khalti/pay/?pidx=`;
  const at = await waitForAddress(tab, (href) => href.startsWith(prefix), "Khalti's pay page");
  return new URL(at).searchParams.get('pidx') ?? '';
}

/** What the tab's book requests asked for (wallet and channel) and the element's booked events (booking and channel). */
async function bookings(tab: EnginePage): Promise<{ book: Array<[string | undefined, string]>; booked: Array<[string | undefined, string | undefined]>; errors: string[] }> {
  const { book, events, errors } = await recorded(tab);
  return {
    book: book.map((request) => [request.wallet, request.channel]),
    booked: events.filter((event) => event.type === 'booked').map((event) => [event.booking_id, event.channel]),
    errors,
  };
}

const khaltiStatus = async (pidx: string) => (await sandboxControl<{ status: string }>(merchant, `/sandbox/khalti/payments/${encodeURIComponent(pidx)}`)).status;
const epayStatus = async (uuid: string) =>
  (await sandboxControl<{ data: { status: string } }>(merchant, `/sandbox/epay/transactions/${EPAY_TEST_CREDENTIALS.productCode}/${encodeURIComponent(uuid)}`)).data.status;

const successOf = (href: string) => href.startsWith(`${merchant.origin}/success.html?`);

for (const engine of ENGINES) {
  for (const [where, path] of [['desktop', '/checkout.html'], ['phone', '/phone.html']] as const) {
    const channel = where === 'desktop' ? 'web' : 'app';

    test(`${engine}: ${where}: "Pay with Khalti" books at Khalti, pays on its page; back on the checkout, the lookup confirms and the success page follows`, async () => {
      const tab = await openEngine(engine);
      try {
        await openFresh(tab, merchant, path);
        const pidx = await toKhalti(tab);
        await fillAndPress(tab, 'form[action$="/khalti/pay/"]', KHALTI_LOGIN_FIELDS, 'button[value="pay"]', "pay on Khalti's page");
        const success = new URL(await waitForAddress(tab, successOf, 'the success page after the lookup'));
        assert.deepEqual([success.searchParams.get('booking_id'), success.searchParams.get('status')], [pidx, 'SUCCESS']);
        assert.equal(await khaltiStatus(pidx), 'Completed');
        const { book, booked, errors } = await bookings(tab);
        assert.deepEqual(book, [['khalti', channel]], 'one book, for Khalti');
        assert.deepEqual(booked, [[pidx, 'web']], 'a web payment on every device');
        assert.deepEqual(errors, []);
      } finally {
        await tab.close();
      }
    });

    test(`${engine}: ${where}: Khalti, back at the checkout without paying, then eSewa paid on its page: the success page, eSewa's the one booking paid, Khalti's left open`, async () => {
      const tab = await openEngine(engine);
      try {
        await openFresh(tab, merchant, path);
        const order = await tab.run<string>(`${WAIT}\nreturn el.getAttribute('order-id');`, "the checkout's order");
        const pidx = await toKhalti(tab);
        // Back at the checkout of the same order, as the return address names it.
        await tab.open(`${merchant.origin}${path}?order=${encodeURIComponent(order)}`);
        await press(tab, 'esewa');
        const form = `${merchant.sandbox.baseUrl}/api/epay/main/v2/form`;
        await waitForAddress(tab, (href) => href === form, "eSewa's login page (the form's POST answered)");
        await fillAndPress(tab, 'form[action$="/pay"]', EPAY_LOGIN_FIELDS, 'button.pay', 'sign in and pay on the ePay page');
        const success = new URL(await waitForAddress(tab, successOf, 'the success page after the status check'));
        const uuid = success.searchParams.get('booking_id') ?? '';
        assert.equal(success.searchParams.get('status'), 'SUCCESS');
        assert.notEqual(uuid, pidx);
        assert.equal(await epayStatus(uuid), 'COMPLETE');
        // Khalti cannot cancel: its payment stays open there, and the order was paid once, by eSewa.
        assert.equal(await khaltiStatus(pidx), 'Initiated');
        // The kit's word on the order: paid (by eSewa's booking, the one it hands out as payable).
        const answer = await within(
          fetch(`${merchant.origin}/api/pay/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: { id: order } }) }),
          5_000,
          `the kit's /order for ${order}`,
        );
        assert.deepEqual(((await answer.json()) as { data?: unknown }).data, { paid: true, status: 'SUCCESS' });
        const { book, booked, errors } = await bookings(tab);
        assert.deepEqual(book, [['khalti', channel], ['esewa', channel]]);
        assert.deepEqual(booked, [[pidx, 'web'], [uuid, 'web']]);
        assert.deepEqual(errors, []);
      } finally {
        await tab.close();
      }
    });
  }
}
