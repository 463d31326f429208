/**
 * The payment flow's booking rules, tested directly as the plain functions they are (Node, no DOM):
 * which attempt a payment runs with, which failed status check a wait outlives, where a finished
 * payment returns, and what a failure shows and reports.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BookingError } from '../../../../src/core/booking-client.js';
import { bookedAttempt, failureReport, nextAttempt, passingFailure, returnRoute, type Attempt } from '../../../../src/core/flow/booking.js';
import { settingsOf } from '../../../support/settings.js';
import { createMemoryBookingStore } from '../../../support/memory-store.js';

/** A key maker that counts, so a new key is told from a kept one. */
function keys() {
  let n = 0;
  return () => `key-${++n}`;
}

describe('nextAttempt: which Idempotency-Key a payment runs with', () => {
  test('a first press is a new attempt on the path asked for', () => {
    const attempt = nextAttempt(null, settingsOf(), 'mobile', true, { store: createMemoryBookingStore(), newKey: keys() });
    assert.deepEqual([attempt.key, attempt.environment], ['key-1', 'mobile']);
  });

  test('a retry (not pressed) keeps the attempt and its key', () => {
    const settings = settingsOf();
    const current: Attempt = { key: 'kept', environment: 'mobile', settings };
    assert.equal(nextAttempt(current, settings, 'mobile', false, { store: createMemoryBookingStore(), newKey: keys() }), current);
  });

  test('a press again on the same path keeps the key with the settings of the press; the other path is a new key', () => {
    const settings = settingsOf();
    const current: Attempt = { key: 'kept', environment: 'desktop', settings };
    const newer = settingsOf({ successUrl: '/thanks' });
    const again = nextAttempt(current, newer, 'desktop', true, { store: createMemoryBookingStore(), newKey: keys() });
    assert.deepEqual([again.key, again.settings.successUrl], ['kept', '/thanks']);
    const handoff = nextAttempt(current, settings, 'handoff', true, { store: createMemoryBookingStore(), newKey: keys() });
    assert.deepEqual([handoff.key, handoff.environment], ['key-1', 'handoff']);
  });

  test('an attempt cut short by a reload is taken up again with its key; a hand-off attempt only by a hand-off', () => {
    const settings = settingsOf();
    const store = createMemoryBookingStore();
    store.setAttempt(settings.storageKey, 'mobile:reloaded-key');
    assert.equal(nextAttempt(null, settings, 'mobile', true, { store, newKey: keys() }).key, 'reloaded-key');
    assert.equal(nextAttempt(null, settings, 'handoff', true, { store, newKey: keys() }).key, 'key-1');
  });

  test('another order is another attempt', () => {
    const current: Attempt = { key: 'kept', environment: 'mobile', settings: settingsOf() };
    const other = settingsOf({ order: { id: 'A-2' } });
    assert.equal(nextAttempt(current, other, 'mobile', false, { store: createMemoryBookingStore(), newKey: keys() }).key, 'key-1');
  });
});

describe('passingFailure: which failed status check a wait outlives', () => {
  test("the shop's server did not answer: a dropped connection, a timeout, a 5xx, IP-503", () => {
    assert.equal(passingFailure(new BookingError('network', 'x')), 'server');
    assert.equal(passingFailure(new TypeError('Failed to fetch')), 'server');
    assert.equal(passingFailure(new BookingError('timeout', 'x')), 'server');
    assert.equal(passingFailure(new BookingError('http', 'x', 502)), 'server');
    assert.equal(passingFailure(new BookingError('http', 'x', 503, 'IP-503')), 'server');
  });

  test('the device is offline', () => {
    assert.equal(passingFailure(new BookingError('offline', 'x')), 'offline');
  });

  test('answers that end the wait: IP-501 (set-up), a 4xx, IP-404, an unreadable answer', () => {
    assert.equal(passingFailure(new BookingError('http', 'x', 500, 'IP-501')), null);
    assert.equal(passingFailure(new BookingError('http', 'x', 400, 'IP-400')), null);
    assert.equal(passingFailure(new BookingError('http', 'x', 404, 'IP-404')), null);
    assert.equal(passingFailure(new BookingError('invalid-json', 'x', 200)), null);
  });
});

describe('returnRoute and bookedAttempt', () => {
  test('a finished payment returns to its page with the booking and status; a refused page is named', () => {
    assert.deepEqual(returnRoute(settingsOf(), 'B1', 'SUCCESS'), { url: 'https://shop.test/done?booking_id=B1&status=SUCCESS', refused: null });
    assert.deepEqual(returnRoute(settingsOf(), 'B1', 'FAILED'), { url: 'https://shop.test/failed?booking_id=B1&status=FAILED', refused: null });
    assert.deepEqual(returnRoute(settingsOf({ successUrl: 'https://elsewhere.test/done' }), 'B1', 'SUCCESS'), { url: null, refused: 'origin-not-allowed' });
    assert.deepEqual(returnRoute(settingsOf({ failureUrl: null }), 'B1', 'CANCELED'), { url: null, refused: null });
  });

  test("a booking's answer becomes the kept booking, a hand-off marked as one, with its funnel", () => {
    const settings = settingsOf();
    const funnel = { id: 'A1', at: 40 };
    const { kept, event } = bookedAttempt({ key: 'k', environment: 'handoff', settings }, 'app', { booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' }, 42, funnel);
    assert.deepEqual(kept, { booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', idempotency_key: 'k', started_at: 42, settings, deeplink: 'https://links.wallet.test/pay/B1', handoff: true, attempt_id: 'A1', attempt_at: 40 });
    assert.deepEqual(event, { type: 'booked', attempt_id: 'A1', elapsed_ms: 2, booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', handoff: true });
  });

  test("the booking's wallet: the one pressed, else the server's answer, kept in its settings and named by the event", () => {
    const answered = { booking_id: 'B1', correlation_id: 'c', channel: 'app' as const, deeplink: 'https://links.wallet.test/pay/B1', wallet: 'esewa' };
    const funnel = { id: 'A', at: 0 };
    const pressed = bookedAttempt({ key: 'k', environment: 'mobile', settings: settingsOf({ wallet: 'khalti' }) }, 'app', answered, 1, funnel);
    assert.equal(pressed.kept.settings.wallet, 'khalti');
    assert.equal((pressed.event as { wallet?: string }).wallet, 'khalti');
    const server = bookedAttempt({ key: 'k', environment: 'mobile', settings: settingsOf() }, 'app', answered, 1, funnel);
    assert.equal(server.kept.settings.wallet, 'esewa');
    assert.equal((server.event as { wallet?: string }).wallet, 'esewa');
    const none = bookedAttempt({ key: 'k', environment: 'mobile', settings: settingsOf() }, 'app', { ...answered, wallet: undefined }, 1, funnel);
    assert.equal('wallet' in none.event, false);
  });

  test('a booking made in an in-app browser (or a WebView no host took) is kept as one', () => {
    for (const environment of ['inapp', 'webview'] as const) {
      const { kept } = bookedAttempt({ key: 'k', environment, settings: settingsOf() }, 'app', { booking_id: 'B1', correlation_id: 'c', channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' }, 1, { id: 'A', at: 0 });
      assert.equal(kept.inapp, true);
    }
  });
});

describe('failureReport', () => {
  test('the state and the event carry only the details there are', () => {
    assert.deepEqual(failureReport('network', 'm', {}), { shown: { kind: 'network' }, event: { type: 'error', kind: 'network', message: 'm' } });
    assert.deepEqual(failureReport('http', 'm', { code: 'IP-503', http_status: 503 }), {
      shown: { kind: 'http', httpStatus: 503, code: 'IP-503' },
      event: { type: 'error', kind: 'http', message: 'm', code: 'IP-503', http_status: 503 },
    });
  });
});
