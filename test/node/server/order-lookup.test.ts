/**
 * What a book makes of `lookupOrder`'s answer: a payable order (canonical id, total and balance in
 * paisa-rounded rupees), `IP-412` for `{ paid: true }`, `IP-424` for an unknown order, and a set-up
 * mistake told to `onError` and refused. First the function alone over a kit whose lookup answers as
 * told (pure logic), then `/book` of a handler on loopback against the sandbox.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CODES, HTTP_STATUS_OF_CODE } from '../../../src/protocol/contract.js';
import type { Kit } from '../../../src/server/context.js';
import type { ErrorContext } from '../../../src/server/handler.js';
import { Refusal, type Route } from '../../../src/server/http.js';
import { alreadyPaid, payableOrder } from '../../../src/server/order-lookup.js';
import { SetupRefusal } from '../../../src/server/order-paid.js';
import type { OrderDetails } from '../../../src/server/types.js';
import { openShop } from './shop.js';

/** A kit whose lookup answers `answer`, recording what it was asked and what was reported. */
function kitAnswering(answer: unknown) {
  const asked: Route[] = [];
  const reported: Array<{ error: unknown; context: ErrorContext }> = [];
  const kit = {
    lookup: (_order: unknown, _request: Request, route: Route) => (asked.push(route), Promise.resolve(answer)),
    report: (error: unknown, context: ErrorContext) => void reported.push({ error, context }),
  } as unknown as Kit;
  return { kit, asked, reported };
}

const request = () => new Request('http://127.0.0.1/api/pay/book', { method: 'POST' });

/** The refusal `work` rejects with. */
async function refusalOf(work: Promise<unknown>): Promise<Refusal> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof Refusal, `a Refusal, not ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

describe('payableOrder', () => {
  it('reads a payable order for the book route: its id a string, its amounts rounded to paisa', async () => {
    const { kit, asked, reported } = kitAnswering({ id: 42, amount: 1250.5, balance: 250.25 });
    assert.deepEqual(await payableOrder(kit, { id: 42 }, request()), { id: '42', amount: 1250.5, balance: 250.25, properties: undefined });
    assert.deepEqual(asked, ['book']);
    assert.deepEqual(reported, []);
  });

  it('refuses an order lookupOrder calls paid with IP-412, telling onError nothing', async () => {
    const { kit, reported } = kitAnswering({ paid: true });
    const refusal = await refusalOf(payableOrder(kit, { id: 'A' }, request()));
    assert.equal(refusal.code, CODES.ORDER_ALREADY_PAID);
    assert.equal(refusal.message, 'This order is already paid.');
    assert.deepEqual(reported, []);
  });

  it('refuses an unknown order with IP-424', async () => {
    const refusal = await refusalOf(payableOrder(kitAnswering(undefined).kit, { id: 'A' }, request()));
    assert.equal(refusal.code, CODES.UNKNOWN_ORDER);
  });

  it('a set-up mistake (paid: 1, an amount as a string) is told to onError on the book route and refused IP-500', async () => {
    for (const answer of [{ paid: 1 }, { id: 'A', amount: '1250.50' }]) {
      const { kit, reported } = kitAnswering(answer);
      const refusal = await refusalOf(payableOrder(kit, { id: 'A' }, request()));
      assert.ok(refusal instanceof SetupRefusal, JSON.stringify(answer));
      assert.equal(refusal.code, CODES.INTERNAL);
      assert.equal(reported.length, 1);
      assert.ok(reported[0]!.error instanceof TypeError);
      assert.equal(reported[0]!.context.route, 'book');
    }
  });
});

describe('alreadyPaid', () => {
  it('is a fresh IP-412 refusal each time', () => {
    const first = alreadyPaid();
    assert.ok(first instanceof Refusal);
    assert.deepEqual([first.code, first.message, first.headers], [CODES.ORDER_ALREADY_PAID, 'This order is already paid.', {}]);
    assert.notEqual(alreadyPaid(), first);
  });
});

describe('/book over the real handler', () => {
  it('answers a lookup of { paid: true } with IP-412, and a malformed one with IP-500 told to onError', async () => {
    const answers = new Map<string, unknown>([['PAID', { paid: true }], ['BROKEN', { paid: 'true' }]]);
    // The malformed answers are what a merchant's untyped code may return.
    const shop = await openShop({ lookupOrder: (order) => (answers.get(String(order.id)) ?? { id: String(order.id), amount: 100 }) as OrderDetails });
    try {
      const paid = await shop.post('book', { channel: 'web', order: { id: 'PAID' } }, { 'idempotency-key': crypto.randomUUID() });
      assert.deepEqual([paid.status, paid.body.code], [HTTP_STATUS_OF_CODE[CODES.ORDER_ALREADY_PAID], CODES.ORDER_ALREADY_PAID]);
      const broken = await shop.post('book', { channel: 'web', order: { id: 'BROKEN' } }, { 'idempotency-key': crypto.randomUUID() });
      assert.equal(broken.body.code, CODES.INTERNAL);
      assert.equal(shop.errors.length, 1);
      assert.match(String((shop.errors[0]!.error as Error).message), /"paid" must be true, false or absent/);
      assert.equal((await shop.book('web', 'OPEN')).booking_id.length > 0, true, 'a payable order books');
    } finally {
      await shop.close();
    }
  });
});
