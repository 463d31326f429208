import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../../../src/server/memory-store.js';
import { sampleBooking as booking, storeSuite } from '../../../../src/server/store-suite.js';

describe('memory store', () => {
  storeSuite('memory store', () => createMemoryStore(), { test, assert });

  const claim = (store: ReturnType<typeof createMemoryStore>, correlationId: string, status: 'PENDING' | 'SUCCESS', owner: string) =>
    store.claimResult({ correlationId, status, owner, leaseMs: 60_000 }).then((answer) => answer.claim);
  const deliver = async (store: ReturnType<typeof createMemoryStore>, correlationId: string, status: 'PENDING' | 'SUCCESS') => {
    assert.equal(await claim(store, correlationId, status, 'a'), 'claimed');
    await store.completeResult({ correlationId, status, owner: 'a' });
  };

  test('drops the oldest bookings beyond maxEntries', async () => {
    const store = createMemoryStore({ maxEntries: 3 });
    for (let n = 1; n <= 5; n++) await store.insertBooking({ booking: booking(n) });
    assert.equal(await store.getBookingState({ bookingId: 'bk-1' }), undefined);
    assert.equal(await store.getBookingByKey({ key: 'key-2' }), undefined);
    assert.equal((await store.getBookingByKey({ key: 'key-5' }))?.amount, 5.5);
  });

  test("an evicted booking's results go with it, so maxEntries bounds them and the result is not delivered forever", async () => {
    const store = createMemoryStore({ maxEntries: 2 });
    await store.insertBooking({ booking: booking(1) });
    for (const status of ['PENDING', 'SUCCESS'] as const) await deliver(store, 'cr-1', status);
    assert.equal(await claim(store, 'cr-1', 'SUCCESS', 'b'), 'delivered');
    await store.insertBooking({ booking: booking(2) });
    await store.insertBooking({ booking: booking(3) });
    assert.equal(await store.getBookingState({ bookingId: 'bk-1' }), undefined, 'evicted');
    assert.equal(await claim(store, 'cr-1', 'SUCCESS', 'b'), 'claimed', 'its result row left with it');
    assert.equal(await claim(store, 'cr-1', 'PENDING', 'b'), 'claimed', 'every status of it');
  });

  test('results of bookings it does not know are bounded by maxEntries too, oldest first', async () => {
    const store = createMemoryStore({ maxEntries: 2 });
    for (const n of [1, 2, 3]) await deliver(store, `unknown-${n}`, 'SUCCESS');
    assert.equal(await claim(store, 'unknown-1', 'SUCCESS', 'b'), 'claimed', 'the oldest went');
    assert.equal(await claim(store, 'unknown-3', 'SUCCESS', 'b'), 'delivered');
  });

  test('prune drops every status of a booking, and old results of bookings it does not know', async () => {
    let now = 100;
    const store = createMemoryStore({ now: () => now });
    await store.insertBooking({ booking: booking(1) });
    await deliver(store, 'cr-1', 'PENDING');
    now = 500;
    await deliver(store, 'callback-only', 'SUCCESS');
    assert.equal(await store.prune({ before: 2_000 }), 1);
    assert.equal(await claim(store, 'cr-1', 'PENDING', 'b'), 'claimed');
    assert.equal(await claim(store, 'callback-only', 'SUCCESS', 'b'), 'claimed');
  });

  test("a store made again (a restart) never hands out its predecessor's fencing tokens, from which books derive their service references", async () => {
    const open = (store: ReturnType<typeof createMemoryStore>, key: string) => store.beginBooking({ key, orderKey: key, lease: `order:${key}`, owner: key, leaseMs: 4_000 });
    const before = createMemoryStore();
    const tokens: number[] = [];
    for (let n = 0; n < 50; n++) {
      const opening = await open(before, `k-${n}`);
      assert.equal(opening.status, 'leased');
      if (opening.status === 'leased') tokens.push(opening.token);
      await new Promise((resolve) => setTimeout(resolve, n % 10 === 0 ? 2 : 0));
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
    const after = await open(createMemoryStore(), 'k-after');
    assert.equal(after.status, 'leased');
    if (after.status === 'leased') assert.ok(after.token > Math.max(...tokens), `the restarted store's first token ${after.token} is above the last one before it, ${Math.max(...tokens)}`);
  });

  test("leases and claims run on the store's clock, whatever its callers' clocks", async () => {
    let now = 1_000;
    const store = createMemoryStore({ now: () => now });
    const opening = await store.beginBooking({ key: 'k', orderKey: 'o', lease: 'order:o', owner: 'a', leaseMs: 4_000 });
    assert.equal(opening.status, 'leased');
    now = 4_999;
    assert.equal((await store.beginBooking({ key: 'k2', orderKey: 'o', lease: 'order:o', owner: 'b', leaseMs: 4_000 })).status, 'busy');
    now = 5_001;
    assert.equal((await store.beginBooking({ key: 'k2', orderKey: 'o', lease: 'order:o', owner: 'b', leaseMs: 4_000 })).status, 'leased');
    assert.equal((await store.claimResult({ correlationId: 'c', status: 'SUCCESS', owner: 'a', leaseMs: 100 })).claim, 'claimed');
    now = 5_100;
    assert.equal((await store.claimResult({ correlationId: 'c', status: 'SUCCESS', owner: 'b', leaseMs: 100 })).claim, 'busy');
    now = 5_102;
    assert.equal((await store.claimResult({ correlationId: 'c', status: 'SUCCESS', owner: 'b', leaseMs: 100 })).claim, 'claimed');
  });

  test('refuses bounds and clocks that make no sense', async () => {
    assert.throws(() => createMemoryStore({ maxEntries: 0 }), /maxEntries must be a positive integer/);
    const store = createMemoryStore({ now: () => NaN });
    await assert.rejects(store.claimResult({ correlationId: 'c', status: 'SUCCESS', owner: 'a', leaseMs: 1 }), /now\(\) returned NaN/);
  });
});
