/**
 * The element's pieces: the first module renders the button; the payment code and the Nepali texts
 * come when needed. These tests run first in their page (each test file has its own), so the first
 * one sees nothing loaded yet.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { mount, part, payButton, reach, statusText } from '../../../support/element.js';
import { answer, scenario } from '../../../support/proxy.js';
import type { PaymentModule, WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { LABELS_NE, STRINGS_EN, STRINGS_NE } from '../../../../src/element/i18n/index.js';

const WEB = { url: 'https://pay.wallet.test/checkout/W1', method: 'POST', fields: { token: 'T1' } };

/** True when the page has requested a module whose URL ends with `path`. */
const requested = (path: string) => performance.getEntriesByType('resource').some((entry) => new URL(entry.name).pathname.endsWith(path));

/** A loader that waits for the test to let it go. */
function heldLoader(): { load: () => Promise<PaymentModule>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { load: () => gate.then(() => import('../../../../src/element/payment.js')), release };
}

afterEach(() => sessionStorage.clear());

describe('<wallet-pay-button> loading its pieces', () => {
  it('the payment code is prefetched before any press; a Nepali page shows the Nepali label at its first render', async () => {
    const en = await fixture<WalletPayButton>(html`<wallet-pay-button lang="en"></wallet-pay-button>`);
    en.dispatchEvent(new Event('pointerenter'));
    await waitUntil(() => requested('/element/payment.ts'), 'the payment code is prefetched (idle or hover)');
    // (Whether an English page loads the Nepali chunk is checked on the CDN build, test/package: this
    // file imports the whole string tables.)
    const ne = await fixture<WalletPayButton>(html`<wallet-pay-button lang="ne"></wallet-pay-button>`);
    expect(payButton(ne).textContent!.trim()).to.equal(LABELS_NE['button.pay']);
  });

  it('the press sets aria-busy before it returns, while the payment code is still on its way', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', WEB)] });
    const { el } = await mount(s, { environment: 'desktop' });
    const loader = heldLoader();
    el.paymentLoader = loader.load;
    payButton(el).click();
    // No await before this line: the click itself marked the button.
    expect(payButton(el).getAttribute('aria-busy')).to.equal('true');
    expect(el.paymentState.busy).to.equal(true);
    // A second press while waiting is the same press.
    payButton(el).click();
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    loader.release();
    expect((await navigate).detail).to.deep.include({ reason: 'web-payment', url: WEB.url });
  });

  it('a payment code that cannot be loaded is an error with "Try again", which loads it again and pays', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', WEB)] });
    const { el, nav } = await mount(s, { environment: 'desktop' });
    let tries = 0;
    el.paymentLoader = () => {
      tries++;
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    };
    payButton(el).click();
    await el.loadsSettled();
    expect(el.paymentState).to.deep.include({ name: 'error', busy: false, canRetry: true });
    expect(payButton(el).getAttribute('aria-busy')).to.equal('false');
    expect(statusText(el)).to.equal(STRINGS_EN['error.network']);
    expect(part(el, 'retry')!.textContent!.trim()).to.equal(STRINGS_EN['action.retry']);
    await expect(el).to.be.accessible();
    // Still failing: the same offer again, after a second try.
    part<HTMLButtonElement>(el, 'retry')!.click();
    await el.loadsSettled();
    expect(tries).to.equal(2);
    expect(part(el, 'retry')).to.not.equal(null);
    // Back online.
    el.paymentLoader = undefined;
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    part<HTMLButtonElement>(el, 'retry')!.click();
    expect((await navigate).detail.reason).to.equal('web-payment');
    expect(nav.calls.map((call) => call.kind)).to.deep.equal(['postForm']);
    expect(part(el, 'retry')).to.equal(null);
  });

  it('on a Nepali page the failure is said in Nepali, with the Nepali texts module but without the payment code', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button lang="ne" endpoint="/api/pay" order-id="A-1"></wallet-pay-button>`);
    el.paymentLoader = () => Promise.reject(new TypeError('offline'));
    payButton(el).click();
    await el.loadsSettled();
    expect(statusText(el)).to.equal(STRINGS_NE['error.network']);
    expect(part(el, 'retry')!.textContent!.trim()).to.equal(LABELS_NE['action.retry']);
  });

  it('the Nepali status texts show once their module is in', async () => {
    const s = await scenario({ book: [{ ...answer.bookWeb('W1', WEB), delay: 200 }] });
    const { el } = await mount(s, { environment: 'desktop' });
    el.lang = 'ne';
    payButton(el).click();
    await reach(el, 'booking');
    expect(statusText(el)).to.equal(STRINGS_NE['status.booking']);
  });

  it('the press sets aria-busy before it returns on the button the payment code drew, while this element\'s own load is on its way', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', WEB)] });
    const { el } = await mount(s, { environment: 'desktop' });
    // The page's payment code is in: its template draws the shadow root from now on.
    el.dispatchEvent(new Event('pointerenter'));
    await el.loadsSettled();
    expect('_$litPart$' in el.shadowRoot!, 'the payment code drew the shadow root').to.equal(true);
    const loader = heldLoader();
    el.paymentLoader = loader.load;
    payButton(el).click();
    // No await before this line: the click itself marked the button that shows.
    expect(payButton(el).getAttribute('aria-busy')).to.equal('true');
    expect(payButton(el).isConnected).to.equal(true);
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    loader.release();
    expect((await navigate).detail).to.deep.include({ reason: 'web-payment', url: WEB.url });
  });
});
