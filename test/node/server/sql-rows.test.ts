import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPrefix, COLUMNS, orderState, PREVIOUS_PROVIDER, toBooking } from '../../../src/server/sql-rows.js';

/** A row of COLUMNS as a driver hands it back (bigints as text, as both may). */
function row(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    booking_id: id,
    correlation_id: `c-${id}`,
    transaction_uuid: `t-${id}`,
    idempotency_key: `k-${id}`,
    fingerprint: '["v2","app","O-1"]',
    channel: 'app',
    order_ref: '{"id":"O-1"}',
    order_key: 'O-1',
    amount: '1250.5',
    deeplink: `https://pay.example/${id}`,
    provider: 'khalti',
    provider_data: '{"pidx":"p"}',
    created_at: '1700000000000',
    ...extra,
  };
}

test('COLUMNS names every field toBooking reads', () => {
  assert.deepEqual(COLUMNS.split(', ').sort(), Object.keys(row('b')).sort());
});

test('a row becomes a booking: the order parsed, numbers read from text, the provider of older rows filled in', () => {
  assert.equal(toBooking(undefined), undefined);
  assert.deepEqual(toBooking(row('b-1')), {
    booking_id: 'b-1',
    correlation_id: 'c-b-1',
    transaction_uuid: 't-b-1',
    idempotency_key: 'k-b-1',
    fingerprint: '["v2","app","O-1"]',
    channel: 'app',
    order: { id: 'O-1' },
    order_key: 'O-1',
    amount: 1250.5,
    deeplink: 'https://pay.example/b-1',
    provider: 'khalti',
    provider_data: '{"pidx":"p"}',
    created_at: 1_700_000_000_000,
  });
  const older = toBooking(row('b-0', { provider: null, provider_data: null }))!;
  assert.equal(older.provider, PREVIOUS_PROVIDER);
  assert.equal(older.provider_data, '');
});

test("an order's state: open bookings, the paid one (an open paid one first), the paid total in whole paise, either driver's flags", () => {
  const state = orderState([
    row('open', { settled: false, paid: false }),
    row('paid-settled', { settled: 1, paid: 1, amount: '0.1' }),
    row('paid-open', { settled: 0, paid: true, amount: '0.2' }),
  ]);
  assert.deepEqual(state.open.map((b) => b.booking_id), ['open', 'paid-open']);
  assert.equal(state.paid?.booking_id, 'paid-open', 'one still being delivered comes before a settled one');
  assert.equal(state.paidAmount, 0.3, 'summed in paise, not floats');
  assert.deepEqual(state.paidOpen, ['paid-open']);
  assert.equal(orderState([row('s', { settled: true, paid: 1 })]).paid?.booking_id, 's');
  assert.deepEqual(orderState([]), { open: [], paid: undefined, paidAmount: 0, paidOpen: [] });
});

test('a table prefix is lower-case letters, digits and "_", at most 31, not starting with a digit', () => {
  for (const good of ['wpb_', 'shop', '_x', 'a'.repeat(31)]) assert.equal(checkPrefix(good), good);
  for (const bad of ['', 'Wpb_', '1wpb', 'wpb-', 'wpb; drop', 'a'.repeat(32)]) {
    assert.throws(() => checkPrefix(bad), { name: 'TypeError', message: `tablePrefix must be lower-case letters, digits and "_" (at most 31, not starting with a digit); got ${JSON.stringify(bad)}.` });
  }
});
