/**
 * `/order` asks the service about an open booking at most once per STATUS_WINDOW_MS, however often and
 * however many tabs ask: concurrent and repeated requests share one answer (and one delivery of a
 * final result). The sandbox's own log counts the status calls it served; the handler's clock is moved
 * by hand, so the window is crossed exactly when the test says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STATUS_WINDOW_MS } from '../../../src/server/order-route.js';
import { openShop, type Shop } from './shop.js';

/** A shop whose handler runs on a clock the test moves, with the sandbox's status calls counted. */
async function shopOnClock(overrides: Parameters<typeof openShop>[0] = {}) {
  const clock = { now: Date.now() };
  const lines: string[] = [];
  const shop = await openShop({ now: () => clock.now, ...overrides }, { log: (line) => lines.push(line) });
  const statusCalls = () => lines.filter((line) => line.startsWith('status asked for booking')).length;
  return { shop, clock, statusCalls };
}

const orderOf = async (shop: Shop, id: string) => (await shop.post('order', { order: { id } })).body.data;

test(`/order: 200 requests for an order with an open booking cost one status call per ${STATUS_WINDOW_MS} ms`, async () => {
  const { shop, clock, statusCalls } = await shopOnClock();
  try {
    await shop.book('app', 'W-1');
    assert.equal(statusCalls(), 0);
    const concurrent = await Promise.all(Array.from({ length: 100 }, () => orderOf(shop, 'W-1')));
    for (const answer of concurrent) assert.deepEqual(answer, { paid: false, status: 'BOOKED' });
    for (let i = 0; i < 100; i++) assert.deepEqual(await orderOf(shop, 'W-1'), { paid: false, status: 'BOOKED' });
    assert.equal(statusCalls(), 1, '200 requests within the window: one status call');
    clock.now += STATUS_WINDOW_MS - 1;
    await orderOf(shop, 'W-1');
    assert.equal(statusCalls(), 1, 'still within the window');
    clock.now += 1;
    await Promise.all(Array.from({ length: 20 }, () => orderOf(shop, 'W-1')));
    assert.equal(statusCalls(), 2, 'the window passed: asked once more');
  } finally {
    await shop.close();
  }
});

test('/order: a payment whose callback was lost is found once the window passes, delivered once to all the requests that asked', async () => {
  // Callbacks go where nothing listens: only the kit's status check learns of the payment.
  const { shop, clock, statusCalls } = await shopOnClock({ callbackUrl: 'http://127.0.0.1:9/callback' });
  try {
    const booked = await shop.book('app', 'W-2');
    assert.deepEqual(await orderOf(shop, 'W-2'), { paid: false, status: 'BOOKED' });
    assert.equal(await shop.pay(booked), 303);
    // Within the window the answer already given is the answer.
    assert.deepEqual(await orderOf(shop, 'W-2'), { paid: false, status: 'BOOKED' });
    clock.now += STATUS_WINDOW_MS;
    const answers = await Promise.all(Array.from({ length: 50 }, () => orderOf(shop, 'W-2')));
    for (const answer of answers) assert.deepEqual(answer, { paid: true, status: 'SUCCESS' });
    assert.equal(statusCalls(), 2);
    assert.deepEqual(shop.results.map((r) => [r.source, r.status, r.booking_id]), [['status', 'SUCCESS', booked.booking_id]]);
    // Paid by the records from now on: no more calls.
    clock.now += STATUS_WINDOW_MS;
    assert.deepEqual(await orderOf(shop, 'W-2'), { paid: true, status: 'SUCCESS' });
    assert.equal(statusCalls(), 2);
  } finally {
    await shop.close();
  }
});

test('/order: a service that cannot be asked is asked once per window too, and the answer falls back to the records', async () => {
  let refused = 0;
  const { shop, clock } = await shopOnClock({
    fetch: (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/status')) {
        refused++;
        return Promise.resolve(new Response('busy', { status: 503 }));
      }
      return fetch(input, init);
    },
  });
  try {
    await shop.book('app', 'W-3');
    const answers = await Promise.all(Array.from({ length: 30 }, () => orderOf(shop, 'W-3')));
    for (const answer of answers) assert.deepEqual(answer, { paid: false });
    assert.equal(refused, 1);
    assert.equal(shop.errors.filter((e) => e.context.route === 'order').length, 1, 'told to onError once');
    clock.now += STATUS_WINDOW_MS;
    await orderOf(shop, 'W-3');
    assert.equal(refused, 2);
  } finally {
    await shop.close();
  }
});
