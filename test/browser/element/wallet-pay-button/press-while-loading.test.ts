/**
 * A press made while the payment code is on its way, whoever asked for it: a tab that keeps a booking
 * or a paid order of the shop loads the code at once (the `kept` strategy), and a press during that
 * load runs once the code is in, exactly once however often the shopper presses meanwhile. A load
 * that fails shows why, with its way forward, and the next press loads it again and pays.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../../src/define.js';
import type { PaymentModule, WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { ChunkError } from '../../../../src/element/chunk.js';
import { LABELS_EN } from '../../../../src/element/i18n/index.js';
import { bookingKey } from '../../../../src/core/settings.js';
import { FAST, part, payButton, statusText } from '../../../support/element.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { answer, recordingNavigator, scenario, type Scenario } from '../../../support/proxy.js';

afterEach(() => sessionStorage.clear());

/** A loader of the payment code that waits for the test to let it go, or to make it fail. */
function heldLoader(): { load: () => Promise<PaymentModule>; release: () => void; fail: (error: unknown) => void; calls: () => number } {
  let calls = 0;
  let release!: () => void;
  let fail!: (error: unknown) => void;
  const gate = new Promise<void>((resolve, reject) => ((release = resolve), (fail = reject)));
  return { load: () => (calls++, gate.then(() => import('../../../../src/element/payment.js'))), release, fail, calls: () => calls };
}

/**
 * The tab paid order A-0999 of this shop earlier (a shopper who paid one order and now checks out
 * another): the element of order A-1001 loads its payment code at once, through `loader`.
 */
async function mountKept(s: Scenario, loader: () => Promise<PaymentModule>, environment = 'mobile') {
  sessionStorage.setItem(`wallet-pay-paid:${bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-0999' })}`, '1');
  const nav = recordingNavigator();
  const el = await fixture<WalletPayButton>(html`<wallet-pay-button
    endpoint=${s.endpoint}
    order-id="A-1001"
    environment=${environment}
    allowed-hosts="links.wallet.test pay.wallet.test"
    .paymentLoader=${loader}
    .navigation=${nav}
    .timings=${FAST}
    .clock=${new FakeClock(Date.now())}
  ></wallet-pay-button>`);
  return { el, nav };
}

/** The book requests the proxy received. */
const books = async (s: Scenario) => (await s.received()).book.length;

describe('<wallet-pay-button> pressed while its payment code loads', () => {
  it('a press during the load a kept booking started books once the code is in, once for two presses', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const loader = heldLoader();
    const { el, nav } = await mountKept(s, loader.load);
    expect(loader.calls(), 'the kept strategy asked for the code at once').to.equal(1);
    payButton(el).click();
    payButton(el).click();
    expect(payButton(el).getAttribute('aria-busy'), 'the press is taken at once').to.equal('true');
    expect(await books(s)).to.equal(0);
    loader.release();
    await waitUntil(() => nav.calls.length === 1, `the press made while the code loaded never paid (the element is ${JSON.stringify(el.paymentState.name)})`, { timeout: 5000 });
    await el.loadsSettled();
    expect(nav.calls).to.deep.equal([{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
    expect(await books(s), 'two presses during the load are one booking').to.equal(1);
    expect(loader.calls(), 'one load for the kept strategy and both presses').to.equal(1);
  });

  it('the offer to pay on the phone pressed during the load hands off once the code is in', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'BOOKED')] });
    const loader = heldLoader();
    const { el, nav } = await mountKept(s, loader.load, 'desktop');
    part<HTMLButtonElement>(el, 'pay-on-phone')!.click();
    part<HTMLButtonElement>(el, 'pay-on-phone')!.click();
    expect(await books(s)).to.equal(0);
    loader.release();
    await waitUntil(() => el.paymentState.name === 'handoff', `the hand-off pressed while the code loaded never showed (the element is ${el.paymentState.name})`, { timeout: 5000 });
    await el.loadsSettled();
    expect((await s.received()).book.map((r) => r.body)).to.deep.equal([{ channel: 'app', order: { id: 'A-1001' }, handoff: true }]);
    expect(nav.calls).to.deep.equal([]);
  });

  it('a load that fails under a press shows why with "Try again"; the next press loads it again and books once', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const loader = heldLoader();
    let load = loader.load;
    const { el, nav } = await mountKept(s, () => load());
    payButton(el).click();
    loader.fail(new ChunkError('network', undefined, 'the connection dropped'));
    await el.loadsSettled();
    expect(el.paymentState).to.deep.include({ name: 'error', busy: false, canRetry: true });
    expect(statusText(el), 'the press is not lost silently').to.equal(LABELS_EN['error.network']);
    expect(part(el, 'retry')).to.not.equal(null);
    expect(payButton(el).getAttribute('aria-busy')).to.equal('false');
    expect(await books(s)).to.equal(0);
    await expect(el).to.be.accessible();

    // Back online: the next press asks for the code again and pays.
    const again = heldLoader();
    load = again.load;
    payButton(el).click();
    expect(again.calls(), 'the press after the failure loads again').to.equal(1);
    again.release();
    await waitUntil(() => nav.calls.length === 1, `the press after the failed load never paid (the element is ${el.paymentState.name})`, { timeout: 5000 });
    await el.loadsSettled();
    expect(await books(s)).to.equal(1);
    expect(part(el, 'retry')).to.equal(null);
  });
});
