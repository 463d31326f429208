/**
 * `POST /order`: a page that lost its booking (a fresh tab) asks whether the order is paid, and the
 * kit answers from its own records (a SUCCESS not followed by a REVERTED), asking the service about a
 * booking still open, never only from what `lookupOrder` says. Real sandbox, handler on loopback.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore, StoreUnavailableError, type PaymentStore } from '../../../src/server/index.js';
import { openShop } from './shop.js';

test('/order: unpaid, then BOOKED while a booking is open, then paid after the payment, though lookupOrder never says paid', async () => {
  const shop = await openShop();
  try {
    assert.deepEqual(await shop.post('order', { order: { id: 'P-1' } }), {
      status: 200,
      body: { code: 'IP-201', message: 'Order state fetched', data: { paid: false } },
    });
    const booked = await shop.book('app', 'P-1');
    assert.deepEqual((await shop.post('order', { order: { id: 'P-1' } })).body.data, { paid: false, status: 'BOOKED' });
    assert.equal(await shop.pay(booked), 303);
    await shop.sandbox.whenCallbacksSettled();
    assert.deepEqual(shop.results.map((r) => [r.source, r.status]), [['callback', 'SUCCESS']]);
    assert.deepEqual((await shop.post('order', { order: { id: 'P-1' } })).body.data, { paid: true, status: 'SUCCESS' });
    // Another order of the same shop is not paid by it.
    assert.deepEqual((await shop.post('order', { order: { id: 'P-2' } })).body.data, { paid: false });
  } finally {
    await shop.close();
  }
});

test('/order: a payment whose callback never came is found at the service, delivered once, and answered paid', async () => {
  // The sandbox's callbacks go to a port where nothing listens: only the kit's own status check learns of it.
  const shop = await openShop({ callbackUrl: 'http://127.0.0.1:9/callback' });
  try {
    const booked = await shop.book('app', 'P-3');
    await shop.pay(booked);
    await shop.sandbox.whenCallbacksSettled();
    assert.equal(shop.results.length, 0);
    assert.deepEqual((await shop.post('order', { order: { id: 'P-3' } })).body.data, { paid: true, status: 'SUCCESS' });
    assert.deepEqual(shop.results.map((r) => [r.source, r.status, r.booking_id]), [['status', 'SUCCESS', booked.booking_id]]);
    // From the records now: no second delivery.
    assert.deepEqual((await shop.post('order', { order: { id: 'P-3' } })).body.data, { paid: true, status: 'SUCCESS' });
    assert.equal(shop.results.length, 1);
  } finally {
    await shop.close();
  }
});

test('/order: a refunded payment (REVERTED) and a payment below the order\'s total now are not paid', async () => {
  const shop = await openShop();
  try {
    const refunded = await shop.book('app', 'P-4');
    await shop.pay(refunded);
    await shop.sandbox.whenCallbacksSettled();
    shop.sandbox.revert(refunded.booking_id);
    await shop.sandbox.whenCallbacksSettled();
    assert.deepEqual(shop.results.map((r) => r.status), ['SUCCESS', 'REVERTED']);
    assert.deepEqual((await shop.post('order', { order: { id: 'P-4' } })).body.data, { paid: false });

    const grown = await shop.book('app', 'P-5');
    await shop.pay(grown);
    await shop.sandbox.whenCallbacksSettled();
    assert.deepEqual((await shop.post('order', { order: { id: 'P-5' } })).body.data, { paid: true, status: 'SUCCESS' });
    shop.totals.set('P-5', 750);
    assert.deepEqual((await shop.post('order', { order: { id: 'P-5' } })).body.data, { paid: false });
  } finally {
    await shop.close();
  }
});

test('/order: lookupOrder\'s { paid: true } is paid; an order it does not know is IP-424', async () => {
  const shop = await openShop({ lookupOrder: (order) => (order.id === 'settled' ? { paid: true } : order.id === 'P-6' ? { id: 'P-6', amount: 20 } : undefined) });
  try {
    assert.deepEqual((await shop.post('order', { order: { id: 'settled' } })).body.data, { paid: true, status: 'SUCCESS' });
    assert.deepEqual((await shop.post('order', { order: { id: 'P-6' } })).body.data, { paid: false });
    const unknown = await shop.post('order', { order: { id: 'nobody-sells-this' } });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.code, 'IP-424');
  } finally {
    await shop.close();
  }
});

test('/order: a malformed body is refused with IP-422 and a message naming the fix; other methods are 405', async () => {
  const shop = await openShop();
  try {
    for (const [body, pattern] of [
      [{}, /Missing field\(s\): order/],
      [{ order: 'P-1' }, /"order" must be the order object sent to \/book/],
      [{ order: null }, /"order" must be the order object/],
      [{ order: { id: 'P-1' }, channel: 'app' }, /Unexpected field\(s\): "channel"/],
      ['[1]', /must be a JSON object/],
      ['{"order":', /not valid JSON/],
    ] as const) {
      const answer = await shop.post('order', body);
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.equal(answer.body.code, 'IP-422');
      assert.match(answer.body.error_message!, pattern);
    }
    let deep: unknown = { id: 'P-1' };
    for (let i = 0; i < 40; i++) deep = { inner: deep };
    assert.equal((await shop.post('order', { order: deep })).body.code, 'IP-422');
    const get = await fetch(`${shop.url}/api/pay/order`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  } finally {
    await shop.close();
  }
});

test('/order: a store that cannot answer is IP-503 with Retry-After', async () => {
  const inner = createMemoryStore();
  let down = false;
  const store = Object.fromEntries(
    Object.entries(inner).map(([name, method]) => [
      name,
      (...args: unknown[]) => (down ? Promise.reject(new StoreUnavailableError('unreachable', 'The database cannot be reached.')) : (method as (...a: unknown[]) => Promise<unknown>).apply(inner, args)),
    ]),
  ) as unknown as PaymentStore;
  const shop = await openShop({ store });
  try {
    await shop.book('app', 'P-7');
    down = true;
    const answer = await fetch(`${shop.url}/api/pay/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order":{"id":"P-7"}}' });
    assert.equal(answer.status, 503);
    assert.equal(answer.headers.get('retry-after'), '2');
    assert.equal(((await answer.json()) as { code: string }).code, 'IP-503');
    down = false;
    assert.deepEqual((await shop.post('order', { order: { id: 'P-7' } })).body.data, { paid: false, status: 'BOOKED' });
  } finally {
    await shop.close();
  }
});
