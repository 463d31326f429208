/**
 * What a `SUCCESS` is to its order, as a function of paise: a payment, an overpayment of what the
 * order still needed, or a duplicate of an order paid in full, whatever its amount.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verdictOf } from '../../../src/server/amounts.js';

test('an order paid in full by other payments: any further payment is a duplicate, larger, equal or smaller', () => {
  for (const paid of [150_000, 100_000, 50_000]) assert.deepEqual(verdictOf({ paid, others: 100_000, total: 100_000 }), { kind: 'duplicate' }, `paid ${paid}`);
  assert.deepEqual(verdictOf({ paid: 50_000, others: 120_000, total: 100_000 }), { kind: 'duplicate' });
});

test('a first payment or a balance booked after the total grew is a payment; above what was still needed, an overpayment of the difference', () => {
  assert.deepEqual(verdictOf({ paid: 100_000, others: 0, total: 100_000 }), { kind: 'payment' });
  // Paid 1000, the total grew to 1500: the 500 booked then is the balance.
  assert.deepEqual(verdictOf({ paid: 50_000, others: 100_000, total: 150_000 }), { kind: 'payment' });
  // A stale screen's 1500 for an order whose total fell to 1000.
  assert.deepEqual(verdictOf({ paid: 150_000, others: 0, total: 100_000 }), { kind: 'overpayment', needed: 100_000, excess: 50_000 });
  assert.deepEqual(verdictOf({ paid: 100_000, others: 100_000, total: 120_000 }), { kind: 'overpayment', needed: 20_000, excess: 80_000 });
});
