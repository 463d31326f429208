/**
 * On PostgreSQL: a payment that lands after the shopper's `/cancel`, its callback lost (the sandbox's
 * WPS-006), is delivered by `reconcile()` once, and a cancelled booking is asked about only within the
 * recheck window (the database's clock decides; the window is narrowed here instead of waiting).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { landLate, openRecheckShop, resultsOf } from '../recheck-story.js';
import { freshDatabase, stopServer } from './pg-server.js';

const NONE = { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false };
const pools: pg.Pool[] = [];
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await stopServer();
});

async function store() {
  const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 4 });
  pool.on('error', () => {});
  pools.push(pool);
  return createPostgresStore(pool);
}

test('PostgreSQL: reconcile() delivers once the SUCCESS that landed after /cancel with its callback lost', async () => {
  const shop = await openRecheckShop(() => 0, await store());
  try {
    const stale = await shop.staleBooking('PR-1');
    await landLate(shop, stale);
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { ...NONE, checked: 1, settled: 1 });
    assert.deepEqual(resultsOf(shop, stale), [['cancel', 'CANCELED'], ['reconcile', 'SUCCESS']]);
    const asked = shop.asked.length;
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), NONE);
    assert.equal(shop.asked.length, asked, 'settled by its SUCCESS: not asked again');
    assert.deepEqual((await shop.post('order', { order: { id: 'PR-1' } })).body.data, { paid: true, status: 'SUCCESS' });
  } finally {
    await shop.close();
  }
});

test('PostgreSQL: a cancelled booking is asked about within the recheck window, and not past it', async () => {
  const shop = await openRecheckShop(() => 0, await store());
  try {
    const unpaid = await shop.staleBooking('PR-2');
    const askedOf = () => shop.asked.filter((id) => id === unpaid.booking_id).length;
    const before = askedOf();
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), NONE);
    assert.equal(askedOf(), before + 1, 'within the default window (the provider\'s 15 minutes): asked');
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0, recheckCanceledForMs: 50 }), NONE);
    assert.equal(askedOf(), before + 1, 'cancelled more than 50 ms ago: not asked');
    assert.deepEqual(resultsOf(shop, unpaid), [['cancel', 'CANCELED']]);
  } finally {
    await shop.close();
  }
});
