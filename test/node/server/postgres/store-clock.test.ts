/**
 * Leases and claims on PostgreSQL's clock, with real handlers on one real PostgreSQL server and the
 * real sandbox: a claim that waited for a pool connection longer than its lease still holds its full
 * lease once written (so a result is delivered once), and instances whose clocks disagree still
 * agree on who holds an order.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandlerOptions } from '../../../../src/server/handler.js';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import type { PaymentStore } from '../../../../src/server/store.js';
import { freshDatabase, stopServer } from './pg-server.js';
import { postRoute as post, onSandbox } from '../helpers.js';

const KEY = 'store-clock-access-key';
const PRODUCT = 'CLOCK01';
const newKey = () => `clock-${crypto.randomUUID()}`;

const wait = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("leases and claims on PostgreSQL's clock", () => {
  let sandbox: Sandbox;
  let url: string;
  const pools: pg.Pool[] = [];
  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
    url = await freshDatabase();
    await createPostgresStore(newPool()).ready();
  });
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await sandbox?.close();
    await stopServer();
  });

  function newPool(config: pg.PoolConfig = {}): pg.Pool {
    const pool = new pg.Pool({ connectionString: url, max: 4, ...config });
    pool.on('error', () => {});
    pools.push(pool);
    return pool;
  }
  const ofOrder = (id: string) => sandbox.listBookings().filter((b) => b.properties.merchant_order === id);
  const options = (store: PaymentStore, extra: Partial<PaymentHandlerOptions>): PaymentHandlerOptions => ({
    ...onSandbox(sandbox),
    store,
    lookupOrder: (order) => ({ id: String(order.id), amount: 700 }),
    onPaymentResult: () => {},
    ...extra,
  });

  test('a result claim that waited for a pool connection longer than its lease holds its whole lease once written: delivered once', async () => {
    const delivered: string[] = [];
    let hookStarted!: () => void;
    const started = new Promise<void>((resolve) => (hookStarted = resolve));
    const hook = (who: string) => async () => {
      delivered.push(who);
      hookStarted();
      await wait(500, undefined);
    };
    const crowded = newPool({ max: 1 });
    const storeA = createPostgresStore(crowded);
    // A's one connection is busy (a slow query of the shop, say) for longer than the lease just as A
    // claims the result: the claim waits for the pool.
    let crowdedOnce = false;
    const waitsForPool = Object.assign(Object.create(storeA) as PaymentStore, {
      claimResult: async (...args: Parameters<PaymentStore['claimResult']>) => {
        if (!crowdedOnce) {
          crowdedOnce = true;
          const held = await crowded.connect();
          setTimeout(() => held.release(), 1_500);
        }
        return storeA.claimResult(...args);
      },
    });
    const a = createPaymentHandler(options(waitsForPool, { leaseMs: 1_000, onPaymentResult: hook('a') }));
    const b = createPaymentHandler(options(createPostgresStore(newPool()), { leaseMs: 1_000, onPaymentResult: hook('b') }));
    const order = { id: `POOL-${crypto.randomUUID()}` };
    const booked = (await post(b, 'book', { channel: 'app', order }, newKey())).body.data!;
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id };
    const paid = await fetch(`${booked.deeplink}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mpin: '1234', method: 'wallet_balance' }).toString(),
      redirect: 'manual',
    });
    assert.equal(paid.status, 303);

    const first = post(a, 'status', ids);
    await Promise.race([started, wait(10_000, undefined)]);
    assert.deepEqual(delivered, ['a'], "A's hook runs once its claim is written");
    // While A's hook runs, B checks the same booking: A's claim is live by the server's clock.
    const second = await post(b, 'status', ids);
    await first;
    assert.equal(second.body.data?.status, 'SUCCESS');
    assert.deepEqual(delivered, ['a'], 'delivered once');
  });

  test('an instance whose clock runs 10 s behind holds its order by the server\'s clock: the other waits for it, then cancels its booking; one payable booking', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let enter!: () => void;
    const entered = new Promise<void>((resolve) => (enter = resolve));
    const gated: typeof fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/book')) {
        enter();
        await released;
      }
      return fetch(input, init);
    };
    const behind = createPaymentHandler(options(createPostgresStore(newPool()), { fetch: gated, now: () => Date.now() - 10_000 }));
    const right = createPaymentHandler(options(createPostgresStore(newPool()), {}));
    const order = { id: `BEHIND-${crypto.randomUUID()}` };
    const first = post(behind, 'book', { channel: 'app', order }, newKey());
    await Promise.race([entered, wait(10_000, undefined)]);
    let secondDone = false;
    const second = post(right, 'book', { channel: 'app', order }, newKey()).finally(() => (secondDone = true));
    await wait(1_000, undefined);
    const finishedWhileHeld = secondDone;
    release();
    const answers = await Promise.all([first, second]);
    assert.equal(finishedWhileHeld, false, 'the instance on time waited while the order was held');
    assert.deepEqual(answers.map((x) => x.status), [200, 200]);
    assert.deepEqual(ofOrder(order.id).map((b) => b.status).sort(), ['BOOKED', 'CANCELED']);
  });
});
