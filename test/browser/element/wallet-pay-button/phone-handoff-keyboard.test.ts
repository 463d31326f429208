/**
 * The hand-off by keyboard, in the element: the offer is reached by Tab after the pay button, and the
 * panel's actions by Tab from the panel, which takes focus when it opens. Tab never leaves the page
 * here (Firefox would move focus to its toolbar and later keys would activate nothing).
 */
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { mount, part, payButton, reach, shadow } from '../../../support/element.js';
import { answer, scenario } from '../../../support/proxy.js';

afterEach(() => sessionStorage.clear());

describe('<wallet-pay-button> the phone hand-off by keyboard', () => {
  it('reaches the offer after the pay button, then every action of the panel from the panel', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'BOOKED')] });
    const m = await mount(s, { environment: 'desktop' });
    const { el } = m;
    payButton(el).focus();
    await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement).to.equal(part(el, 'pay-on-phone'));
    await sendKeys({ press: 'Enter' });
    await reach(el, 'handoff');
    await waitUntil(() => part(el, 'qr'), 'the code shows', { timeout: 8000 });
    await el.updateComplete;
    expect(shadow(el).activeElement).to.equal(part(el, 'handoff'));
    const reached: string[] = [];
    for (let i = 0; i < 3; i++) {
      await sendKeys({ press: 'Tab' });
      reached.push(shadow(el).activeElement?.getAttribute('part') ?? '');
    }
    expect(reached).to.deep.equal(['action open-here', 'action use-computer', 'action cancel']);
  });
});
