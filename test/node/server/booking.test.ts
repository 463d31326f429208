/**
 * A book's reference changes with the order's fence: two instances (two handlers, each its own kit)
 * share one store and one sandbox. The first one's insert stalls past the order's lease and fails, so
 * it cancels its booking at the service and answers IP-503; the shopper's retry with the same key
 * reaches the second instance and must get a payable booking, never the cancelled one (the service
 * hands a repeated `transaction_uuid`'s booking back). And a stale book whose key another instance
 * booked meanwhile cancels its own booking and answers the key's. On the memory store, on PGlite and
 * on a PostgreSQL server (its processes really paused mid-insert: postgres/fenced-insert.test.ts).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createMemoryStore, type PaymentStore } from '../../../src/server/index.js';
import { ORDER_LEASE_MS } from '../../../src/server/order-lock.js';
import { createPostgresStore } from '../../../src/server/postgres.js';
import { StoreUnavailableError } from '../../../src/server/store-errors.js';
import { freshDatabase, stopServer } from './postgres/pg-server.js';
import { openShop, type Answer, type Shop } from './shop.js';
import { within } from '../../support/within.js';

const closers: Array<() => Promise<void>> = [];
after(async () => {
  for (const close of closers.splice(0)) await close();
  await stopServer();
});

/** The stores the tests run on, each opened fresh. */
const STORES: Array<[string, () => Promise<PaymentStore>]> = [
  ['memory store', async () => createMemoryStore()],
  [
    'PGlite',
    async () => {
      const db = new PGlite();
      closers.push(() => db.close());
      return createPostgresStore(db);
    },
  ],
  [
    'PostgreSQL server',
    async () => {
      const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 4 });
      // An idle client told of the server's shutdown emits 'error' on the pool (node-postgres' docs: handle it).
      pool.on('error', () => {});
      closers.push(() => pool.end());
      return createPostgresStore(pool);
    },
  ],
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two instances of one shop on one sandbox and `store`; the first's insert is `firstInsert` once. */
async function twoInstances(store: PaymentStore, firstInsert: PaymentStore['insertBooking']): Promise<[Shop, Shop]> {
  let wrapped = true;
  const first = await openShop({
    store: {
      ...store,
      insertBooking(insert) {
        if (!wrapped) return store.insertBooking(insert);
        wrapped = false;
        return firstInsert(insert);
      },
    },
  });
  closers.push(() => first.close());
  // Behind one address, as a fleet is: the service sees the same callback and return URLs from both.
  const second = await openShop({ store, callbackUrl: `${first.url}/api/pay/callback`, redirectUrl: `${first.url}/done` }, {}, first.sandbox);
  closers.push(() => second.close());
  return [first, second];
}

const statusAt = (shop: Shop, bookingId: unknown) => shop.sandbox.getBooking(String(bookingId))?.status;
const bookBody = (id: string) => ({ channel: 'app', order: { id } });

function booked(answer: { status: number; body: Answer }): string {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.code, 'IP-201');
  return String(answer.body.data?.booking_id);
}

for (const [name, open] of STORES) {
  describe(`${name}: a book's reference changes with the order's fence`, () => {
    test('a retry on another instance after a give-up gets a payable booking, not the one cancelled', async () => {
      const store = await open();
      const [first, second] = await twoInstances(store, async () => {
        // The database held the write past the order's lease, then the call failed: nothing saved.
        await sleep(ORDER_LEASE_MS + 300);
        throw new StoreUnavailableError('deadline', 'The test store held the insert past its deadline.');
      });
      const key = crypto.randomUUID();
      const gaveUp = await within(first.post('book', bookBody('FENCE-X1'), { 'idempotency-key': key }), 15_000, 'the first book');
      assert.deepEqual([gaveUp.status, gaveUp.body.code], [503, 'IP-503'], JSON.stringify(gaveUp.body));
      const cancelled = first.sandbox.listBookings().filter((b) => b.status === 'CANCELED');
      assert.equal(cancelled.length, 1, 'the booking the first instance gave up on was cancelled at the service');

      const retried = booked(await within(second.post('book', bookBody('FENCE-X1'), { 'idempotency-key': key }), 15_000, 'the retry'));
      assert.notEqual(retried, cancelled[0]!.booking_id, 'not the cancelled booking');
      assert.equal(statusAt(second, retried), 'BOOKED', 'the retry is payable');
      assert.notEqual(first.sandbox.getBooking(retried)?.transaction_uuid, cancelled[0]!.transaction_uuid, 'a reference of its own');
      // The key's booking now, on either instance.
      assert.equal(booked(await first.post('book', bookBody('FENCE-X1'), { 'idempotency-key': key })), retried);
      assert.equal((await store.getBookingByKey({ key }))?.booking_id, retried);
    });

    test("a book that lost the order while its insert was held cancels its own booking and answers the key's, booked by the other instance", async () => {
      const store = await open();
      const key = crypto.randomUUID();
      let held!: () => void;
      const heldNow = new Promise<void>((resolve) => (held = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const [first, second] = await twoInstances(store, async (insert) => {
        held();
        // Held until the other instance took the order over (its lease ended) and saved the key's booking.
        await released;
        return store.insertBooking(insert);
      });
      const late = first.post('book', bookBody('FENCE-X2'), { 'idempotency-key': key });
      await within(heldNow, 15_000, "the first instance's insert");
      const own = first.sandbox.listBookings().find((b) => b.status === 'BOOKED');
      assert.ok(own, 'the first instance booked at the service');
      const winner = booked(await within(second.post('book', bookBody('FENCE-X2'), { 'idempotency-key': key }), ORDER_LEASE_MS + 15_000, 'the second book'));
      assert.notEqual(winner, own.booking_id, 'the second instance sent a reference of its own');
      release();
      const answer = await within(late, 15_000, 'the late insert');
      assert.equal(booked(answer), winner, "the first instance answers the key's booking");
      assert.equal(statusAt(first, own.booking_id), 'CANCELED', 'its own booking, handed to nobody, was cancelled');
      assert.equal(statusAt(first, winner), 'BOOKED');
      assert.equal((await store.getBookingByKey({ key }))?.booking_id, winner);
      assert.deepEqual(first.errors, [], JSON.stringify(first.errors.map((e) => String(e.error))));
    });
  });
}
