/**
 * Funnel rows on the server: the element's attempt id (`Wallet-Pay-Attempt` on `/book` and `/order`)
 * reaches `lookupOrder` and the `onError` context of the request; a malformed one is dropped, never
 * refused; results and errors of a booking carry its `correlation_id`, the key a merchant joins the
 * browser's rows with. Real sandbox, handler on loopback.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTEMPT_HEADER } from '../../../src/protocol/contract.js';
import type { LookupContext } from '../../../src/server/index.js';
import { openShop } from './shop.js';

test('the attempt id reaches lookupOrder on /book and /order; the result of the booking carries its correlation_id', async () => {
  const seen: Array<[string, string | undefined]> = [];
  const shop = await openShop({
    lookupOrder: (order, context: LookupContext) => {
      seen.push([new URL(context.request.url).pathname, context.attempt]);
      return { id: String(order.id), amount: 300 };
    },
  });
  try {
    const booked = await shop.book('app', 'F-1', { [ATTEMPT_HEADER]: 'att_01H-x9' });
    await shop.post('order', { order: { id: 'F-1' } }, { [ATTEMPT_HEADER]: 'A'.repeat(64) });
    assert.deepEqual(seen, [
      ['/api/pay/book', 'att_01H-x9'],
      ['/api/pay/order', 'A'.repeat(64)],
    ]);
    await shop.pay(booked);
    await shop.sandbox.whenCallbacksSettled();
    assert.deepEqual(shop.results.map((r) => r.correlation_id), [booked.correlation_id]);
  } finally {
    await shop.close();
  }
});

test('a malformed attempt id is ignored: the book goes ahead and lookupOrder gets no attempt', async () => {
  const seen: Array<string | undefined> = [];
  const shop = await openShop({
    lookupOrder: (order, context) => {
      seen.push(context.attempt);
      return { id: String(order.id), amount: 300 };
    },
  });
  try {
    const bad = ['', 'A'.repeat(65), 'two words', 'café', 'a;b', 'a.b', '../x'];
    for (const value of bad) {
      const answer = await shop.post('book', { channel: 'app', order: { id: 'F-2' } }, { 'idempotency-key': crypto.randomUUID(), [ATTEMPT_HEADER]: value });
      assert.equal(answer.status, 200, `${JSON.stringify(value)}: ${JSON.stringify(answer.body)}`);
    }
    assert.deepEqual(seen, bad.map(() => undefined));
    assert.deepEqual(shop.errors, []);
  } finally {
    await shop.close();
  }
});

test('onError hears the attempt id of a /book whose lookupOrder failed, and the correlation_id of a booking whose check failed', async () => {
  let shift = 0;
  let serviceUrl: string | undefined;
  const shop = await openShop({
    now: () => Date.now() + shift,
    lookupOrder: (order) => {
      if (order.id === 'broken') throw new Error('the orders table is locked');
      return { id: String(order.id), amount: 300 };
    },
    fetch: (input, init) => fetch(serviceUrl && String(input).endsWith('/status') ? `${serviceUrl}/nowhere` : input, init),
  });
  try {
    const refused = await shop.post('book', { channel: 'app', order: { id: 'broken' } }, { 'idempotency-key': crypto.randomUUID(), [ATTEMPT_HEADER]: 'att-7' });
    assert.equal(refused.body.code, 'IP-500');
    assert.equal(shop.errors.length, 1);
    assert.match(String(shop.errors[0]!.error), /orders table is locked/);
    assert.deepEqual(shop.errors[0]!.context, { route: 'book', attempt: 'att-7' });

    const booked = await shop.book('app', 'F-3');
    // The service's status route goes missing; the pass's failed check names the booking.
    serviceUrl = 'http://127.0.0.1:9';
    shift = 6 * 60_000;
    assert.equal((await shop.handler.reconcile()).failed, 1);
    assert.deepEqual(shop.errors[1]!.context, { route: 'reconcile', correlation_id: booked.correlation_id, booking_id: booked.booking_id });
  } finally {
    await shop.close();
  }
});
