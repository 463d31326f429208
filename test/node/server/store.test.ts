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

  test("an evicted booking's results go with it, so maxEntries bounds them and the result is not delivered forever", async () => {
    const store = createMemoryStore({ maxEntries: 2 });
    await store.insertBooking(booking(1));
    for (const status of ['PENDING', 'SUCCESS'] as const) {
      assert.equal(await store.claimResult('cr-1', status, 'a', 100, 200), 'claimed');
      await store.completeResult('cr-1', status, 'a', 150);
    }
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'b', 300, 400), 'delivered');
    await store.insertBooking(booking(2));
    await store.insertBooking(booking(3));
    assert.equal(await store.getBooking('bk-1'), undefined, 'evicted');
    assert.equal(await store.claimResult('cr-1', 'SUCCESS', 'b', 300, 400), 'claimed', 'its result row left with it');
    assert.equal(await store.claimResult('cr-1', 'PENDING', 'b', 300, 400), 'claimed', 'every status of it');
  });

  test('results of bookings it does not know are bounded by maxEntries too, oldest first', async () => {
    const store = createMemoryStore({ maxEntries: 2 });
    for (const n of [1, 2, 3]) {
      await store.claimResult(`unknown-${n}`, 'SUCCESS', 'a', n, n + 10);
      await store.completeResult(`unknown-${n}`, 'SUCCESS', 'a', n);
    }
    assert.equal(await store.claimResult('unknown-1', 'SUCCESS', 'b', 20, 30), 'claimed', 'the oldest went');
    assert.equal(await store.claimResult('unknown-3', 'SUCCESS', 'b', 20, 30), 'delivered');
  });

  test('prune drops every status of a booking, and old results of bookings it does not know', async () => {
    const store = createMemoryStore();
    await store.insertBooking(booking(1));
    await store.claimResult('cr-1', 'PENDING', 'a', 100, 200);
    await store.completeResult('cr-1', 'PENDING', 'a', 150);
    await store.claimResult('callback-only', 'SUCCESS', 'a', 500, 600);
    await store.completeResult('callback-only', 'SUCCESS', 'a', 500);
    assert.equal(await store.prune(2_000), 1);
    assert.equal(await store.claimResult('cr-1', 'PENDING', 'b', 3_000, 3_100), 'claimed');
    assert.equal(await store.claimResult('callback-only', 'SUCCESS', 'b', 3_000, 3_100), 'claimed');
  });

  test('refuses bounds that make no sense', () => {
    assert.throws(() => createMemoryStore({ maxEntries: 0 }), /maxEntries must be a positive integer/);
  });
});
