/**
 * The invariants as pure functions: each finds the break it names and nothing in the case that holds,
 * so a green model run means the rules held, not that they could not fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SandboxBooking } from '../../../src/sandbox/index.js';
import { deliveredOnce, INVARIANTS, neverCalledPaid, oneSuccess, onePayable, paidInFull, reconciled, storeFault503, type Answer } from './invariants.js';

const booking = (booking_id: string, status: SandboxBooking['status'], amount = 1000): SandboxBooking =>
  ({ booking_id, correlation_id: `c-${booking_id}`, status, amount }) as SandboxBooking;
const answer = (route: string, http: number, code: string): Answer => ({ route, http, code, underFault: false });

test('two open bookings handed to tabs are a break; an open one no tab holds, or a cancelled one, is not', () => {
  const bookings = [booking('a', 'BOOKED'), booking('b', 'BOOKED'), booking('c', 'CANCELED')];
  assert.equal(onePayable(bookings, new Set(['a', 'b'])).length, 1);
  assert.deepEqual(onePayable(bookings, new Set(['a', 'c'])), []);
});

test('payments above the largest total are a break; a second payment of the balance, a reported duplicate or overpayment\'s excess, or one not delivered yet is not', () => {
  const both = new Set(['c-a', 'c-b']);
  const none = new Map<string, number>();
  assert.equal(oneSuccess([booking('a', 'SUCCESS'), booking('b', 'SUCCESS')], 1000, none, both).length, 1);
  assert.deepEqual(oneSuccess([booking('a', 'SUCCESS'), booking('b', 'SUCCESS', 500)], 1500, none, both), []);
  assert.deepEqual(oneSuccess([booking('a', 'SUCCESS'), booking('b', 'SUCCESS')], 1000, new Map([['c-b', 1000]]), both), []);
  assert.deepEqual(oneSuccess([booking('a', 'SUCCESS'), booking('b', 'SUCCESS')], 1000, none, new Set(['c-a'])), []);
  // A stale screen's 1500 on a total of 1000: its excess reported, the rest fits; unreported, it does not.
  assert.deepEqual(oneSuccess([booking('a', 'SUCCESS', 1500)], 1000, new Map([['c-a', 500]]), new Set(['c-a'])), []);
  assert.equal(oneSuccess([booking('a', 'SUCCESS', 1500)], 1000, none, new Set(['c-a'])).length, 1);
});

test('a SUCCESS claimed once the payments before it covered the total, delivered as a payment, is a break whatever its amount; a balance, a duplicate or an undelivered one is not', () => {
  const took = (correlation_id: string, amount: number, duplicate = false) => ({ correlation_id, status: 'SUCCESS', amount, returned: true, duplicate });
  // WPS-006: tab 2 paid the new total of 1000; tab 1's stale 1500 after it.
  const claims = [
    { correlation_id: 'c-2', total: 1000 },
    { correlation_id: 'c-1', total: 1000 },
  ];
  assert.equal(paidInFull(claims, [took('c-2', 1000), took('c-1', 1500)]).length, 1);
  assert.deepEqual(paidInFull(claims, [took('c-2', 1000), took('c-1', 1500, true)]), []);
  assert.deepEqual(paidInFull(claims, [took('c-2', 1000)]), []);
  // Paid 1000, the total grew to 1500: the balance of 500 is a payment.
  assert.deepEqual(paidInFull([{ correlation_id: 'c-a', total: 1000 }, { correlation_id: 'c-b', total: 1500 }], [took('c-a', 1000), took('c-b', 500)]), []);
  // Claimed again after its hook threw: judged at its last claim, after the other payment.
  const again = [{ correlation_id: 'c-1', total: 1000 }, { correlation_id: 'c-2', total: 1000 }, { correlation_id: 'c-1', total: 1000 }];
  assert.equal(paidInFull(again, [took('c-2', 1000), took('c-1', 1000)]).length, 1);
});

test('a result returned twice by the hook is a break; a throw and its retry are not', () => {
  const call = { correlation_id: 'c', status: 'SUCCESS', amount: 1000 };
  assert.equal(deliveredOnce([{ ...call, returned: true }, { ...call, returned: true }]).length, 1);
  assert.deepEqual(deliveredOnce([{ ...call, returned: false }, { ...call, returned: true }]), []);
});

test('a SUCCESS at the service that never reached the hook is a break after reconcile(), unless the hook took its CANCELED first (learned from its callback alone)', () => {
  assert.equal(reconciled([booking('a', 'SUCCESS')], []).length, 1);
  assert.deepEqual(reconciled([booking('a', 'SUCCESS')], [{ correlation_id: 'c-a', status: 'CANCELED', amount: 1000, returned: true }]), []);
  assert.deepEqual(reconciled([booking('a', 'SUCCESS')], [{ correlation_id: 'c-a', status: 'SUCCESS', amount: 1000, returned: true }]), []);
});

test('IP-412 to a book is a break unless the service holds the whole total', () => {
  assert.equal(neverCalledPaid(answer('book', 412, 'IP-412'), [booking('a', 'CANCELED')], 1000).length, 1);
  assert.equal(neverCalledPaid(answer('book', 412, 'IP-412'), [booking('a', 'SUCCESS')], 1500).length, 1);
  assert.deepEqual(neverCalledPaid(answer('book', 412, 'IP-412'), [booking('a', 'SUCCESS')], 1000), []);
});

test('a refund whose REVERTED reached the hook makes the order owe that payment again: a SUCCESS after it is a payment, one before it a duplicate', () => {
  const took = (correlation_id: string, amount: number, duplicate = false) => ({ correlation_id, status: 'SUCCESS', amount, returned: true, duplicate });
  const refunded = [
    { correlation_id: 'c-1', total: 1000 },
    { correlation_id: 'c-1', total: 1000, reverted: true as const },
    { correlation_id: 'c-2', total: 1000 },
  ];
  assert.deepEqual(paidInFull(refunded, [took('c-1', 1000), took('c-2', 1000)]), []);
  // Without the refund, the second payment delivered as a payment is the break.
  assert.equal(paidInFull([refunded[0]!, refunded[2]!], [took('c-1', 1000), took('c-2', 1000)]).length, 1);
  // A refund of a duplicate gives back nothing the order counted.
  const duplicate = [{ correlation_id: 'c-1', total: 1000 }, { correlation_id: 'c-2', total: 1000 }, { correlation_id: 'c-2', total: 1000, reverted: true as const }, { correlation_id: 'c-3', total: 1000 }];
  assert.equal(paidInFull(duplicate, [took('c-1', 1000), took('c-2', 1000, true), took('c-3', 1000)]).length, 1);
});

test('"paid" to a lookup is judged as IP-412 to a book; what the providers held while the request was in flight counts, and a break names the wallet', () => {
  const lookup: Answer = { ...answer('order', 200, 'IP-201'), data: { paid: true } };
  assert.equal(neverCalledPaid(lookup, [booking('a', 'REVERTED')], 1000).length, 1);
  assert.deepEqual(neverCalledPaid(lookup, [booking('a', 'REVERTED')], 1000, 100_000), []);
  assert.deepEqual(neverCalledPaid({ ...lookup, data: { paid: false } }, [], 1000), []);
  assert.equal(neverCalledPaid(answer('book', 412, 'IP-412'), [booking('a', 'REVERTED')], 1000, 50_000).length, 1);
  const [found] = onePayable([{ ...booking('a', 'BOOKED'), wallet: 'khalti (khalti)' }, { ...booking('b', 'PENDING'), wallet: 'esewa (esewa-epay)' }], new Set(['a', 'b']));
  assert.equal(found?.invariant, 'onePayable');
  assert.match(found.detail, /a on khalti \(khalti\) \(1000\), b on esewa \(esewa-epay\) \(1000\)/);
  assert.ok(INVARIANTS[found.invariant]);
});

test('IP-500 to a shopper is a break; IP-503 is not, nor a callback asking for a retry', () => {
  assert.equal(storeFault503(answer('status', 500, 'IP-500')).length, 1);
  assert.deepEqual(storeFault503(answer('book', 503, 'IP-503')), []);
  assert.deepEqual(storeFault503(answer('callback', 500, 'IP-500')), []);
});
