/**
 * The bookings' ledger (src/sandbox/esewa-intent/bookings.ts): found by id and by transaction, bounded by dropping
 * the oldest closed or expired booking and never an open one, copies in and out of its snapshot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BookingLedger, MAX_BOOKINGS } from '../../../../src/sandbox/esewa-intent/bookings.js';
import type { SandboxBooking } from '../../../../src/sandbox/esewa-intent/service.js';
import type { PaymentStatus } from '../../../../src/protocol/contract.js';

const TTL = 60_000;

function booking(id: string, status: PaymentStatus = 'BOOKED', createdAt = 0, productCode = 'P'): SandboxBooking {
  return {
    booking_id: id,
    correlation_id: `c-${id}`,
    product_code: productCode,
    amount: 10,
    transaction_uuid: `uuid-${id}`,
    callback_url: 'http://127.0.0.1:1/cb',
    redirect_url: 'http://127.0.0.1:1/r',
    properties: {},
    status,
    reference_code: `REF-${id}`,
    created_at: createdAt,
    updated_at: createdAt,
    expires_at: createdAt + TTL,
    history: [{ status, at: createdAt, reason: 'booked' }],
  } as SandboxBooking;
}

test('a booking is found by its id and by its product code and transaction_uuid, and no other', () => {
  const ledger = new BookingLedger(() => 0);
  const held = booking('a');
  ledger.add(held);
  assert.equal(ledger.get('a'), held, 'the object itself: the service changes it in place');
  assert.equal(ledger.has('a'), true);
  assert.equal(ledger.ofTransaction('P', 'uuid-a'), held);
  assert.equal(ledger.ofTransaction('Q', 'uuid-a'), undefined, "another merchant's transaction of the same uuid");
  assert.equal(ledger.get('b'), undefined);
  assert.equal(ledger.has('b'), false);
});

test('past its bound the oldest closed booking goes, with its transaction; open ones stay, oldest first', () => {
  const ledger = new BookingLedger(() => 1, 3);
  ledger.add(booking('open-1'));
  ledger.add(booking('paid', 'SUCCESS'));
  ledger.add(booking('pending', 'PENDING'));
  ledger.add(booking('open-2'));
  assert.deepEqual(ledger.ids(), ['open-1', 'pending', 'open-2']);
  assert.equal(ledger.ofTransaction('P', 'uuid-paid'), undefined, 'its transaction key went too');
  // Nothing closed left: an open booking is never dropped, so the ledger grows past its bound.
  ledger.add(booking('open-3'));
  assert.deepEqual(ledger.ids(), ['open-1', 'pending', 'open-2', 'open-3']);
});

test('an open booking past its expiry can go, on the clock the ledger was given', () => {
  let now = 0;
  const ledger = new BookingLedger(() => now, 2);
  ledger.add(booking('old', 'BOOKED', 0));
  ledger.add(booking('new', 'BOOKED', 10));
  now = TTL;
  ledger.add(booking('newest', 'BOOKED', TTL));
  assert.deepEqual(ledger.ids(), ['new', 'newest'], 'old expired at 60 000; new expires at 60 010');
});

test('the snapshot and the restore copy: changing one side leaves the other as it was', () => {
  const ledger = new BookingLedger(() => 0);
  ledger.add(booking('a'));
  const [snap] = ledger.snapshot();
  snap!.status = 'SUCCESS';
  assert.equal(ledger.get('a')!.status, 'BOOKED');
  const restored = new BookingLedger(() => 0);
  const taken = [booking('b', 'SUCCESS')];
  restored.restore(taken);
  taken[0]!.status = 'FAILED';
  assert.equal(restored.get('b')!.status, 'SUCCESS');
  assert.equal(restored.ofTransaction('P', 'uuid-b')!.booking_id, 'b');
});

test('the bound defaults to MAX_BOOKINGS', () => {
  assert.equal(MAX_BOOKINGS, 10_000);
  const ledger = new BookingLedger(() => 0);
  for (let i = 0; i < MAX_BOOKINGS; i++) ledger.add(booking(`b${i}`, 'SUCCESS'));
  ledger.add(booking('one-more', 'SUCCESS'));
  assert.equal(ledger.ids().length, MAX_BOOKINGS);
  assert.equal(ledger.has('b0'), false);
});
