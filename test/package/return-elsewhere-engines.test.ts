/**
 * The way back in another browser, through the CDN build in Chromium, Firefox and WebKit: the shopper
 * presses the button in one tab and reaches the provider's page; the payment is made there by the
 * provider's own form, sent from here without following its redirect (the wallet app pays and hands
 * the return address to the phone's default browser), and that address is opened in another page with
 * none of the first tab's storage. The merchant's `redirectUrl` names the order (`?order=`, see
 * startMerchant), and no callback ever reaches it (its callback URL leads nowhere): the element asks
 * `POST /api/pay/order`, the kit asks the provider, and the page says "Payment received, thank you"
 * within seconds, with "See your order" and no pay button, staying where it landed (docs/element.md).
 * Once with the intent service, once with an ePay-only merchant (eSewa's web checkout, v2).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { esewaEpay } from '../../src/providers/epay/adapter.js';
import { EPAY_TEST_CREDENTIALS } from '../../src/providers/epay/wire.js';
import { DIST, startMerchant, type Merchant } from './support.js';
import { ENGINES, closeEngines, openEngine, within, type EnginePage } from './engines.js';
import { EPAY_LOGIN_FIELDS, formAction, merchantPages, openFresh, press, waitForAddress } from './engine-pages.js';

const PAID_TEXT = 'Payment received, thank you';
/** How soon the other browser must say the order is paid. */
const PAID_WITHIN_MS = 5_000;

/** The merchant's pages: the checkout, the result pages, and one that empties the origin's session and local storage. */
const FILES = merchantPages({ clearLocal: true });

let intent: Merchant;
let epay: Merchant;

before(async () => {
  [intent, epay] = await Promise.all([
    startMerchant({ directories: { '/dist/': DIST }, files: FILES }),
    startMerchant({
      directories: { '/dist/': DIST },
      files: FILES,
      providers: (sandbox) => [esewaEpay({ ...EPAY_TEST_CREDENTIALS, baseUrl: sandbox.baseUrl })],
    }),
  ]);
});

after(async () => {
  await closeEngines();
  await intent?.close();
  await epay?.close();
});

/** What differs between the two providers: where the button leads, and the provider's own pay form. */
interface Way {
  merchant: () => Merchant;
  /** The provider's page the element's form POST lands on. */
  page: (merchant: Merchant) => string;
  /** The pay form on that page, and what the shopper fills in. */
  form: string;
  fields: Record<string, string>;
}

const WAYS: Record<'intent service' | 'eSewa ePay v2', Way> = {
  'intent service': {
    merchant: () => intent,
    page: (merchant) => merchant.sandbox.webPaymentUrl,
    form: 'form[action$="/confirm"]',
    fields: { mpin: '1234', method: 'wallet_balance' },
  },
  'eSewa ePay v2': {
    merchant: () => epay,
    page: (merchant) => `${merchant.sandbox.baseUrl}/api/epay/main/v2/form`,
    form: 'form[action$="/pay"]',
    fields: EPAY_LOGIN_FIELDS,
  },
};

/**
 * The first tab: the checkout, its button pressed, the provider's page. The provider's pay form is
 * sent from here with the shopper's entries, its redirect not followed; returns its address.
 */
async function payElsewhere(tab: EnginePage, way: Way): Promise<string> {
  const merchant = way.merchant();
  await openFresh(tab, merchant, '/checkout.html');
  await press(tab);
  await waitForAddress(tab, (href) => href === way.page(merchant), "the provider's page");
  const action = await formAction(tab, way.form);
  const answer = await within(fetch(action, { method: 'POST', body: new URLSearchParams(way.fields), redirect: 'manual' }), 10_000, `POST ${action}`);
  const location = answer.headers.get('location');
  assert.ok(answer.status >= 301 && answer.status <= 303 && location, `${action} answered ${answer.status}: ${await answer.text()}`);
  return new URL(location, action).href;
}

/** What the other browser shows: its address, the status text, visible pay buttons, "See your order"'s target. */
interface Shown {
  href: string;
  status: string;
  buttons: number;
  seeOrder: string | null;
}

/** In the other browser: waits for the paid text and reads what the page shows. */
async function shownElsewhere(tab: EnginePage, merchant: Merchant, back: string): Promise<Shown> {
  await openFresh(tab, merchant, back);
  const shown = await tab.run<Shown | { failed: string }>(
    `const end = Date.now() + ${PAID_WITHIN_MS};
const root = () => document.querySelector('wallet-pay-button')?.shadowRoot;
const statusText = () => (root()?.querySelector('[role="status"]')?.textContent ?? '').trim();
while (!statusText().includes(${JSON.stringify(PAID_TEXT)})) {
  if (Date.now() > end) {
    const shown = [...(root()?.querySelectorAll('button[part~="button"]') ?? [])].filter((b) => b.checkVisibility()).length;
    // Answered, not thrown: WebKit's driver reports a thrown error by its stack alone.
    return { failed: '"${PAID_TEXT}" not within ${PAID_WITHIN_MS} ms; the status says ' + JSON.stringify(statusText()) + ', ' + shown + ' pay button(s) shown' };
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const link = [...root().querySelectorAll('a')].find((a) => a.textContent.trim() === 'See your order');
return {
  href: location.href,
  status: statusText(),
  buttons: [...root().querySelectorAll('button[part~="button"]')].filter((b) => b.checkVisibility()).length,
  seeOrder: link ? link.href : null,
};`,
    'the paid text in the other browser',
    PAID_WITHIN_MS + 5_000,
  );
  if ('failed' in shown) throw new Error(`${tab.engine}: ${shown.failed} at ${back}`);
  return shown;
}

for (const engine of ENGINES) {
  for (const [name, way] of Object.entries(WAYS)) {
    test(`${engine}, ${name}: paid in the wallet, the return opened in another browser before any callback shows the order paid`, async () => {
      const merchant = way.merchant();
      const first = await openEngine(engine);
      let back: string;
      try {
        back = await payElsewhere(first, way);
      } finally {
        // Chromium and Firefox keep the first page open beside the other; WebKit's one window moves on.
        if (engine === 'webkit') await first.close();
      }
      const other = await openEngine(engine);
      try {
        const { status, ...shown } = await shownElsewhere(other, merchant, back);
        assert.match(status, new RegExp(`^${PAID_TEXT}`));
        // Shown, not routed: the page stays at the return address, with no pay button.
        assert.deepEqual(shown, { href: back, buttons: 0, seeOrder: `${merchant.origin}/success.html` });
      } finally {
        await other.close();
        if (engine !== 'webkit') await first.close();
      }
      const url = new URL(back);
      assert.equal(`${url.origin}${url.pathname}`, `${merchant.origin}/checkout.html`);
      assert.match(url.search, /^\?order=DIST-1-\d+&booking_id=/, 'the return address names the order');
      if (name === 'intent service') {
        const bookingId = url.searchParams.get('booking_id')!;
        assert.equal(merchant.sandbox.getBooking(bookingId)?.status, 'SUCCESS');
        const sent = merchant.sandbox.callbackAttempts().filter((attempt) => attempt.booking_id === bookingId && attempt.delivered);
        assert.deepEqual(sent, [], 'no callback reached the merchant');
      }
    });
  }
}
