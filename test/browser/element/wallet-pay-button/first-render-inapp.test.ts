/**
 * Under `environment="auto"` (the default) the element knows someone else's in-app browser at its
 * first render, before the payment code (and its in-app browsers' table) is in: its pay button reads
 * "Pay on the web", the path that completes there, from the start. The page's user agent is that of
 * an app's in-app browser for the test; a phone's browser keeps the button's own wording.
 */
import { expect } from '@open-wc/testing';
import '../../../../src/define.js';
import type { PaymentModule, WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { IN_APP_USER_AGENTS } from '../../../fixtures/user-agents.js';
import { payButton } from '../../../support/element.js';

const PHONE_BROWSER = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

/** Runs `body` with the page's user agent set to `userAgent`, then puts the engine's back. */
async function withUserAgent(userAgent: string, body: () => Promise<void>): Promise<void> {
  Object.defineProperty(navigator, 'userAgent', { value: userAgent, configurable: true });
  try {
    await body();
  } finally {
    delete (navigator as { userAgent?: string }).userAgent;
  }
}

/** The text of the pay button at the element's first render, its payment code never coming. */
async function firstRender(lang = 'en'): Promise<string> {
  const el = document.createElement('wallet-pay-button') as WalletPayButton;
  el.paymentLoader = () => new Promise<PaymentModule>(() => {});
  for (const [name, value] of Object.entries({ endpoint: '/api/pay', 'order-id': 'A-1001', 'allowed-hosts': 'pay.wallet.test', lang })) el.setAttribute(name, value);
  document.body.append(el);
  try {
    await el.updateComplete;
    return payButton(el).textContent!.trim();
  } finally {
    el.remove();
  }
}

describe('<wallet-pay-button> first render under auto in an in-app browser', () => {
  it(`reads "Pay on the web" at once in each app's in-app browser (${IN_APP_USER_AGENTS.length} user agents)`, async () => {
    for (const { app, userAgent } of IN_APP_USER_AGENTS) {
      await withUserAgent(userAgent, async () => {
        expect(navigator.userAgent).to.equal(userAgent);
        expect(await firstRender(), app).to.equal('Pay on the web');
      });
    }
  });

  it('in Nepali too', async () => {
    await withUserAgent(IN_APP_USER_AGENTS.find((row) => row.app === 'instagram')!.userAgent, async () => {
      expect(await firstRender('ne')).to.equal('वेबमा भुक्तानी गर्नुहोस्');
    });
  });

  it("a phone's own browser keeps the button's wording", async () => {
    await withUserAgent(PHONE_BROWSER, async () => {
      expect(await firstRender()).to.equal('Pay with wallet');
    });
  });
});
