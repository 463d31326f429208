import { expect } from '@open-wc/testing';
import { createBookingStore, hasKeptBooking, type KeptBooking } from '../../../src/core/session-store.js';
import { bookingKey } from '../../../src/core/settings.js';
import { settingsOf } from '../../support/settings.js';

const settings = settingsOf();
const kept: KeptBooking = { booking_id: 'B1', correlation_id: 'C1', channel: 'app', idempotency_key: 'k', started_at: 1, deeplink: 'https://links.wallet.test/pay/B1', settings };

afterEach(() => sessionStorage.clear());

describe('booking store', () => {
  it('keeps, loads and clears a booking per endpoint and order, with the settings it started with', () => {
    const store = createBookingStore(sessionStorage);
    const key = bookingKey('https://shop.test/pay', { id: 'A-1' });
    expect(key).to.not.equal(bookingKey('https://shop.test/pay', { id: 'A-2' }));
    store.save(key, kept);
    const other = settingsOf({ successUrl: '/elsewhere' });
    expect(store.load(key, other)).to.deep.equal(kept);
    store.clear(key);
    expect(store.load(key, other)).to.equal(null);
  });

  it('takes the current settings for a booking kept without them (kept before an upgrade)', () => {
    const store = createBookingStore(sessionStorage);
    const { settings: _dropped, ...old } = kept;
    sessionStorage.setItem(settings.storageKey, JSON.stringify(old));
    expect(store.load(settings.storageKey, settings)).to.deep.equal(kept);
  });

  it('keeps and forgets an unfinished attempt per endpoint and order', () => {
    const store = createBookingStore(sessionStorage);
    const key = bookingKey('https://shop.test/pay', { id: 'A-1' });
    expect(store.attempt(key)).to.equal(null);
    store.setAttempt(key, 'mobile:k1');
    expect(store.attempt(key)).to.equal('mobile:k1');
    expect(store.attempt(bookingKey('https://shop.test/pay', { id: 'A-2' }))).to.equal(null);
    expect(store.load(key, settings), 'an attempt is not a kept booking').to.equal(null);
    store.setAttempt(key, null);
    expect(store.attempt(key)).to.equal(null);
  });

  it('an unfinished attempt does not count as a kept booking (later pages build no flow for it)', () => {
    const store = createBookingStore(sessionStorage);
    store.setAttempt(settings.storageKey, 'mobile:k1');
    expect(hasKeptBooking(sessionStorage)).to.equal(false);
    store.save(settings.storageKey, kept);
    expect(hasKeptBooking(sessionStorage)).to.equal(true);
  });

  it('drops values it did not write', () => {
    const store = createBookingStore(sessionStorage);
    for (const raw of [
      'not json',
      '{"booking_id":"B1"}',
      JSON.stringify({ ...kept, channel: 'sms' }),
      JSON.stringify({ ...kept, started_at: 'now' }),
      JSON.stringify({ ...kept, settings: { ...settings, allowedHosts: 'evil.test' } }),
    ]) {
      sessionStorage.setItem('k', raw);
      expect(store.load('k', settings), raw).to.equal(null);
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
      expect(store.load('k', settings)).to.equal(null);
      expect(() => store.clear('k')).to.not.throw();
      expect(() => store.setAttempt('k', 'mobile:k1')).to.not.throw();
      expect(store.attempt('k')).to.equal(null);
    }
  });
});
