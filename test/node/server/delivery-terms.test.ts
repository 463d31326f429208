import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bookingFacts, ImpossibleTransition, LeaseLost, ResultBusy } from '../../../src/server/delivery-terms.js';
import type { StoredBooking } from '../../../src/server/store.js';

const booking: StoredBooking = {
  booking_id: 'b-1',
  correlation_id: 'c-1',
  transaction_uuid: 't-1',
  idempotency_key: 'k-1',
  fingerprint: JSON.stringify(['v2', 'app', 'O-1']),
  channel: 'app',
  order: { id: 'o-1' },
  order_key: 'O-1',
  amount: 1000,
  deeplink: 'https://pay.example/b-1',
  provider: 'epay',
  provider_data: '',
  created_at: 0,
};

test("a result carries its booking's facts, the merchant's canonical order id from the fingerprint", () => {
  assert.deepEqual(bookingFacts(booking), { booking_id: 'b-1', order: { id: 'o-1' }, transaction_uuid: 't-1', amount: 1000, provider: 'epay', order_id: 'O-1' });
});

test('an older booking: no order id in its fingerprint, and no provider means the intent service', () => {
  for (const fingerprint of ['app:o-1', '["app","O-1"]', JSON.stringify(['v2', 'app', 42]), '']) {
    assert.ok(!('order_id' in bookingFacts({ ...booking, fingerprint })), fingerprint);
  }
  assert.equal(bookingFacts({ ...booking, provider: '' }).provider, 'esewa-intent');
});

test('the delivery errors are told apart by class and name', () => {
  for (const [Kind, name] of [[ResultBusy, 'ResultBusy'], [LeaseLost, 'LeaseLost'], [ImpossibleTransition, 'ImpossibleTransition']] as const) {
    const error = new Kind('why');
    assert.equal(error.name, name);
    assert.equal(error.message, 'why');
    assert.ok(error instanceof Error);
  }
  assert.ok(!(new ResultBusy('x') instanceof LeaseLost));
});
