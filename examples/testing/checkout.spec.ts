/** The sandbox as a Playwright test bench: pay on its page, then wait for the callback, or for none. */
import { test as base, expect } from '@playwright/test';
import { walletPayFixtures, type WalletPayFixtures } from 'wallet-pay-button/testing';
import { startShop } from './shop.js';

const test = base.extend<WalletPayFixtures>(walletPayFixtures);
const session = 'test-session-1';

/** What the element sends on the shopper's press: POST /book, with the shopper's cookie. */
async function book(endpoint: string, orderId: string) {
  const answer = await fetch(`${endpoint}/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), cookie: `session=${session}` },
    body: JSON.stringify({ channel: 'app', order: { id: orderId } }),
  });
  return ((await answer.json()) as { data: { booking_id: string; deeplink: string } }).data;
}

test('paid on the wallet page: the shop hears of it', async ({ walletPaySandbox, payOnPage, expectCallback }) => {
  const shop = await startShop({ serviceUrl: walletPaySandbox.baseUrl, sessions: [session] });
  try {
    const { booking_id, deeplink } = await book(shop.endpoint, 'order-1');
    const landed = await payOnPage(deeplink);
    expect(landed.url).toContain('status=SUCCESS');
    await expectCallback(booking_id, { status: 'SUCCESS', within: '10s' });
    expect(shop.results.map((result) => result.status)).toEqual(['SUCCESS']);
  } finally {
    await shop.close();
  }
});

test('the callback is lost: none within 2 s', async ({ walletPaySandbox, payOnPage, expectCallback }) => {
  const shop = await startShop({ serviceUrl: walletPaySandbox.baseUrl, sessions: [session] });
  try {
    const { booking_id, deeplink } = await book(shop.endpoint, 'order-2');
    await payOnPage(deeplink, { scenario: 'WPS-007' }); // SUCCESS, and no callback ever
    await expectCallback(booking_id, { count: 0, within: '2s' }); // fails as soon as one comes
    expect(shop.results).toEqual([]);
  } finally {
    await shop.close();
  }
});
