/**
 * A shopper back in a fresh tab (nothing kept in it): the element asks the shop's server whether the
 * order is paid (`POST {endpoint}/order`) before anything is pressed. Against the scripted proxy in
 * every engine; against the real merchant kit end to end (test/e2e/order-paid.test.ts).
 */
import { expect, waitUntil } from '@open-wc/testing';
import { answer, scenario, type Scenario } from '../../../support/proxy.js';
import { mount, part, payButton, reach, statusText } from '../../../support/element.js';

const paid = (status?: string) => ({ body: { code: 'IP-201', message: 'Order status fetched', data: { paid: true, ...(status && { status }) } } });
const unpaid = { body: { code: 'IP-201', message: 'Order status fetched', data: { paid: false } } };

async function asked(s: Scenario): Promise<Record<string, unknown>[]> {
  await waitUntil(async () => (await s.received()).order.length > 0, 'the element never asked /order', { timeout: 8000 });
  return (await s.received()).order.map((r) => r.body);
}

describe('<wallet-pay-button> an order paid before, in a fresh tab', () => {
  beforeEach(() => sessionStorage.clear());

  it('asks the shop\'s server before any press and, paid, shows it paid with no pay button', async () => {
    const s = await scenario({ order: [paid('SUCCESS')] });
    const { el } = await mount(s);
    expect(await asked(s)).to.deep.equal([{ order: { id: 'A-1001' } }]);
    await reach(el, 'paid');
    expect(statusText(el)).to.equal('Payment received, thank you.');
    expect(payButton(el).hidden).to.equal(true);
    expect(part<HTMLAnchorElement>(el, 'see-order')!.href).to.equal(`${location.origin}/shop/done`);
    await expect(el).to.be.accessible();
    expect((await s.received()).book).to.have.length(0);
  });

  for (const [name, step] of [
    ['a server without the route (404)', answer.failure(404, 'IP-404', 'No such endpoint')],
    ['a server that refuses the method (405)', answer.failure(405, 'IP-405', 'POST only')],
    ['an unpaid order', unpaid],
  ] as const) {
    it(`${name}: the button works as before, no error shown`, async () => {
      const s = await scenario({ order: [step], book: [answer.bookApp('B1')] });
      const { el } = await mount(s);
      await asked(s);
      await el.loadsSettled();
      expect(el.paymentState.name).to.equal('idle');
      expect(statusText(el)).to.equal('');
      expect(payButton(el).hidden || payButton(el).disabled).to.equal(false);
      payButton(el).click();
      await waitUntil(async () => (await s.received()).book.length > 0, 'no booking after the press', { timeout: 8000 });
    });
  }

  it('asks once per order, not at every render', async () => {
    const s = await scenario({ order: [unpaid] });
    const { el } = await mount(s);
    await asked(s);
    el.variant = 'light';
    await el.updateComplete;
    el.label = 'buy';
    await el.updateComplete;
    await el.loadsSettled();
    expect((await s.received()).order).to.have.length(1);
  });
});
