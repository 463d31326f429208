/**
 * The keyboard's press across the arrival of the payment code: the space bar goes down on the first
 * module's focused pay button, the press asks for the code, and the bar comes up once it is in. A
 * button activates on the space bar's release only if it is the one the bar went down on, so a
 * button replaced in between is never pressed. The press must still book, once. Alone in its file, as
 * press-spans-load.test.ts is (the code is the page's once loaded).
 */
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../../src/define.js';
import { mount, payButton } from '../../../support/element.js';
import { holdPrefetch } from '../../../support/held-prefetch.js';
import { answer, scenario } from '../../../support/proxy.js';

describe('<wallet-pay-button> pressed by the space bar across the arrival of its payment code', () => {
  it('the space bar down before the code is in and up after it books once', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const prefetch = holdPrefetch();
    const { el, nav } = await mount(s);
    const first = payButton(el);
    first.focus();
    await sendKeys({ down: ' ' });
    try {
      expect(payButton(el), "the first module's button is pressed").to.equal(first);
      // The code is asked now (focus asks for it) and comes while the bar is down.
      prefetch.ask(el);
      await el.loadsSettled();
      expect(payButton(el), 'the button under the press is not replaced').to.equal(first);
    } finally {
      prefetch.restore();
      await sendKeys({ up: ' ' });
    }
    await waitUntil(() => nav.calls.length === 1, `the space bar's press that spanned the code's arrival never paid (the element is ${JSON.stringify(el.paymentState.name)})`, { timeout: 5000 });
    await el.loadsSettled();
    expect((await s.received()).book.length, 'one press, one booking').to.equal(1);
    expect(payButton(el), "the code's own button replaced the first module's once the press ended").to.not.equal(first);
    expect(el.shadowRoot!.activeElement, 'focus moved to the replacement').to.equal(payButton(el));
  });
});
