/**
 * One order, one payment: a booking the kit lost is confirmed with the service instead of paid again,
 * every spelling of one order is one order, an order paid at an older total is not locked, results
 * that contradict each other are not delivered, and lookupOrder's mistakes are named.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler, type PaymentHandlerOptions, type PaymentResult } from '../../../../src/server/handler.js';
import { createMemoryStore, type PaymentStore } from '../../../../src/server/index.js';
import { createServiceClient } from '../../../../src/providers/esewa-intent/client.js';
import { nodeSign, postRoute, type ResultData, onSandbox, payAtWallet as pay } from '../helpers.js';

const KEY = 'orders-access-key';
const PRODUCT = 'ORD01';
const newKey = () => `orders-${crypto.randomUUID()}`;

const post = (handler: PaymentHandler, route: string, body: unknown, key?: string) => postRoute<ResultData>(handler, route, body, key);

/**
 * A merchant as the docs describe it: orders with a total, a payment recorded by onPaymentResult when
 * it covers the total, and a lookup that says paid once it is.
 */
class Shop {
  totals = new Map<string, number>();
  paid = new Map<string, number>();
  results: PaymentResult[] = [];
  errors: unknown[] = [];
  /** The shop's own id for an order however the browser spells it: NFKC, case-folded, trimmed. */
  canonical = (id: unknown) => String(id).normalize('NFKC').toLowerCase().trim();

  options(sandbox: Sandbox, store: PaymentStore = createMemoryStore()): PaymentHandlerOptions {
    return {
      ...onSandbox(sandbox),
      store,
      lookupOrder: (order) => {
        const id = this.canonical(order.id);
        const total = this.totals.get(id);
        if (total === undefined) return undefined;
        if ((this.paid.get(id) ?? 0) >= total) return { paid: true };
        return { id, amount: total };
      },
      onPaymentResult: (result) => {
        this.results.push(result);
        if (result.status !== 'SUCCESS' || !result.order_id || result.amount === undefined) return;
        // Paid in full only when the amount covers the total now (numbers, not strings).
        this.paid.set(result.order_id, (this.paid.get(result.order_id) ?? 0) + result.amount);
      },
      onError: (error) => this.errors.push(error),
    };
  }
}

describe('one order, one payment', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
  });
  after(() => sandbox.close());
  const successes = (order: string) => sandbox.listBookings().filter((b) => b.properties.merchant_order === order && b.status === 'SUCCESS');

  test('a booking paid while the server restarted (memory store) is confirmed with the service on /status, delivered with its order, and the order is not charged twice', async () => {
    const shop = new Shop();
    shop.totals.set('lost-1', 900);
    const first = createPaymentHandler(shop.options(sandbox));
    const booked = (await post(first, 'book', { channel: 'app', order: { id: 'LOST-1' } }, newKey())).body.data!;
    await pay(booked.deeplink!);
    // The server restarts: its memory store is empty. The browser comes back with the booking it kept.
    const restarted = createPaymentHandler(shop.options(sandbox));
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id, receipt: booked.receipt };
    const status = await post(restarted, 'status', { ...ids, order: { id: 'LOST-1' } });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    assert.equal(status.body.data?.status, 'SUCCESS');
    const delivered = shop.results.filter((r) => r.booking_id === booked.booking_id);
    assert.deepEqual(
      delivered.map((r) => [r.source, r.status, r.order, r.amount, r.transaction_uuid]),
      [['status', 'SUCCESS', { id: 'LOST-1' }, 900, sandbox.getBooking(booked.booking_id)!.transaction_uuid]],
    );
    // The shop recorded it from the result (the order travels with it), so paying again is refused.
    shop.paid.set('lost-1', delivered[0]!.amount!);
    const again = await post(restarted, 'book', { channel: 'app', order: { id: 'LOST-1' } }, newKey());
    assert.equal(again.body.code, 'IP-412', JSON.stringify(again.body));
    assert.equal(successes('lost-1').length, 1, 'one SUCCESS at the service');
    // Asked again: delivered once.
    await post(restarted, 'status', ids);
    assert.equal(shop.results.filter((r) => r.booking_id === booked.booking_id).length, 1);
  });

  test('a lost booking: without the order, or with another order, the result is delivered without an order; never attributed to the wrong one', async () => {
    const shop = new Shop();
    shop.totals.set('lost-2', 300);
    const booked = (await post(createPaymentHandler(shop.options(sandbox)), 'book', { channel: 'web', order: { id: 'LOST-2' } }, newKey())).body.data!;
    await pay(`${sandbox.linksUrl}/pay/${booked.booking_id}`);
    const restarted = createPaymentHandler(shop.options(sandbox));
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id, receipt: booked.receipt };
    assert.equal((await post(restarted, 'status', { ...ids, order: { id: 'EXPENSIVE-9' } })).body.data?.status, 'SUCCESS');
    const [result] = shop.results;
    assert.equal(result?.order, undefined, 'a presented order the booking was not made for is not believed');
    assert.equal(result?.amount, undefined);
    assert.equal(result?.booking_id, booked.booking_id);
    assert.equal(result?.reference_code, sandbox.getBooking(booked.booking_id)!.reference_code);
  });

  test('a lost booking not paid stays open (the element waits), cancels through the kit, and only then is a new payment booked', async () => {
    const shop = new Shop();
    shop.totals.set('lost-3', 450);
    const booked = (await post(createPaymentHandler(shop.options(sandbox)), 'book', { channel: 'app', order: { id: 'LOST-3' } }, newKey())).body.data!;
    const restarted = createPaymentHandler(shop.options(sandbox));
    const ids = { booking_id: booked.booking_id, correlation_id: booked.correlation_id, receipt: booked.receipt };
    assert.equal((await post(restarted, 'status', ids)).body.data?.status, 'BOOKED');
    const cancelled = await post(restarted, 'cancel', { ...ids, order: { id: 'LOST-3' } });
    assert.equal(cancelled.body.code, 'IP-210', JSON.stringify(cancelled.body));
    assert.equal(sandbox.getBooking(booked.booking_id)?.status, 'CANCELED');
    assert.deepEqual(shop.results.map((r) => [r.source, r.status, r.order]), [['cancel', 'CANCELED', { id: 'LOST-3' }]]);
    // Ids the service does not know for this merchant (or a wrong correlation id) stay IP-404.
    assert.equal((await post(restarted, 'status', { ...ids, correlation_id: 'guessed' })).body.code, 'IP-404');
    assert.equal((await post(restarted, 'status', { booking_id: 'BK-unknown', correlation_id: 'c' })).body.code, 'IP-404');
    const other = await startSandbox({ accessKey: KEY, productCode: 'OTHER01' });
    try {
      const theirs = (await createServiceClientFor(other).book({ amount: 5, transaction_uuid: 'their-1', callback_url: 'http://127.0.0.1:9/c', redirect_url: 'http://127.0.0.1:9/r' }));
      assert.equal((await post(restarted, 'status', { booking_id: theirs.booking_id, correlation_id: theirs.correlation_id })).body.code, 'IP-404');
    } finally {
      await other.close();
    }
  });

  test("every spelling of one order the merchant's lookup accepts is one order: one payment", async () => {
    const shop = new Shop();
    shop.totals.set('café-1', 500);
    shop.totals.set('7', 70);
    const handler = createPaymentHandler(shop.options(sandbox));
    for (const [spellings, id] of [
      [[{ id: 'café-1' }, { id: 'CAFÉ-1' }, { id: 'cafe\u0301-1' }, { id: 'ｃａｆé－１' }], 'café-1'],
      [[{ id: '7' }, { id: 7 }, { id: '7', note: '' }], '7'],
    ] as const) {
      const deeplinks: string[] = [];
      for (const order of spellings) {
        const answer = await post(handler, 'book', { channel: 'app', order }, newKey());
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        deeplinks.push(answer.body.data!.deeplink!);
      }
      // Each tab's booking cancelled the one before: only the last is payable.
      for (const deeplink of deeplinks) await pay(deeplink).catch(() => {});
      assert.equal(successes(id).length, 1, `${id}: ${sandbox.listBookings().filter((b) => b.properties.merchant_order === id).map((b) => b.status).join(',')}`);
      const refused = await post(handler, 'book', { channel: 'web', order: spellings[0] }, newKey());
      assert.equal(refused.body.code, 'IP-412', 'the order is paid, whichever spelling');
    }
  });

  test('a replayed key whose order now costs more books anew at the new amount, the old booking cancelled first', async () => {
    const shop = new Shop();
    shop.totals.set('grow-1', 1000);
    const handler = createPaymentHandler(shop.options(sandbox));
    const key = newKey();
    const first = (await post(handler, 'book', { channel: 'app', order: { id: 'GROW-1' } }, key)).body.data!;
    shop.totals.set('grow-1', 1500);
    const second = (await post(handler, 'book', { channel: 'app', order: { id: 'GROW-1' } }, key)).body.data!;
    assert.notEqual(second.booking_id, first.booking_id);
    assert.equal(sandbox.getBooking(first.booking_id)?.status, 'CANCELED');
    assert.equal(sandbox.getBooking(second.booking_id)?.amount, 1500);
    // The replay at the new amount is the new booking, once.
    assert.equal((await post(handler, 'book', { channel: 'app', order: { id: 'GROW-1' } }, key)).body.data?.booking_id, second.booking_id);
  });

  test('an order paid at an older, lower total is not locked: a new book collects the balance; a payment that covers it is IP-412', async () => {
    const shop = new Shop();
    shop.totals.set('grow-2', 1000);
    const handler = createPaymentHandler({ ...shop.options(sandbox), lookupOrder: (order) => ({ id: shop.canonical(order.id), amount: shop.totals.get(shop.canonical(order.id))! }) });
    const paid = (await post(handler, 'book', { channel: 'app', order: { id: 'GROW-2' } }, newKey())).body.data!;
    await pay(paid.deeplink!);
    assert.equal((await post(handler, 'status', { booking_id: paid.booking_id, correlation_id: paid.correlation_id })).body.data?.status, 'SUCCESS');
    shop.totals.set('grow-2', 1500);
    const more = await post(handler, 'book', { channel: 'app', order: { id: 'GROW-2' } }, newKey());
    assert.equal(more.status, 200, JSON.stringify(more.body));
    assert.equal(sandbox.getBooking(more.body.data!.booking_id)?.amount, 500);
    // Back at 1000 (the shop took an item off): the payment of 1000 covers it.
    shop.totals.set('grow-2', 1000);
    assert.equal((await post(handler, 'book', { channel: 'app', order: { id: 'GROW-2' } }, newKey())).body.code, 'IP-412');
  });

  test('lookupOrder may say an order is paid: IP-412, "already paid"', async () => {
    const shop = new Shop();
    const handler = createPaymentHandler({ ...shop.options(sandbox), lookupOrder: () => ({ paid: true }) });
    const answer = await post(handler, 'book', { channel: 'app', order: { id: 'P-1' } }, newKey());
    assert.equal(answer.status, 409);
    assert.equal(answer.body.code, 'IP-412');
    assert.match(answer.body.error_message!, /already paid/);
  });

  test("an amount of the wrong type (node-postgres' numeric string) or a missing id names the type, the value and the fix", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ id: 'N-1', amount: '1250.5' }, /amount of type string \(a string "1250\.5"\).*number in rupees with at most two decimals.*Number\(row\.total\)/],
      [{ id: 'N-1', amount: 12.345 }, /amount number 12\.345; it must be a positive number of rupees with at most two decimals/],
      [{ amount: 100 }, /order id undefined; return the order's own id from your records as "id"/],
      ['1250', /must return an object such as \{ id, amount \}, \{ paid: true \} or undefined; got a string "1250"/],
    ];
    // Two decimals that binary floating point cannot hold exactly are fine (0.29 * 100 is 28.999…).
    const fine = createPaymentHandler({ ...new Shop().options(sandbox), lookupOrder: () => ({ id: 'N-2', amount: 0.29 }) });
    assert.equal((await post(fine, 'book', { channel: 'app', order: { id: 'N-2' } }, newKey())).status, 200);
    for (const [details, message] of cases) {
      const shop = new Shop();
      const handler = createPaymentHandler({ ...shop.options(sandbox), lookupOrder: () => details as never });
      const answer = await post(handler, 'book', { channel: 'app', order: { id: 'N-1' } }, newKey());
      assert.equal(answer.body.code, 'IP-500');
      assert.match(answer.body.error_message!, /could not price this order/);
      assert.match(String(shop.errors[0]), message);
    }
  });

  test('one rule for contradicting statuses: what says money moved (SUCCESS, REVERTED after its SUCCESS) is delivered, FAILED or CANCELED after a SUCCESS is not; each contradiction is told', async () => {
    const shop = new Shop();
    for (const id of ['t-1', 't-2', 't-3', 't-4']) shop.totals.set(id, 200);
    let failSuccess = 0;
    const options = shop.options(sandbox);
    const handler = createPaymentHandler({
      ...options,
      onPaymentResult: (result) => {
        if (result.status === 'SUCCESS' && failSuccess > 0) {
          failSuccess--;
          throw new Error('the order database is down');
        }
        return options.onPaymentResult(result);
      },
    });
    const callback = (booking: { correlation_id: string }, status: string, amount = '200') => {
      const reference = 'REF-T';
      const message = `product_code=${PRODUCT},amount=${amount},reference_code=${reference},correlation_id=${booking.correlation_id},status=${status}`;
      return post(handler, 'callback', {
        product_code: PRODUCT,
        amount: Number(amount),
        reference_code: reference,
        correlation_id: booking.correlation_id,
        status,
        signed_field_names: 'product_code,amount,reference_code,correlation_id,status',
        signature: nodeSign(message, KEY),
      });
    };
    const paid = (await post(handler, 'book', { channel: 'app', order: { id: 'T-1' } }, newKey())).body.data!;
    assert.equal((await callback(paid, 'SUCCESS')).status, 200);
    const failed = await callback(paid, 'FAILED');
    assert.equal(failed.status, 200, 'answered, so the service does not retry what can never be delivered');
    const cancelled = (await post(handler, 'book', { channel: 'app', order: { id: 'T-2' } }, newKey())).body.data!;
    assert.equal((await post(handler, 'cancel', { booking_id: cancelled.booking_id, correlation_id: cancelled.correlation_id })).body.data?.status, 'CANCELED');
    // A refund of a booking that ended CANCELED: the money moved, so its SUCCESS comes first, then the refund.
    assert.equal((await callback(cancelled, 'REVERTED')).status, 200);
    assert.deepEqual(shop.results.map((r) => [r.booking_id, r.status]), [
      [paid.booking_id, 'SUCCESS'],
      [cancelled.booking_id, 'CANCELED'],
      [cancelled.booking_id, 'SUCCESS'],
      [cancelled.booking_id, 'REVERTED'],
    ]);
    const told = shop.errors.map(String);
    assert.equal(told.length, 2, told.join(' | '));
    assert.match(told[0]!, new RegExp(`Impossible transition: callback reported FAILED for booking ${paid.booking_id} after its SUCCESS; not delivered`));
    assert.match(told[1]!, new RegExp(`Unexpected transition: callback reported REVERTED for booking ${cancelled.booking_id}, which ended CANCELED; delivered after its SUCCESS`));
    // A refund after the SUCCESS is a result.
    assert.equal((await callback(paid, 'REVERTED')).status, 200);
    assert.deepEqual(shop.results.slice(4).map((r) => [r.booking_id, r.status]), [[paid.booking_id, 'REVERTED']]);

    // A SUCCESS seen but not delivered (its hook failed), then the refund: the hook gets the SUCCESS first.
    const third = (await post(handler, 'book', { channel: 'app', order: { id: 'T-3' } }, newKey())).body.data!;
    failSuccess = 1;
    assert.equal((await callback(third, 'SUCCESS')).status, 500, 'the hook failed: the service is to retry');
    assert.equal((await callback(third, 'REVERTED')).status, 200);
    assert.deepEqual(shop.results.slice(5).map((r) => [r.booking_id, r.status]), [[third.booking_id, 'SUCCESS'], [third.booking_id, 'REVERTED']]);
    assert.equal(shop.errors.length, 3, 'the failed hook is told, nothing impossible');

    // A SUCCESS after a FAILED: the service says the money arrived, so it is delivered.
    const late = (await post(handler, 'book', { channel: 'app', order: { id: 'T-4' } }, newKey())).body.data!;
    assert.equal((await callback(late, 'FAILED')).status, 200);
    assert.equal((await callback(late, 'SUCCESS')).status, 200);
    assert.deepEqual(shop.results.slice(7).map((r) => [r.booking_id, r.status]), [[late.booking_id, 'FAILED'], [late.booking_id, 'SUCCESS']]);
  });
});

function createServiceClientFor(sandbox: Sandbox) {
  return createServiceClient({ baseUrl: sandbox.baseUrl, accessKey: KEY, productCode: 'OTHER01' });
}
