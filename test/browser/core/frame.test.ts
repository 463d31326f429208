import { expect } from '@open-wc/testing';
import { isCrossOriginFramed } from '../../../src/core/frame.js';

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

  it('is false for a window that is its own top', () => {
    const win = { location: { origin: 'https://shop.test' } } as { location: { origin: string }; self: unknown; top: unknown };
    win.self = win;
    win.top = win;
    expect(isCrossOriginFramed(win as Parameters<typeof isCrossOriginFramed>[0])).to.equal(false);
  });
});
