import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createBookingStore, hasKeptBooking, type KeptBooking } from '../../../src/core/session-store.js';
import { bookingKey } from '../../../src/core/settings.js';
import { settingsOf } from '../../support/settings.js';
import { MemoryStorage } from '../../support/memory-storage.js';

const settings = settingsOf();
const kept: KeptBooking = { booking_id: 'B1', correlation_id: 'C1', channel: 'app', idempotency_key: 'k', started_at: 1, deeplink: 'https://links.wallet.test/pay/B1', settings };

/** The tab's session storage (in memory), fresh for each test. */
let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
});

describe('booking store', () => {
  it('keeps, loads and clears a booking per endpoint and order, with the settings it started with', () => {
    const store = createBookingStore(storage);
    const key = bookingKey('https://shop.test/pay', { id: 'A-1' });
    assert.notEqual(key, bookingKey('https://shop.test/pay', { id: 'A-2' }));
    store.save(key, kept);
    const other = settingsOf({ successUrl: '/elsewhere' });
    assert.deepEqual(store.load(key, other), kept);
    store.clear(key);
    assert.equal(store.load(key, other), null);
  });

  it('takes the current settings for a booking kept without them (kept before an upgrade)', () => {
    const store = createBookingStore(storage);
    const { settings: _dropped, ...old } = kept;
    storage.setItem(settings.storageKey, JSON.stringify(old));
    assert.deepEqual(store.load(settings.storageKey, settings), kept);
  });

  it('keeps and forgets an unfinished attempt per endpoint and order', () => {
    const store = createBookingStore(storage);
    const key = bookingKey('https://shop.test/pay', { id: 'A-1' });
    assert.equal(store.attempt(key), null);
    store.setAttempt(key, 'mobile:k1');
    assert.equal(store.attempt(key), 'mobile:k1');
    assert.equal(store.attempt(bookingKey('https://shop.test/pay', { id: 'A-2' })), null);
    assert.equal(store.load(key, settings), null, 'an attempt is not a kept booking');
    store.setAttempt(key, null);
    assert.equal(store.attempt(key), null);
  });

  it('an unfinished attempt does not count as a kept booking (later pages build no flow for it)', () => {
    const store = createBookingStore(storage);
    store.setAttempt(settings.storageKey, 'mobile:k1');
    assert.equal(hasKeptBooking(storage), false);
    store.save(settings.storageKey, kept);
    assert.equal(hasKeptBooking(storage), true);
  });

  it('drops values it did not write', () => {
    const store = createBookingStore(storage);
    for (const raw of [
      'not json',
      '{"booking_id":"B1"}',
      JSON.stringify({ ...kept, channel: 'sms' }),
      JSON.stringify({ ...kept, started_at: 'now' }),
      JSON.stringify({ ...kept, settings: { ...settings, allowedHosts: 'evil.test' } }),
    ]) {
      storage.setItem('k', raw);
      assert.equal(store.load('k', settings), null, raw);
    }
  });

  it('keeps working (keeping nothing) when storage throws or is missing', () => {
    const throwing = {
      getItem: () => { throw new DOMException('denied', 'SecurityError'); },
      setItem: () => { throw new DOMException('full', 'QuotaExceededError'); },
      removeItem: () => { throw new DOMException('denied', 'SecurityError'); },
    } as unknown as Storage;
    for (const store of [createBookingStore(throwing), createBookingStore(null)]) {
      assert.doesNotThrow(() => store.save('k', kept));
      assert.equal(store.load('k', settings), null);
      assert.doesNotThrow(() => store.clear('k'));
      assert.doesNotThrow(() => store.setAttempt('k', 'mobile:k1'));
      assert.equal(store.attempt('k'), null);
    }
  });
});
