/**
 * One meaning of "paid": every route reads `lookupOrder`'s answer and the kit's payments by one rule,
 * so `/book` (a new key), `/order` (a fresh tab) and `/status` of a booking the store lost (whether the
 * kit takes it back) agree, case by case. A real handler on the memory store, the sandbox, loopback.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../../src/server/index.js';
import { openShop, type Booked, type Shop } from './shop.js';

/** What every route must say of a case: paid, not paid, or a set-up mistake the merchant is told of. */
type Verdict = 'paid' | 'unpaid' | 'setup';

interface Case {
  name: string;
  verdict: Verdict;
  /** `lookupOrder`'s answer for the order, when it is not `{ id, amount: <the shop's total> }`. */
  answer?: (id: string) => unknown;
  /** What happens to the order before the routes are asked (bookings, payments, refunds). */
  before?: (shop: Shop, id: string) => Promise<void>;
  /** Whether `/status` of a lost booking can be asked (the answer alone decides, not the lost store's payments). */
  lost?: boolean;
}

async function bookAndPay(shop: Shop, id: string, charge: number): Promise<Booked> {
  const booked = await shop.book('app', id);
  assert.equal(shop.sandbox.getBooking(booked.booking_id)?.amount, charge, `${id}: the booking charges ${charge}`);
  assert.equal(await shop.pay(booked), 303);
  await shop.sandbox.whenCallbacksSettled();
  return booked;
}

const CASES: Case[] = [
  { name: 'a payable order never paid', verdict: 'unpaid', lost: true },
  { name: "lookupOrder's { paid: true }", verdict: 'paid', answer: () => ({ paid: true }), lost: true },
  {
    name: 'paid in one booking',
    verdict: 'paid',
    before: async (shop, id) => {
      shop.totals.set(id, 1000);
      await bookAndPay(shop, id, 1000);
    },
  },
  {
    name: 'paid in two bookings (600, then the balance of 400 after the total grew)',
    verdict: 'paid',
    before: async (shop, id) => {
      shop.totals.set(id, 600);
      await bookAndPay(shop, id, 600);
      shop.totals.set(id, 1000);
      await bookAndPay(shop, id, 400);
    },
  },
  {
    name: 'paid 600 of a total grown to 1000: the balance is owed',
    verdict: 'unpaid',
    before: async (shop, id) => {
      shop.totals.set(id, 600);
      await bookAndPay(shop, id, 600);
      shop.totals.set(id, 1000);
    },
  },
  { name: 'a balance given (400 of 1000 owed)', verdict: 'unpaid', answer: (id) => ({ id, amount: 1000, balance: 400 }), lost: true },
  {
    name: 'refunded (SUCCESS, then REVERTED)',
    verdict: 'unpaid',
    before: async (shop, id) => {
      const booked = await bookAndPay(shop, id, 500);
      shop.sandbox.revert(booked.booking_id);
      await shop.sandbox.whenCallbacksSettled();
    },
  },
  { name: 'a balance of 0', verdict: 'setup', answer: (id) => ({ id, amount: 1000, balance: 0 }), lost: true },
  { name: 'a balance above the amount', verdict: 'setup', answer: (id) => ({ id, amount: 500, balance: 800 }), lost: true },
  { name: 'a negative balance', verdict: 'setup', answer: (id) => ({ id, amount: 500, balance: -100 }), lost: true },
  { name: '{ paid: 1 }', verdict: 'setup', answer: () => ({ paid: 1 }), lost: true },
  { name: '{ paid: "true" }', verdict: 'setup', answer: () => ({ paid: 'true' }), lost: true },
  { name: '{ id, amount, paid: "true" }', verdict: 'setup', answer: (id) => ({ id, amount: 500, paid: 'true' }), lost: true },
  { name: '{ id, amount, paid: 1 }', verdict: 'setup', answer: (id) => ({ id, amount: 500, paid: 1 }), lost: true },
  { name: '{ id, amount, paid: "t" }', verdict: 'setup', answer: (id) => ({ id, amount: 500, paid: 't' }), lost: true },
];

describe('one meaning of "paid" on every route', () => {
  let shop: Shop;
  /** lookupOrder's answers by order id, set by a case once its bookings are made. */
  const answers = new Map<string, (id: string) => unknown>();
  const lookupOrder = (order: { id?: unknown }) => {
    const id = String(order.id);
    const answer = answers.get(id);
    return (answer ? answer(id) : { id, amount: shop.totals.get(id) ?? 500 }) as never;
  };
  before(async () => {
    shop = await openShop({ lookupOrder });
  });
  after(() => shop.close());

  /** The set-up mistake reached the merchant through onError, under `route`, and the shopper got IP-500. */
  function assertSetup(answer: { status: number; body: { code: string } }, route: string, told: Shop['errors'], what: string): void {
    assert.deepEqual([answer.status, answer.body.code], [500, 'IP-500'], `${what}: ${JSON.stringify(answer.body)}`);
    assert.ok(told.some((e) => e.error instanceof TypeError && e.context.route === route && /lookupOrder/.test((e.error as Error).message)), `${what}: onError told under ${route}`);
  }

  for (const [n, c] of CASES.entries()) {
    test(`/order and /book agree: ${c.name} is ${c.verdict}`, async () => {
      const id = `AGREE-${n}`;
      await c.before?.(shop, id);
      if (c.answer) answers.set(id, c.answer);

      let since = shop.errors.length;
      const order = await shop.post('order', { order: { id } });
      if (c.verdict === 'setup') assertSetup(order, 'order', shop.errors.slice(since), '/order');
      else assert.deepEqual(order.body.data, c.verdict === 'paid' ? { paid: true, status: 'SUCCESS' } : { paid: false }, `/order: ${JSON.stringify(order.body)}`);

      since = shop.errors.length;
      const book = await shop.post('book', { channel: 'app', order: { id } }, { 'idempotency-key': crypto.randomUUID() });
      if (c.verdict === 'setup') assertSetup(book, 'book', shop.errors.slice(since), '/book');
      else if (c.verdict === 'paid') assert.deepEqual([book.status, book.body.code], [409, 'IP-412'], `/book: ${JSON.stringify(book.body)}`);
      else assert.deepEqual([book.status, book.body.code], [200, 'IP-201'], `/book: ${JSON.stringify(book.body)}`);
      if (c.verdict === 'unpaid') {
        // The fresh tab's answer once the order has an open booking: still unpaid, with that booking's status.
        assert.deepEqual((await shop.post('order', { order: { id } })).body.data, { paid: false, status: 'BOOKED' });
      }
    });
  }

  for (const [n, c] of CASES.entries()) {
    if (!c.lost) continue;
    test(`/status of a lost booking agrees: ${c.name} is ${c.verdict}`, async () => {
      const id = `LOST-AGREE-${n}`;
      const booked = (await shop.post('book', { channel: 'app', order: { id } }, { 'idempotency-key': crypto.randomUUID() })).body.data as unknown as Booked & { receipt: string };
      if (c.answer) answers.set(id, c.answer);
      // A second instance whose store never held the booking (a memory store that restarted).
      const store = createMemoryStore();
      const restarted = await openShop({ lookupOrder, store }, {}, shop.sandbox);
      try {
        const status = await restarted.post('status', { booking_id: booked.booking_id, correlation_id: booked.correlation_id, receipt: booked.receipt, order: { id } });
        if (c.verdict === 'setup') {
          assertSetup(status, 'status', restarted.errors, '/status');
        } else {
          assert.deepEqual([status.status, status.body.data?.status], [200, 'BOOKED'], `/status: ${JSON.stringify(status.body)}`);
        }
        // Taken back into the store only when the order is payable: a paid order's booking is not its open one.
        const adopted = await store.getBookingState({ bookingId: booked.booking_id });
        assert.equal(adopted !== undefined, c.verdict === 'unpaid', `adopted: ${adopted !== undefined}`);
      } finally {
        await restarted.close();
      }
    });
  }
});
