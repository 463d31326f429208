/**
 * Two wallets render as fast as one: the first module draws a button per wallet at the element's
 * first render, without waiting for the payment code (here a loader that never answers). A press on
 * a wallet before the code is in is kept for that wallet and books it once the code comes, and the
 * pressed button is the same node throughout, so it keeps the focus the shopper gave it.
 */
import { expect, html, waitUntil, fixture } from '@open-wc/testing';
import '../../../../src/define.js';
import type { PaymentModule, WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { FAST, part, shadow } from '../../../support/element.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { answer, recordingNavigator, scenario, type Scenario } from '../../../support/proxy.js';

afterEach(() => sessionStorage.clear());

/** A loader of the payment code that answers when the test lets it go (never, unless it does). */
function heldLoader(): { load: () => Promise<PaymentModule>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { load: () => gate.then(() => import('../../../../src/element/payment.js')), release };
}

const WEB = { url: 'https://pay.wallet.test/form', method: 'GET' };

/** The wallets' buttons in the shadow root, with their part and name. */
function walletButtons(el: Element): Array<[string, string]> {
  return [...shadow(el as WalletPayButton).querySelectorAll<HTMLButtonElement>('button.button:not([hidden])')].map((button) => [button.getAttribute('part')!, button.textContent!.trim()]);
}

describe('<wallet-pay-button wallets> before the payment code', () => {
  it('paints a button per wallet at its first render, with a payment loader that never answers', async () => {
    const el = document.createElement('wallet-pay-button') as WalletPayButton;
    el.paymentLoader = () => new Promise<PaymentModule>(() => {});
    for (const [name, value] of Object.entries({ endpoint: '/api/pay', 'order-id': 'A-1001', 'allowed-hosts': 'pay.wallet.test' })) el.setAttribute(name, value);
    el.setAttribute('environment', 'desktop');
    el.setAttribute('phone-handoff', 'off');
    el.setAttribute('wallets', 'esewa khalti');
    document.body.append(el);
    try {
      // The first render is due at the next microtask; a frame later it must be on screen.
      await new Promise((done) => requestAnimationFrame(done));
      expect(el.hasUpdated, 'the element rendered without the payment code').to.equal(true);
      expect(walletButtons(el)).to.deep.equal([
        ['button button-esewa', 'Pay with eSewa'],
        ['button button-khalti', 'Pay with Khalti'],
      ]);
      for (const name of ['esewa', 'khalti']) expect(part(el, `button-${name}`)!.getBoundingClientRect().height).to.be.at.least(44);
      await expect(el).to.be.accessible();
    } finally {
      el.remove();
    }
  });

  it('a press on Khalti before the code is in books Khalti once it is in; the pressed button keeps focus', async () => {
    const s: Scenario = await scenario({ book: [{ ...answer.bookWeb('K1', WEB), delay: 200 }] });
    const loader = heldLoader();
    const nav = recordingNavigator();
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button
      endpoint=${s.endpoint}
      order-id="A-1001"
      environment="desktop"
      phone-handoff="off"
      allowed-hosts="links.wallet.test pay.wallet.test"
      wallets="esewa khalti"
      .paymentLoader=${loader.load}
      .navigation=${nav}
      .timings=${FAST}
      .clock=${new FakeClock(Date.now())}
    ></wallet-pay-button>`);
    const khalti = part<HTMLButtonElement>(el, 'button-khalti')!;
    const esewa = part<HTMLButtonElement>(el, 'button-esewa')!;
    khalti.focus();
    khalti.click();
    await el.updateComplete;
    expect(khalti.getAttribute('aria-busy'), 'the press is taken at once, on its own button').to.equal('true');
    expect(esewa.getAttribute('aria-busy')).to.equal('false');
    expect((await s.received()).book).to.deep.equal([]);
    loader.release();
    await waitUntil(() => el.paymentState.name === 'booking', `the kept press did not book (now ${el.paymentState.name})`, { timeout: 8000 });
    await el.updateComplete;
    // The same buttons, or their replacements where the payment code's template drew the shadow root
    // afresh once the code came (once: later draws keep them); focus follows the pressed one.
    const khaltiNow = part<HTMLButtonElement>(el, 'button-khalti')!;
    const esewaNow = part<HTMLButtonElement>(el, 'button-esewa')!;
    expect(shadow(el).activeElement, 'focus stays on the button pressed, or moves to its replacement').to.equal(khaltiNow);
    expect([khaltiNow.getAttribute('aria-busy'), esewaNow.disabled]).to.deep.equal(['true', true]);
    await waitUntil(() => nav.calls.length > 0, 'the booking never went to the web payment', { timeout: 8000 });
    expect((await s.received()).book.map((request) => request.body)).to.deep.equal([{ channel: 'web', order: { id: 'A-1001' }, wallet: 'khalti' }]);
    expect(part(el, 'button-khalti'), 'no second replacement').to.equal(khaltiNow);
    expect(shadow(el).activeElement).to.equal(khaltiNow);
  });
});
