/**
 * askPaid (order-check.ts) against the scripted proxy: each answer of `/order` reaches `answered`, a
 * paid order is remembered in the tab, settings with no order to ask about answer `false` at once (a
 * hold on a return address never waits for a request that is not made), and an order is asked once.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/define.js';
import type { WalletPayButton } from '../../../src/element/wallet-pay-button.js';
import { askPaid } from '../../../src/element/order-check.js';
import { isPaidHere } from '../../../src/core/session-store.js';
import { readSettings, type SettingsResult } from '../../../src/core/settings.js';
import { answer, scenario, type Scenario, type Step } from '../../support/proxy.js';

afterEach(() => sessionStorage.clear());

const paidStep: Step = { body: { code: 'IP-201', message: 'Order status fetched', data: { paid: true } } };
const unpaidStep: Step = { body: { code: 'IP-201', message: 'Order status fetched', data: { paid: false } } };

/** A bare element (no endpoint: it asks nothing itself) and the settings of `s`'s endpoint for order `id`. */
async function setUp(s: Scenario, id = 'A-1001', endpoint: string | null = s.endpoint): Promise<{ host: WalletPayButton; read: SettingsResult }> {
  const host = await fixture<WalletPayButton>(html`<wallet-pay-button></wallet-pay-button>`);
  const read = readSettings(
    { endpoint, orderId: id, environment: 'desktop', allowedHosts: 'pay.wallet.test', successUrl: '/shop/done' },
    { pageUrl: location.href, baseUrl: document.baseURI, signals: { userAgent: '', maxTouchPoints: 0, innerWidth: 1024 }, framed: false },
  );
  return { host, read };
}

/** Runs askPaid and resolves with what `answered` got (or `'none'` when nothing came within `ms`). */
function ask(host: WalletPayButton, read: SettingsResult, ms = 4000): Promise<boolean | 'none'> {
  return new Promise((done) => {
    setTimeout(() => done('none'), ms);
    askPaid(host, read, done);
  });
}

describe('askPaid', () => {
  it('paid: answers true and remembers the order as paid in this tab', async () => {
    const s = await scenario({ order: [paidStep] });
    const { host, read } = await setUp(s);
    expect(await ask(host, read)).to.equal(true);
    expect(isPaidHere(sessionStorage, (read as { settings: { storageKey: string } }).settings.storageKey)).to.equal(true);
    expect((await s.received()).order.map((r) => r.body)).to.deep.equal([{ order: { id: 'A-1001' } }]);
  });

  for (const [name, step] of [
    ['not paid', unpaidStep],
    ['a server without the route (404)', answer.failure(404, 'IP-404', 'No such endpoint')],
    ['an outage (503)', answer.failure(503, 'IP-503', 'unavailable')],
    ['an answer that is not the contract', { body: { code: 'IP-201', message: 'x', data: { paid: 'yes' } } }],
  ] as const) {
    it(`${name}: answers false and keeps nothing`, async () => {
      const s = await scenario({ order: [step] });
      const { host, read } = await setUp(s);
      expect(await ask(host, read)).to.equal(false);
      expect(sessionStorage.length).to.equal(0);
    });
  }

  it('no endpoint, or settings with problems: answers false at once, asking nothing', async () => {
    const s = await scenario({ order: [paidStep] });
    const { host, read } = await setUp(s, 'A-1001', null);
    expect(await ask(host, read, 50)).to.equal(false);
    const problems: SettingsResult = { ok: false, problems: [], storageKey: 'k' };
    expect(await ask(host, problems, 50)).to.equal(false);
    expect((await s.received()).order).to.have.length(0);
  });

  it('an order is asked once per element: a second ask answers nothing more and sends nothing', async () => {
    const s = await scenario({ order: [unpaidStep, paidStep] });
    const { host, read } = await setUp(s);
    expect(await ask(host, read)).to.equal(false);
    expect(await ask(host, read, 300)).to.equal('none');
    await waitUntil(async () => (await s.received()).order.length === 1, 'the order was not asked', { timeout: 2000 });
    const other = await setUp(s, 'A-2002');
    expect(await ask(host, other.read)).to.equal(true);
  });
});
