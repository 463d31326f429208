import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isBookingKey, isReturnPage, mayComeBack, PAID_PREFIX, sessionStorageOf } from '../../../src/core/kept.js';
import { hasKeptBooking, isPaidHere } from '../../../src/core/session-store.js';
import { bookingKey } from '../../../src/core/settings.js';
import { MemoryStorage } from '../../support/memory-storage.js';

/** A storage whose every read throws, as a blocked one does. */
const blocked = new Proxy({} as Storage, {
  get() {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  },
});

test('a booking key names the endpoint and the order in canonical order', () => {
  const key = bookingKey('/api/pay', { id: 'O-1', lines: [{ sku: 'A', qty: 2 }] });
  assert.equal(key, 'wallet-pay-button:/api/pay|{"id":"O-1","lines":[{"qty":2,"sku":"A"}]}');
  assert.equal(bookingKey('/api/pay', { lines: [{ qty: 2, sku: 'A' }], id: 'O-1' }), key, 'the same order rebuilt in another key order');
  assert.notEqual(bookingKey('/other', { id: 'O-1' }), bookingKey('/api/pay', { id: 'O-1' }));
  assert.ok(isBookingKey(key));
  assert.ok(!isBookingKey(null));
  assert.ok(!isBookingKey(`${PAID_PREFIX}${key}`));
});

test('kept bookings and paid orders: what a tab may come back for, and what only its checkout shows', () => {
  const storage = new MemoryStorage();
  // A window has an address too: one with no fragment of ours.
  const win = { sessionStorage: storage, location: { hash: '', search: '' } } as unknown as Window;
  assert.ok(!mayComeBack(win) && !hasKeptBooking(storage));
  storage.setItem('someone-else', '1');
  assert.ok(!mayComeBack(win), "another script's key is not ours");
  const key = bookingKey('/api/pay', { id: 'O-1' });
  storage.setItem(PAID_PREFIX + key, '1');
  assert.ok(mayComeBack(win), 'a paid order brings the payment code');
  assert.ok(!hasKeptBooking(storage), 'but builds no flow on its own');
  assert.ok(isPaidHere(storage, key));
  assert.ok(!isPaidHere(storage, bookingKey('/api/pay', { id: 'O-2' })));
  storage.setItem(key, '{}');
  assert.ok(hasKeptBooking(storage));
});

test('no window or blocked storage keeps nothing, and never throws', () => {
  assert.equal(sessionStorageOf(null), null);
  const sandboxed = Object.defineProperty({ location: { hash: '', search: '' } }, 'sessionStorage', {
    get() {
      throw new DOMException('denied', 'SecurityError');
    },
  }) as Window;
  assert.equal(sessionStorageOf(sandboxed), null);
  assert.ok(!mayComeBack(null) && !mayComeBack(sandboxed));
  assert.ok(!hasKeptBooking(blocked));
  assert.ok(!isPaidHere(blocked, 'k'));
  assert.ok(!isPaidHere(null, 'k'));
});

test("a return address is told by its parameters (the kit's booking_id, Khalti's pidx), not by text that looks like one", () => {
  const at = (search: string) => ({ location: { search } }) as unknown as Window;
  assert.ok(isReturnPage(at('?checkout=c1&item=A-1&booking_id=B1&status=SUCCESS')));
  assert.ok(isReturnPage(at('?order=A-1001&booking_id=B1?data=eyJ9')), "eSewa's data glued onto the kit's booking_id");
  assert.ok(isReturnPage(at('?pidx=bZQLD9wRVWo4CdESSfuSsB&status=Completed&purchase_order_id=A-1')));
  assert.ok(!isReturnPage(at('?checkout=c1&item=A-1')));
  assert.ok(!isReturnPage(at('?not_booking_id=B1&xpidx=1&note=booking_id%3DB1')), 'lookalike names and values');
  assert.ok(!isReturnPage(null));
});
