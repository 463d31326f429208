/**
 * A second payment of one order on PostgreSQL, with two instances of the shop sharing one database:
 * the phone's booking made by one instance, the computer's by the other (after a read that left out
 * the phone's open booking), both paid at the sandbox at once, each callback delivered by the instance
 * that made its booking. Exactly one of the two is delivered as the duplicate and told to `onError`,
 * and `/order` on either instance answers paid. Reads of an order are slowed so the deliveries overlap.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { DuplicatePaymentError, type PaymentStore } from '../../../../src/server/index.js';
import { openShop } from '../shop.js';
import { freshDatabase, stopServer } from './pg-server.js';

after(stopServer);

function slowReads(store: PaymentStore): PaymentStore {
  return {
    ...store,
    async getOrderState(orderKey) {
      const state = await store.getOrderState(orderKey);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return state;
    },
  };
}

test('two instances on one PostgreSQL, two bookings of one order paid at once: exactly one duplicate, told once', async () => {
  const url = await freshDatabase();
  const pools = [new pg.Pool({ connectionString: url, max: 4 }), new pg.Pool({ connectionString: url, max: 4 })];
  for (const pool of pools) pool.on('error', () => {});
  // Each read of an order answers 100 ms late (a loaded database), so the two deliveries overlap.
  const [phoneStore, computerStore] = pools.map((pool) => slowReads(createPostgresStore(pool))) as [PaymentStore, PaymentStore];
  let lagging = false;
  // The computer's instance reads the order once without its open booking (a replica behind the primary).
  const laggingStore: PaymentStore = {
    ...computerStore,
    async beginBooking(start) {
      const opening = await computerStore.beginBooking(start);
      if (!lagging || opening.status !== 'leased') return opening;
      lagging = false;
      return { ...opening, order: { ...opening.order, open: [] } };
    },
  };
  const phoneShop = await openShop({ store: phoneStore });
  const computerShop = await openShop({ store: laggingStore }, {}, phoneShop.sandbox);
  try {
    const phone = await phoneShop.book('app', 'PG-1');
    lagging = true;
    const computer = await computerShop.book('web', 'PG-1');
    assert.equal(phoneShop.sandbox.getBooking(phone.booking_id)?.status, 'BOOKED');
    await Promise.all([phoneShop.pay(phone), computerShop.pay(computer)]);
    await phoneShop.sandbox.whenCallbacksSettled();

    const paid = [...phoneShop.results, ...computerShop.results].filter((r) => r.status === 'SUCCESS');
    assert.deepEqual(paid.map((r) => r.booking_id).sort(), [phone.booking_id, computer.booking_id].sort());
    const flagged = paid.filter((r) => r.duplicate);
    assert.equal(flagged.length, 1, JSON.stringify(paid));
    assert.equal(flagged[0]!.duplicate_of, paid.find((r) => !r.duplicate)!.booking_id);
    const told = [...phoneShop.errors, ...computerShop.errors].filter((e) => e.error instanceof DuplicatePaymentError);
    assert.equal(told.length, 1);
    assert.equal(told[0]!.context.correlation_id, flagged[0]!.correlation_id);
    for (const shop of [phoneShop, computerShop]) {
      assert.deepEqual((await shop.post('order', { order: { id: 'PG-1' } })).body.data, { paid: true, status: 'SUCCESS' });
    }
  } finally {
    await computerShop.close();
    await phoneShop.close();
    await Promise.all(pools.map((pool) => pool.end()));
  }
});
