/**
 * In someone else's in-app browser (`environment="inapp"`, as the user agent table decides under
 * `auto`) the web payment is the path that completes there: the button reads "Pay on the web" from
 * the first render, and one press books the web channel and goes to the provider's payment page. No
 * other button is shown beside it, and none that does nothing.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../../src/define.js';
import type { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { FAST, reach, shadow } from '../../../support/element.js';
import { answer, recordingNavigator, scenario, type Scenario } from '../../../support/proxy.js';

const WEB = { url: 'https://pay.wallet.test/form', method: 'GET' };

afterEach(() => sessionStorage.clear());

/** An in-app element on `s`'s endpoint, whose first render is checked before anything else runs. */
async function mountInApp(s: Scenario, lang?: string) {
  const nav = recordingNavigator();
  const el = await fixture<WalletPayButton>(html`<wallet-pay-button
    endpoint=${s.endpoint}
    order-id="A-1001"
    environment="inapp"
    allowed-hosts="links.wallet.test pay.wallet.test"
    lang=${lang ?? (undefined as unknown as string)}
    .navigation=${nav}
    .timings=${FAST}
    .clock=${new FakeClock(Date.now())}
  ></wallet-pay-button>`);
  return { el, nav };
}

/** The buttons and links a shopper sees in the shadow root, by their text. */
const shown = (el: WalletPayButton) =>
  [...shadow(el).querySelectorAll<HTMLElement>('button, a')].filter((node) => getComputedStyle(node).display !== 'none' && getComputedStyle(node).visibility !== 'hidden').map((node) => node.textContent!.trim());

describe('<wallet-pay-button environment="inapp">', () => {
  it('the first render is one button, "Pay on the web", before the payment code is in', async () => {
    const { el } = await mountInApp(await scenario({}));
    expect(el.paymentState.name).to.equal('idle');
    expect(shown(el)).to.deep.equal(['Pay on the web']);
    await expect(el).to.be.accessible();
  });

  it('in Nepali on a Nepali page', async () => {
    const { el } = await mountInApp(await scenario({}), 'ne');
    expect(shown(el)).to.deep.equal(['वेबमा भुक्तानी गर्नुहोस्']);
  });

  it('one press books the web channel and goes to the web payment page; a second press meanwhile books nothing more', async () => {
    const s = await scenario({ book: [{ ...answer.bookWeb('W1', WEB), delay: 200 }] });
    const { el, nav } = await mountInApp(s);
    const left = oneEvent(el, 'wallet-pay-left');
    const button = shadow(el).querySelector<HTMLButtonElement>('button.button')!;
    button.click();
    await reach(el, 'booking');
    expect(button.getAttribute('aria-busy')).to.equal('true');
    button.click();
    await reach(el, 'redirecting');
    expect((await left).detail.to).to.equal('web');
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: WEB.url }]);
    expect((await s.received()).book.map((request) => request.body)).to.deep.equal([{ channel: 'web', order: { id: 'A-1001' } }]);
  });

  it('a host that routes itself (navigate cancelled): the button is ready again and its next press follows the kept booking', async () => {
    const s = await scenario({ book: [answer.bookWeb('W2', WEB)], status: [answer.status('W2', 'BOOKED')] });
    const { el, nav } = await mountInApp(s);
    const route = (event: Event) => event.preventDefault();
    el.addEventListener('wallet-pay-navigate', route, { once: true });
    shadow(el).querySelector<HTMLButtonElement>('button.button')!.click();
    await waitUntil(() => (el.paymentState.name === 'idle' && nav.calls.length === 0 ? s.received().then((r) => r.book.length === 1) : false), 'the booking did not end idle', { timeout: 8000 });
    await el.updateComplete;
    expect(shown(el)).to.deep.equal(['Pay on the web']);
    shadow(el).querySelector<HTMLButtonElement>('button.button')!.click();
    await waitUntil(async () => (await s.received()).status.length > 0, 'the second press did nothing', { timeout: 8000 });
    expect((await s.received()).book).to.have.length(1);
  });
});
