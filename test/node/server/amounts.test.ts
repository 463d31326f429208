/**
 * What a book charges: the balance of an order paid in part (never its whole total again, and its
 * payment no duplicate), a fresh booking for a key priced back to an amount whose booking was
 * cancelled, amounts rounded to paisa once where they enter the kit, and a `paid` flag that is not a
 * boolean refused as a set-up error.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler, type PaymentHandlerOptions, type PaymentResult } from '../../../src/server/handler.js';
import { createMemoryStore } from '../../../src/server/index.js';
import { payAtWallet as pay, postRoute as post, onSandbox } from './helpers.js';

const KEY = 'amounts-access-key';
const PRODUCT = 'AMT01';
const newKey = () => `amounts-${crypto.randomUUID()}`;


describe('what a book charges', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
  });
  after(() => sandbox.close());
  const charged = (order: string) =>
    sandbox
      .listBookings()
      .filter((b) => b.properties.merchant_order === order && b.status === 'SUCCESS')
      .reduce((sum, b) => sum + b.amount, 0);

  function shop(lookupOrder: PaymentHandlerOptions['lookupOrder']) {
    const results: PaymentResult[] = [];
    const errors: unknown[] = [];
    const handler = createPaymentHandler({
      ...onSandbox(sandbox),
      store: createMemoryStore(),
      lookupOrder,
      onPaymentResult: (result) => void results.push(result),
      onError: (error) => void errors.push(error),
    });
    return { handler, results, errors };
  }

  async function payFor(handler: PaymentHandler, id: string): Promise<string> {
    const booked = (await post(handler, 'book', { channel: 'app', order: { id } }, newKey())).body.data!;
    await pay(booked.deeplink!);
    assert.equal((await post(handler, 'status', { booking_id: booked.booking_id, correlation_id: booked.correlation_id })).body.data?.status, 'SUCCESS');
    return booked.booking_id;
  }

  test('an order paid 1000 whose total grew to 1500 books the balance, 500: 1500 in all, never 2500', async () => {
    let total = 1000;
    const { handler, results, errors } = shop((order) => ({ id: String(order.id), amount: total }));
    await payFor(handler, 'GROW-B1');
    total = 1500;
    const more = await post(handler, 'book', { channel: 'app', order: { id: 'GROW-B1' } }, newKey());
    assert.equal(more.status, 200, JSON.stringify(more.body));
    assert.equal(sandbox.getBooking(more.body.data!.booking_id)?.amount, 500);
    await pay(more.body.data!.deeplink!);
    await post(handler, 'status', { booking_id: more.body.data!.booking_id, correlation_id: more.body.data!.correlation_id });
    assert.equal(charged('GROW-B1'), 1500);
    // The balance is a payment of its own, not a second payment of the order to refund.
    assert.deepEqual(results.map((r) => [r.amount, r.duplicate]), [[1000, undefined], [500, undefined]]);
    assert.deepEqual(errors, []);
    // Paid in full now: the next book is refused.
    assert.equal((await post(handler, 'book', { channel: 'app', order: { id: 'GROW-B1' } }, newKey())).body.code, 'IP-412');
  });

  test('a lookupOrder that answers the balance (`balance`) books it, and is not refused IP-412', async () => {
    let answer: { id: string; amount: number; balance?: number } = { id: 'GROW-B2', amount: 1000 };
    const { handler } = shop(() => answer);
    await payFor(handler, 'GROW-B2');
    // The shop's records: total 1500, 1000 of it received; and 200 of the rest paid at the counter.
    answer = { id: 'GROW-B2', amount: 1500, balance: 300 };
    const more = await post(handler, 'book', { channel: 'app', order: { id: 'GROW-B2' } }, newKey());
    assert.equal(more.status, 200, JSON.stringify(more.body));
    assert.equal(sandbox.getBooking(more.body.data!.booking_id)?.amount, 300);
    // A balance above what the kit knows is still owed books no more than that.
    answer = { id: 'GROW-B2', amount: 1500, balance: 800 };
    const capped = await post(handler, 'book', { channel: 'app', order: { id: 'GROW-B2' } }, newKey());
    assert.equal(sandbox.getBooking(capped.body.data!.booking_id)?.amount, 500);
  });

  test('a balance replayed with its key answers its own booking; a key re-priced and priced back books anew, never its cancelled booking', async () => {
    let total = 1000;
    const { handler } = shop((order) => ({ id: String(order.id), amount: total }));
    await payFor(handler, 'PRICE-C1');
    total = 1600;
    const key = newKey();
    const balance = (await post(handler, 'book', { channel: 'app', order: { id: 'PRICE-C1' } }, key)).body.data!;
    assert.equal(sandbox.getBooking(balance.booking_id)?.amount, 600);
    assert.equal((await post(handler, 'book', { channel: 'app', order: { id: 'PRICE-C1' } }, key)).body.data?.booking_id, balance.booking_id);
    total = 1800;
    const repriced = (await post(handler, 'book', { channel: 'app', order: { id: 'PRICE-C1' } }, key)).body.data!;
    assert.equal(sandbox.getBooking(repriced.booking_id)?.amount, 800);
    assert.equal(sandbox.getBooking(balance.booking_id)?.status, 'CANCELED');
    total = 1600;
    const back = await post(handler, 'book', { channel: 'app', order: { id: 'PRICE-C1' } }, key);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.notEqual(back.body.data!.booking_id, balance.booking_id, 'not the cancelled booking of this price');
    assert.equal(sandbox.getBooking(back.body.data!.booking_id)?.status, 'BOOKED');
    assert.equal(sandbox.getBooking(back.body.data!.booking_id)?.amount, 600);
    assert.equal(sandbox.getBooking(repriced.booking_id)?.status, 'CANCELED');
    // And once more up and back: each time the open booking of the price now.
    total = 1800;
    const up = (await post(handler, 'book', { channel: 'app', order: { id: 'PRICE-C1' } }, key)).body.data!;
    assert.equal(sandbox.getBooking(up.booking_id)?.status, 'BOOKED');
    assert.equal((await post(handler, 'book', { channel: 'app', order: { id: 'PRICE-C1' } }, key)).body.data?.booking_id, up.booking_id);
  });

  test('a key re-priced and priced back (no payment) books anew at the first price', async () => {
    let total = 1000;
    const { handler } = shop((order) => ({ id: String(order.id), amount: total }));
    const key = newKey();
    const first = (await post(handler, 'book', { channel: 'app', order: { id: 'PRICE-C2' } }, key)).body.data!;
    total = 1200;
    await post(handler, 'book', { channel: 'app', order: { id: 'PRICE-C2' } }, key);
    assert.equal(sandbox.getBooking(first.booking_id)?.status, 'CANCELED');
    total = 1000;
    const back = (await post(handler, 'book', { channel: 'app', order: { id: 'PRICE-C2' } }, key)).body.data!;
    assert.notEqual(back.booking_id, first.booking_id);
    assert.equal(sandbox.getBooking(back.booking_id)?.status, 'BOOKED');
    assert.equal(sandbox.getBooking(back.booking_id)?.amount, 1000);
  });

  test('`paid` other than true, false or absent (1, "true", "t", 0) is a set-up error: told, nothing booked', async () => {
    for (const paid of [1, 'true', 't', 0, 'false', null]) {
      const before = sandbox.listBookings().length;
      const { handler, errors } = shop(() => ({ id: 'FLAG-D1', amount: 100, paid }) as never);
      const answer = await post(handler, 'book', { channel: 'app', order: { id: 'FLAG-D1' } }, newKey());
      assert.equal(answer.body.code, 'IP-500', `paid: ${JSON.stringify(paid)}: ${JSON.stringify(answer.body)}`);
      assert.equal(sandbox.listBookings().length, before, `paid: ${JSON.stringify(paid)} booked nothing`);
      assert.match(String(errors[0]), /"paid" must be true, false or absent/);
    }
    const { handler } = shop(() => ({ id: 'FLAG-D2', amount: 100, paid: false }));
    assert.equal((await post(handler, 'book', { channel: 'app', order: { id: 'FLAG-D2' } }, newKey())).status, 200);
  });

  test("properties.merchant_order from lookupOrder cannot override the kit's own: the service records the order's id", async () => {
    const { handler } = shop(() => ({ id: 'PROP-I1', amount: 10, properties: { merchant_order: 'SOMEONE-ELSE', item: 'Tea' } }));
    const answer = await post(handler, 'book', { channel: 'app', order: { id: 'PROP-I1' } }, newKey());
    assert.deepEqual(sandbox.getBooking(answer.body.data!.booking_id)?.properties, { merchant_order: 'PROP-I1', item: 'Tea' });
  });

  test('a `now` that returns NaN (or anything but a finite number) is refused when the handler is made', () => {
    for (const now of [() => NaN, () => Infinity, () => '1700000000000']) {
      assert.throws(
        () => createPaymentHandler({
          ...onSandbox(sandbox),
          store: createMemoryStore(),
          lookupOrder: () => undefined,
          onPaymentResult: () => undefined,
          now: now as () => number,
        }),
        /now must be a function returning milliseconds since the epoch .*got/,
      );
    }
  });

  test('an amount such as 0.1 + 0.2 is rounded to paisa once, before it is signed and sent: the service books 0.3', async () => {
    const { handler, errors } = shop(() => ({ id: 'ROUND-E1', amount: 0.1 + 0.2 }));
    const answer = await post(handler, 'book', { channel: 'app', order: { id: 'ROUND-E1' } }, newKey());
    assert.equal(answer.status, 200, `${JSON.stringify(answer.body)} ${String(errors[0])}`);
    assert.equal(sandbox.getBooking(answer.body.data!.booking_id)?.amount, 0.3);
    const sum = shop(() => ({ id: 'ROUND-E2', amount: 1000.1 + 0.2 }));
    const other = await post(sum.handler, 'book', { channel: 'app', order: { id: 'ROUND-E2' } }, newKey());
    assert.equal(sandbox.getBooking(other.body.data!.booking_id)?.amount, 1000.3);
  });
});
