/**
 * When the payment code loads (src/element/load-strategies.ts): each named strategy calls its load at
 * its moment. (The element's use of them, prefetch at hover and the kept booking's load at once, is
 * tested in wallet-pay-button/loading.test.ts and wallet-pay-button/return.test.ts.)
 */
import { expect, waitUntil } from '@open-wc/testing';
import { INTENT_EVENTS, LOAD_STRATEGIES } from '../../../src/element/load-strategies.js';

describe('the payment code\'s load strategies', () => {
  it('kept loads at once', () => {
    let loads = 0;
    LOAD_STRATEGIES.kept(document.body, () => loads++);
    expect(loads).to.equal(1);
  });

  it('idle loads when the page goes idle', async () => {
    let loads = 0;
    LOAD_STRATEGIES.idle(document.body, () => loads++);
    expect(loads).to.equal(0);
    await waitUntil(() => loads === 1, 'the idle strategy never loaded', { timeout: 3000 });
  });

  it('intent loads at hover, focus and touch, and no sooner', () => {
    for (const type of INTENT_EVENTS) {
      const host = document.createElement('div');
      let loads = 0;
      LOAD_STRATEGIES.intent(host, () => loads++);
      expect(loads, type).to.equal(0);
      host.dispatchEvent(new Event(type));
      expect(loads, type).to.equal(1);
    }
    expect(INTENT_EVENTS).to.deep.equal(['pointerenter', 'focusin', 'touchstart']);
  });
});
