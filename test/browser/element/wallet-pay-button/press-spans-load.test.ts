/**
 * A press whose mouse button goes down on the first module's pay button before the payment code is
 * in and comes up after it (a hover or the press itself asks for the code, which may come within the
 * press): the code's first draw replaces the first module's buttons, and a click whose down and up
 * fall on two nodes reaches neither. The press must still book, once. Alone in its file: the payment
 * code is the page's once loaded, and only an element drawn before it came swaps its buttons.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import '../../../../src/define.js';
import { mount, payButton } from '../../../support/element.js';
import { holdPrefetch } from '../../../support/held-prefetch.js';
import { answer, scenario } from '../../../support/proxy.js';

describe('<wallet-pay-button> pressed across the arrival of its payment code', () => {
  it('a press down before the code is in and up after it books once; the code draws its own button once the press ended', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const prefetch = holdPrefetch();
    const { el, nav } = await mount(s);
    const first = payButton(el);
    const box = first.getBoundingClientRect();
    const at: [number, number] = [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];
    try {
      await sendMouse({ type: 'move', position: at });
      await sendMouse({ type: 'down' });
      expect(payButton(el), "the first module's button is pressed").to.equal(first);
      // The code is asked now (a hover asks for it) and comes while the button is down.
      prefetch.ask(el);
      await el.loadsSettled();
      expect(payButton(el), 'the button under the press is not replaced').to.equal(first);
      await sendMouse({ type: 'up' });
    } finally {
      prefetch.restore();
      await resetMouse();
    }
    await waitUntil(() => nav.calls.length === 1, `the press that spanned the code's arrival never paid (the element is ${JSON.stringify(el.paymentState.name)})`, { timeout: 5000 });
    await el.loadsSettled();
    expect(nav.calls).to.deep.equal([{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
    expect((await s.received()).book.length, 'one press, one booking').to.equal(1);
    expect(payButton(el), "the code's own button replaced the first module's once the press ended").to.not.equal(first);
  });
});
