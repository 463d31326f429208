/**
 * What a booking and a status check cost in database round trips with the PostgreSQL store, counted
 * by a counting pool around a real pg Pool (every query and connect), with the real handler in front
 * of the real sandbox.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler, type PaymentResult } from '../../../../src/server/handler.js';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { countingPool, type CountingPool } from './counting-pool.js';
import { freshDatabase, stopServer } from './pg-server.js';

const KEY = 'round-trip-access-key';
const PRODUCT = 'TRIPS01';

describe('database round trips with the PostgreSQL store', () => {
  let sandbox: Sandbox;
  let counting: CountingPool;
  let handler: PaymentHandler;
  const delivered: PaymentResult[] = [];
  /** Orders whose total is not the usual 250. */
  const prices = new Map<string, number>();

  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT });
    counting = countingPool({ connectionString: await freshDatabase(), max: 4 });
    const store = createPostgresStore(counting.db);
    await store.ready();
    handler = createPaymentHandler({
      serviceUrl: sandbox.baseUrl,
      productCode: PRODUCT,
      accessKey: KEY,
      callbackUrl: 'http://127.0.0.1:9/callback',
      redirectUrl: 'http://merchant.test/return',
      store,
      lookupOrder: (order) => ({ id: String(order.id), amount: prices.get(String(order.id)) ?? 250 }),
      onPaymentResult: (result) => void delivered.push(result),
    });
  });
  after(async () => {
    await counting?.pool.end();
    await sandbox?.close();
    await stopServer();
  });

  const post = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await handler(
      new Request(`http://merchant.test/api/pay/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    );
    return (await response.json()) as { code: string; data?: Record<string, string> };
  };
  /** Runs `call` and answers how many round trips it cost. */
  const counted = async <T>(call: () => Promise<T>): Promise<{ trips: number; statements: string[]; value: T }> => {
    counting.reset();
    const value = await call();
    return { trips: counting.count, statements: counting.statements, value };
  };

  test('a new booking costs at most two round trips, a replay of its key two (its booking, and that the attempt was not re-priced since)', async () => {
    const key = `trips-${crypto.randomUUID()}`;
    const order = { id: `TRIPS-${crypto.randomUUID()}` };
    const first = await counted(() => post('book', { channel: 'app', order }, { 'idempotency-key': key }));
    assert.equal(first.value.code, 'IP-201');
    assert.ok(first.trips <= 2, `${first.trips} round trips:\n${first.statements.join('\n')}`);
    const replay = await counted(() => post('book', { channel: 'app', order }, { 'idempotency-key': key }));
    assert.equal(replay.value.data?.booking_id, first.value.data?.booking_id);
    assert.equal(replay.trips, 2, replay.statements.join('\n'));
  });

  test('a second key for an order with an open booking: cancels it and books in two round trips beside the service calls and the delivery of its CANCELED', async () => {
    const order = { id: `TRIPS-TABS-${crypto.randomUUID()}` };
    await post('book', { channel: 'app', order }, { 'idempotency-key': `tab-a-${crypto.randomUUID()}` });
    const second = await counted(() => post('book', { channel: 'web', order }, { 'idempotency-key': `tab-b-${crypto.randomUUID()}` }));
    assert.equal(second.value.code, 'IP-201');
    // The cancel's CANCELED result is delivered on the way: its claim, the read of the booking's other
    // results (no SUCCESS may be known) and its completion are three more.
    assert.ok(second.trips <= 5, `${second.trips} round trips:\n${second.statements.join('\n')}`);
  });

  test('a replayed key whose order now costs more: two round trips more than a new booking (the old booking read first, and its later ones), three for a replay of it', async () => {
    const key = `repriced-${crypto.randomUUID()}`;
    const order = { id: `TRIPS-PRICE-${crypto.randomUUID()}` };
    const first = await post('book', { channel: 'app', order }, { 'idempotency-key': key });
    prices.set(order.id, 300);
    const repriced = await counted(() => post('book', { channel: 'app', order }, { 'idempotency-key': key }));
    assert.equal(repriced.value.code, 'IP-201');
    assert.notEqual(repriced.value.data?.booking_id, first.data?.booking_id);
    // The key's old booking and the check for later ones, then the book under `key~1` (two), and the old
    // booking's CANCELED result delivered on the way (three, as for a second key above).
    assert.ok(repriced.trips <= 7, `${repriced.trips} round trips:\n${repriced.statements.join('\n')}`);
    const replay = await counted(() => post('book', { channel: 'app', order }, { 'idempotency-key': key }));
    assert.equal(replay.value.data?.booking_id, repriced.value.data?.booking_id);
    assert.equal(replay.trips, 3, replay.statements.join('\n'));
  });

  test('a status check of a paid booking: at most six round trips the first time (the delivery and its duplicate check), one after', async () => {
    const booked = await post('book', { channel: 'app', order: { id: `TRIPS-PAID-${crypto.randomUUID()}` } }, { 'idempotency-key': `paid-${crypto.randomUUID()}` });
    const { booking_id, correlation_id, deeplink } = booked.data!;
    const paid = await fetch(`${deeplink}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mpin: '1234', method: 'wallet_balance' }).toString(),
      redirect: 'manual',
    });
    assert.equal(paid.status, 303);
    const first = await counted(() => post('status', { booking_id, correlation_id }));
    assert.equal(first.value.data?.status, 'SUCCESS');
    assert.equal(delivered.filter((r) => r.correlation_id === correlation_id).length, 1);
    // Three for the delivery (read, claim, complete), three for the check that no other booking of the
    // order was paid first (the order's lease taken, the order read, the lease let go).
    assert.ok(first.trips <= 6, `${first.trips} round trips:\n${first.statements.join('\n')}`);
    for (let i = 0; i < 3; i++) {
      const again = await counted(() => post('status', { booking_id, correlation_id }));
      assert.equal(again.value.data?.status, 'SUCCESS');
      assert.equal(again.trips, 1, again.statements.join('\n'));
    }
    assert.equal(delivered.filter((r) => r.correlation_id === correlation_id).length, 1, 'delivered once');
  });
});
