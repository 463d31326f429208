/**
 * The memory store's book costs the same however many bookings the order had before: the work of a
 * book's two store calls (`beginBooking`, then `insertBooking`) is counted as the map and set entries
 * it reads (lookups, entries iterated, bookings copied), for an order with 1 and with 500 past
 * bookings, each ended without a payment. Counted, never timed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../../../src/server/memory-store.js';
import type { PaymentStore, StoredBooking } from '../../../../src/server/store.js';

const MapIterator = Object.getPrototypeOf(new Map().values()) as { next(): IteratorResult<unknown> };
const SetIterator = Object.getPrototypeOf(new Set().values()) as { next(): IteratorResult<unknown> };

/** Runs `work` counting the entries it reads from maps and sets, and the values it clones. */
async function counted(work: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  const saved = {
    mapNext: MapIterator.next,
    setNext: SetIterator.next,
    mapGet: Map.prototype.get,
    mapHas: Map.prototype.has,
    setHas: Set.prototype.has,
    clone: globalThis.structuredClone,
  };
  const counting = <F extends (...args: never[]) => unknown>(fn: F): F =>
    function (this: unknown, ...args: Parameters<F>) {
      reads++;
      return fn.apply(this, args);
    } as F;
  MapIterator.next = counting(saved.mapNext);
  SetIterator.next = counting(saved.setNext);
  Map.prototype.get = counting(saved.mapGet);
  Map.prototype.has = counting(saved.mapHas);
  Set.prototype.has = counting(saved.setHas);
  globalThis.structuredClone = counting(saved.clone);
  try {
    await work();
  } finally {
    MapIterator.next = saved.mapNext;
    SetIterator.next = saved.setNext;
    Map.prototype.get = saved.mapGet;
    Map.prototype.has = saved.mapHas;
    Set.prototype.has = saved.setHas;
    globalThis.structuredClone = saved.clone;
  }
  return reads;
}

const bookingOf = (orderKey: string, n: string): StoredBooking => ({
  booking_id: `b-${n}`,
  correlation_id: `c-${n}`,
  transaction_uuid: `t-${n}`,
  idempotency_key: `k-${n}`,
  fingerprint: JSON.stringify(['v2', 'app', orderKey]),
  channel: 'app',
  order: { id: orderKey },
  order_key: orderKey,
  amount: 250,
  deeplink: `https://pay.example/${n}`,
  provider: 'esewa-intent',
  provider_data: '',
  created_at: 0,
});

/** A book of `orderKey` as the handler makes it: the order's state under its lease, then the booking saved. */
async function book(store: PaymentStore, orderKey: string, n: string): Promise<void> {
  const opening = await store.beginBooking({ key: `k-${n}`, orderKey, lease: `order:${orderKey}`, owner: 'me', leaseMs: 4_000 });
  assert.equal(opening.status, 'leased');
  if (opening.status !== 'leased') return;
  assert.equal(opening.order.open.length, 0, 'the past bookings are all ended');
  const saved = await store.insertBooking({ booking: bookingOf(orderKey, n), hold: { lease: `order:${orderKey}`, owner: 'me', token: opening.token } });
  assert.equal(saved, 'saved');
}

/** `count` past bookings of `orderKey`, each booked then ended without a payment (cancelled or failed). */
async function pastBookings(store: PaymentStore, orderKey: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const n = `${orderKey}-${i}`;
    await book(store, orderKey, n);
    const status = i % 2 === 0 ? 'CANCELED' : 'FAILED';
    assert.equal((await store.claimResult({ correlationId: `c-${n}`, status, owner: 'me', leaseMs: 4_000 })).claim, 'claimed');
    await store.completeResult({ correlationId: `c-${n}`, status, owner: 'me' });
  }
}

test("the memory store's book reads as much for an order with 500 past bookings as for one with 1", async () => {
  const store = createMemoryStore();
  await pastBookings(store, 'one-past', 1);
  await pastBookings(store, 'many-past', 500);
  // Each order booked once more before counting, so both counts start from the same state of the maps.
  const few = await counted(() => book(store, 'one-past', 'one-past-next'));
  const many = await counted(() => book(store, 'many-past', 'many-past-next'));
  assert.ok(few > 0, 'the counters see the store work');
  assert.equal(many, few, `a book of the order with 500 past bookings read ${many} entries, with 1 past booking ${few}`);
});
