/**
 * The status region (`role="status"`) is one node from the first render on: when the payment code's
 * templates take the shadow root over from the first module, the region stays where it is and its
 * words change in place, so an assistive technology that knows the region hears what it says at the
 * switch. These tests run first in their page (each test file has its own): the first one sees the
 * first module draw.
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { mount, payButton, shadow, statusText } from '../../../support/element.js';
import { answer, scenario } from '../../../support/proxy.js';
import { STRINGS_EN } from '../../../../src/element/i18n/index.js';

const WEB = { url: 'https://pay.wallet.test/checkout/W1', method: 'POST', fields: { token: 'T1' } };

afterEach(() => sessionStorage.clear());

/** The region's node and what became of it: removed from the shadow root, or its words changed in it. */
function watchRegion(root: ShadowRoot): { region: Element; removed: () => boolean; changedInPlace: () => boolean; stop: () => void } {
  const region = root.querySelector('[role="status"]')!;
  const records: MutationRecord[] = [];
  const observer = new MutationObserver((list) => records.push(...list));
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  const all = () => (records.push(...observer.takeRecords()), records);
  return {
    region,
    removed: () => all().some((record) => [...record.removedNodes].includes(region)),
    changedInPlace: () => all().some((record) => record.target === region || record.target.parentNode === region),
    stop: () => observer.disconnect(),
  };
}

describe('<wallet-pay-button> status region across the switch to the payment code', () => {
  it('keeps the first module\'s region when the template draws the shadow root, and says the booking in it', async () => {
    const s = await scenario({ book: [{ ...answer.bookWeb('W1', WEB), delay: 400 }] });
    const { el } = await mount(s, { environment: 'desktop' });
    const root = shadow(el);
    expect('_$litPart$' in root, 'the first module drew the first render').to.equal(false);
    const watch = watchRegion(root);
    try {
      const navigate = oneEvent(el, 'wallet-pay-navigate');
      payButton(el).click();
      await waitUntil(() => statusText(el) === STRINGS_EN['status.booking'], 'the booking is said while the proxy answers', { timeout: 5000 });
      expect('_$litPart$' in root, 'the payment code drew the shadow root').to.equal(true);
      expect(root.querySelector('[role="status"]'), 'the same region node').to.equal(watch.region);
      expect(root.querySelectorAll('[role="status"]')).to.have.length(1);
      expect(watch.removed(), 'the region never left the shadow root').to.equal(false);
      expect(watch.changedInPlace(), 'its words changed in place').to.equal(true);
      await navigate;
    } finally {
      watch.stop();
    }
  });
});
