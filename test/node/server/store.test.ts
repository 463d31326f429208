import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../../src/server/memory-store.js';
import { booking, storeContract } from './store-contract.js';

describe('memory store', () => {
  storeContract(async () => createMemoryStore());

  test('drops the oldest bookings beyond maxEntries', async () => {
    const store = createMemoryStore({ maxEntries: 3 });
    for (let n = 1; n <= 5; n++) await store.insertBooking(booking(n));
    assert.equal(await store.getBooking('bk-1'), undefined);
    assert.equal(await store.getBookingByKey('key-2'), undefined);
    assert.equal((await store.getBooking('bk-5'))?.amount, 5.5);
  });

  test('refuses bounds that make no sense', () => {
    assert.throws(() => createMemoryStore({ maxEntries: 0 }), /maxEntries must be a positive integer/);
  });
});
