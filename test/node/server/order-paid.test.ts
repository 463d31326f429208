/**
 * The one reader of lookupOrder's answer and the one rule of "paid" (order-paid.ts), as functions:
 * what is payable, paid, unknown or a set-up mistake, and what a read order owes once the kit's
 * delivered payments are counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countedOpen, isPaid, owedPaise, paidPaiseOf, readLookup } from '../../../src/server/order-paid.js';
import { sampleBooking } from '../../../src/server/store-suite.js';

test('readLookup: payable, paid, unknown, and every malformed answer named', () => {
  assert.deepEqual(readLookup(undefined), { kind: 'unknown' });
  assert.deepEqual(readLookup(null), { kind: 'unknown' });
  assert.deepEqual(readLookup({ paid: true }), { kind: 'paid' });
  assert.deepEqual(readLookup({ id: 7, amount: 0.1 + 0.2, paid: false }), { kind: 'payable', order: { id: '7', amount: 0.3, properties: undefined } });
  assert.deepEqual(readLookup({ id: 'A', amount: 1000, balance: 400 }), { kind: 'payable', order: { id: 'A', amount: 1000, balance: 400, properties: undefined } });
  assert.deepEqual(readLookup({ id: 'A', amount: 1000, balance: 1000 }), { kind: 'payable', order: { id: 'A', amount: 1000, balance: 1000, properties: undefined } });
  for (const [answer, named] of [
    [{ paid: 1 }, /"paid" must be true, false or absent/],
    [{ paid: 'true' }, /"paid" must be true/],
    [{ id: 'A', amount: 5, paid: 't' }, /"paid" must be true/],
    [{ id: 'A', amount: 5, paid: null }, /"paid" must be true/],
    [{ id: 'A', amount: 1000, balance: 0 }, /balance number 0; .*{ paid: true }/],
    [{ id: 'A', amount: 1000, balance: -1 }, /balance number -1/],
    [{ id: 'A', amount: 500, balance: 800 }, /balance of 800 above the amount 500/],
    [{ id: 'A', amount: 500, balance: '100' }, /balance a string "100"/],
    [{ id: 'A', amount: '500' }, /Number\(row.total\)/],
    [{ id: 'A', amount: 0 }, /positive number of rupees/],
    [{ id: '', amount: 5 }, /order id an empty string/],
    [{ amount: 5 }, /order id undefined/],
    ['yes', /must return an object/],
    [[], /must return an object/],
  ] as const) {
    const read = readLookup(answer);
    assert.equal(read.kind, 'malformed', JSON.stringify(answer));
    assert.match((read as { problem: string }).problem, named, JSON.stringify(answer));
  }
});

test('owedPaise and isPaid: the total less what was paid, never more than the balance; { paid: true } owes nothing', () => {
  const order = { id: 'A', amount: 1000 };
  assert.equal(owedPaise('paid', 0), 0);
  assert.equal(isPaid('paid', 0), true);
  assert.equal(owedPaise(order, 0), 100_000);
  assert.equal(isPaid(order, 60_000), false, 'paid 600 of 1000');
  assert.equal(isPaid(order, 60_000 + 40_000), true, 'paid in two bookings: 600, then the balance of 400');
  assert.equal(isPaid(order, 120_000), true, 'paid more than the total');
  assert.equal(owedPaise({ ...order, balance: 400 }, 0), 40_000, 'the balance the records give');
  assert.equal(owedPaise({ ...order, balance: 400 }, 70_000), 30_000, 'the total less the payments, below the balance');
});

test('paidPaiseOf and countedOpen: the store\'s paid amount, else its one paid booking', () => {
  const paid = { ...sampleBooking(1), amount: 600 };
  const open = { ...sampleBooking(2), amount: 400 };
  assert.equal(paidPaiseOf({ open: [], paid: undefined }), 0);
  assert.equal(paidPaiseOf({ open: [], paid }), 60_000);
  assert.equal(paidPaiseOf({ open: [open], paid, paidAmount: 1000, paidOpen: [open.booking_id] }), 100_000);
  assert.deepEqual([...countedOpen({ open: [open], paid, paidAmount: 1000, paidOpen: [open.booking_id] })], [open.booking_id]);
  assert.deepEqual([...countedOpen({ open: [], paid })], [paid.booking_id]);
  assert.deepEqual([...countedOpen({ open: [], paid: undefined })], []);
});
