import { expect } from '@open-wc/testing';
import { bookingKey, createBookingStore, type KeptBooking } from '../../../src/core/session-store.js';
import { isCrossOriginFramed } from '../../../src/core/frame.js';

const kept: KeptBooking = { booking_id: 'B1', correlation_id: 'C1', channel: 'app', idempotency_key: 'k', started_at: 1, deeplink: 'https://links.wallet.test/pay/B1' };

afterEach(() => sessionStorage.clear());

describe('booking store', () => {
  it('keeps, loads and clears a booking per endpoint and order', () => {
    const store = createBookingStore(sessionStorage);
    const key = bookingKey('https://shop.test/pay', { id: 'A-1' });
    expect(key).to.not.equal(bookingKey('https://shop.test/pay', { id: 'A-2' }));
    store.save(key, kept);
    expect(store.load(key)).to.deep.equal(kept);
    store.clear(key);
    expect(store.load(key)).to.equal(null);
  });

  it('keeps and forgets an unfinished attempt per endpoint and order', () => {
    const store = createBookingStore(sessionStorage);
    const key = bookingKey('https://shop.test/pay', { id: 'A-1' });
    expect(store.attempt(key)).to.equal(null);
    store.setAttempt(key, 'mobile:k1');
    expect(store.attempt(key)).to.equal('mobile:k1');
    expect(store.attempt(bookingKey('https://shop.test/pay', { id: 'A-2' }))).to.equal(null);
    expect(store.load(key), 'an attempt is not a kept booking').to.equal(null);
    store.setAttempt(key, null);
    expect(store.attempt(key)).to.equal(null);
  });

  it('drops values it did not write', () => {
    const store = createBookingStore(sessionStorage);
    for (const raw of ['not json', '{"booking_id":"B1"}', JSON.stringify({ ...kept, channel: 'sms' }), JSON.stringify({ ...kept, started_at: 'now' })]) {
      sessionStorage.setItem('k', raw);
      expect(store.load('k')).to.equal(null);
    }
  });

  it('keeps working (keeping nothing) when storage throws or is missing', () => {
    const throwing = {
      getItem: () => { throw new DOMException('denied', 'SecurityError'); },
      setItem: () => { throw new DOMException('full', 'QuotaExceededError'); },
      removeItem: () => { throw new DOMException('denied', 'SecurityError'); },
    } as unknown as Storage;
    for (const store of [createBookingStore(throwing), createBookingStore(null)]) {
      expect(() => store.save('k', kept)).to.not.throw();
      expect(store.load('k')).to.equal(null);
      expect(() => store.clear('k')).to.not.throw();
      expect(() => store.setAttempt('k', 'mobile:k1')).to.not.throw();
      expect(store.attempt('k')).to.equal(null);
    }
  });
});

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
});
