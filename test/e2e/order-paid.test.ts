/**
 * Paid, then the tab was lost: the shopper follows the shop's link to the same order in a fresh tab
 * (no sessionStorage). The element asks the real merchant kit (`POST /api/pay/order`, answered from
 * the kit's own records) before anything is pressed, and shows the order paid with no pay button.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanConsole, confirmOnProviderPage, element, openCheckout, openShopper, resultPage, useSuite, waitForText } from './support.js';

const suite = useSuite();

test('desktop: an order paid in one tab shows paid, with no pay button, in a fresh tab of the same order', async () => {
  const checkout = 'paidtab01';
  const first = await openShopper(suite.browser, 'desktop');
  await openCheckout(first, `${suite.pg.origin}/?checkout=${checkout}#`);
  await element(first.page).pay.click();
  await first.page.waitForURL(suite.pg.sandbox.webPaymentUrl);
  await confirmOnProviderPage(first.page, '1234');
  await first.page.waitForURL(/\/success\.html\?/);
  assert.equal((await resultPage(first.page)).status, 'SUCCESS');
  await first.context.close();

  // Another browser context: nothing kept from the first tab.
  const fresh = await openShopper(suite.browser, 'desktop');
  const orderRequests: string[] = [];
  fresh.page.on('request', (request) => {
    if (request.url().endsWith('/api/pay/order')) orderRequests.push(request.postData() ?? '');
  });
  await fresh.page.goto(`${suite.pg.origin}/?checkout=${checkout}`);
  const el = element(fresh.page);
  await waitForText(el.status, 'Payment received, thank you.');
  assert.equal(await el.pay.isVisible(), false);
  assert.equal(await el.host.getByRole('link', { name: 'See your order' }).getAttribute('href'), `${suite.pg.origin}/success.html`);
  assert.deepEqual(orderRequests.map((body) => JSON.parse(body) as unknown), [{ order: { id: `A-1001/${checkout}` } }]);
  assert.deepEqual(cleanConsole(fresh), []);
  await fresh.context.close();
});

test('desktop: an unpaid order in a fresh tab keeps its pay button', async () => {
  const s = await openShopper(suite.browser, 'desktop');
  const answered = s.page.waitForResponse((response) => response.url().endsWith('/api/pay/order'));
  await openCheckout(s, `${suite.pg.origin}/?checkout=unpaidtab1#`);
  const answer = (await (await answered).json()) as { data: { paid: boolean } };
  assert.equal(answer.data.paid, false);
  assert.equal(await element(s.page).pay.isVisible(), true);
  await s.context.close();
});
