import { expect } from '@open-wc/testing';
import { isCrossOriginFramed } from '../../../src/core/frame.js';
import { answer, scenario } from '../../support/proxy.js';

describe('isCrossOriginFramed', () => {
  it('is false at the top level of this test page', () => {
    expect(isCrossOriginFramed(window)).to.equal(false);
  });

  it('is true when the top page cannot be read, false when it has our origin', () => {
    const self = {};
    const location = { origin: 'https://shop.test' };
    const crossOrigin = { get location(): Location { throw new DOMException('blocked', 'SecurityError'); } };
    expect(isCrossOriginFramed({ self, location, top: crossOrigin })).to.equal(true);
    expect(isCrossOriginFramed({ self, location, top: { location: { origin: 'https://shop.test' } } })).to.equal(false);
    expect(isCrossOriginFramed({ self, location, top: { location: { origin: 'https://other.test' } } })).to.equal(true);
  });

  it('sees a cross-origin frame between a same-origin top page and the checkout (ancestorOrigins)', () => {
    const self = {};
    const top = { location: { origin: 'https://shop.test' } };
    const between = (origins: string[]) => ({ self, top, location: { origin: 'https://shop.test', ancestorOrigins: Object.assign([...origins], {}) } });
    expect(isCrossOriginFramed(between(['https://ads.example', 'https://shop.test']))).to.equal(true);
    expect(isCrossOriginFramed(between(['https://shop.test', 'https://shop.test']))).to.equal(false);
  });

  it('a real page: same-origin top, a cross-origin frame between, the checkout on the top\'s origin', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', { url: 'https://pay.wallet.test/form', method: 'GET' })] });
    const other = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const checkout = `${location.origin}/test/fixtures/framed.html?${new URLSearchParams({ endpoint: s.endpoint })}`;
    const middle = document.createElement('iframe');
    middle.title = 'another site';
    middle.src = `${location.protocol}//${other}:${location.port}/test/browser/fixtures/middle.html?${new URLSearchParams({ inner: checkout })}`;
    const reply = new Promise<{ outcome: string }>((resolve) => {
      addEventListener('message', function listener(event: MessageEvent) {
        if (event.data?.source !== 'framed-wallet-pay') return;
        removeEventListener('message', listener);
        resolve(event.data);
      });
    });
    document.body.append(middle);
    try {
      // Browsers without location.ancestorOrigins (Firefox) can only compare the top page.
      expect((await reply).outcome).to.equal('ancestorOrigins' in location ? 'error:framed' : 'navigate');
    } finally {
      middle.remove();
    }
    expect((await s.received()).book).to.have.length('ancestorOrigins' in location ? 0 : 1);
  });

  it('is false for a window that is its own top', () => {
    const win = { location: { origin: 'https://shop.test' } } as { location: { origin: string }; self: unknown; top: unknown };
    win.self = win;
    win.top = win;
    expect(isCrossOriginFramed(win as Parameters<typeof isCrossOriginFramed>[0])).to.equal(false);
  });
});
