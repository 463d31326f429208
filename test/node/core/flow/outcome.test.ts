import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BookingError } from '../../../../src/core/booking-client.js';
import { cancelReason, failRequest, finish } from '../../../../src/core/flow/outcome.js';
import { MERCHANT_SETUP, UNKNOWN_BOOKING } from '../../../../src/protocol/contract.js';
import { contextFixture } from './context-fixture.js';

describe('outcome: finish', () => {
  it('a paid booking is forgotten, remembered as paid, reported, and the shopper goes to the success page', () => {
    const t = contextFixture();
    const kept = t.kept();
    t.store.save(t.settings.storageKey, kept);
    t.ctx.attempt = { key: 'k0', environment: 'mobile', settings: t.settings };
    finish(t.ctx, kept, 'SUCCESS');
    const url = 'https://shop.test/done?booking_id=B1&status=SUCCESS';
    assert.equal(t.store.load(t.settings.storageKey, t.settings), null);
    assert.equal(t.ctx.attempt, null);
    assert.deepEqual(t.store.paid(t.settings.storageKey), { booking_id: 'B1', url });
    assert.deepEqual(t.types(), ['confirmed', 'success', 'navigate']);
    assert.equal(t.ctx.state.name, 'done');
    assert.equal(t.ctx.state.outcome, 'SUCCESS');
    assert.equal(t.ctx.funnel.over, true);
    assert.deepEqual(t.navigator.calls, [{ kind: 'assign', url }]);
  });

  it('a CANCELED payment reports why it was abandoned and goes to the failure page, not remembered as paid', () => {
    const t = contextFixture();
    finish(t.ctx, t.kept(), 'CANCELED');
    assert.deepEqual(t.types(), ['confirmed', 'abandoned', 'failure', 'navigate']);
    assert.equal((t.events[1] as { reason?: string }).reason, 'cancelled');
    assert.equal(t.store.paid(t.settings.storageKey), null);
    assert.deepEqual(t.navigator.calls, [{ kind: 'assign', url: 'https://shop.test/failed?booking_id=B1&status=CANCELED' }]);
  });

  it('a host that cancels the navigation keeps the shopper on the page, the payment done', () => {
    const t = contextFixture();
    t.host.preventNavigation = true;
    finish(t.ctx, t.kept(), 'FAILED');
    assert.deepEqual(t.navigator.calls, []);
    assert.equal(t.ctx.state.name, 'done');
  });

  it('no return address: the shopper stays, on the done state', () => {
    const t = contextFixture({ successUrl: null });
    finish(t.ctx, t.kept(), 'SUCCESS');
    assert.deepEqual(t.types(), ['confirmed', 'success']);
    assert.deepEqual(t.store.paid(t.settings.storageKey), { booking_id: 'B1', url: null });
    assert.equal(t.ctx.state.name, 'done');
  });

  it('a refused return address is shown on the done state with its reason, and not followed', () => {
    const t = contextFixture({ successUrl: 'https://elsewhere.test/done' });
    finish(t.ctx, t.kept(), 'SUCCESS');
    assert.deepEqual(t.navigator.calls, []);
    assert.equal(t.ctx.state.name, 'done');
    assert.equal(t.ctx.state.outcome, 'SUCCESS');
    assert.equal(t.ctx.state.error?.kind, 'return-url-refused');
    assert.equal(t.types().at(-1), 'error');
  });
});

describe('outcome: cancelReason', () => {
  it('cancelled here, cancelled in the app, or expired past the five-minute wait', async () => {
    const t = contextFixture();
    const kept = t.kept();
    assert.equal(cancelReason(t.ctx, kept), 'cancelled');
    t.ctx.cancelledHere = 'B1';
    assert.equal(cancelReason(t.ctx, kept), 'cancel');
    t.ctx.cancelledHere = 'B0';
    await t.clock.advance(300_000);
    assert.equal(cancelReason(t.ctx, kept), 'expired');
  });
});

describe('outcome: failRequest', () => {
  it('an aborted request shows nothing: the action that aborted it owns the state', () => {
    const t = contextFixture();
    failRequest(t.ctx, new BookingError('aborted', 'stopped'), () => assert.fail('no retry'), null);
    assert.deepEqual(t.names(), []);
    assert.deepEqual(t.events, []);
  });

  it('a failure anything else throws counts as a network failure, offered again with its retry', () => {
    const t = contextFixture();
    let retried = 0;
    failRequest(t.ctx, new TypeError('Failed to fetch'), () => retried++, null);
    assert.equal(t.ctx.state.error?.kind, 'network');
    assert.equal(t.ctx.state.canRetry, true);
    t.ctx.retry?.();
    assert.equal(retried, 1);
  });

  it("the shop's set-up (IP-501) offers no retry", () => {
    const t = contextFixture();
    t.ctx.retry = () => undefined;
    const kept = t.kept();
    failRequest(t.ctx, new BookingError('http', 'set-up', 501, MERCHANT_SETUP), () => undefined, kept);
    assert.equal(t.ctx.state.error?.kind, 'merchant-setup');
    assert.equal(t.ctx.state.canRetry, false);
    assert.equal(t.ctx.state.booking, kept);
    assert.equal(t.ctx.retry, null);
  });

  it('a booking the server does not know is kept and checked once more by its ids; still unknown, it is forgotten', () => {
    const t = contextFixture();
    const kept = t.kept();
    t.store.save(t.settings.storageKey, kept);
    t.store.setAttempt(t.settings.storageKey, 'mobile:k0');
    const unknown = new BookingError('http', 'unknown booking', 404, UNKNOWN_BOOKING);
    failRequest(t.ctx, unknown, () => assert.fail('not this retry'), kept);
    assert.equal(t.ctx.state.error?.kind, 'booking-unconfirmed');
    assert.equal(t.ctx.state.booking, kept);
    assert.equal(t.store.load(t.settings.storageKey, t.settings), kept, 'still kept');
    t.ctx.retry?.();
    assert.deepEqual(t.again.verify, [{ kept, checkNumber: 0, returning: undefined }]);
    failRequest(t.ctx, unknown, () => assert.fail('not this retry'), kept);
    assert.equal(t.ctx.state.error?.kind, 'booking-lost');
    assert.equal(t.ctx.state.canStartAgain, true);
    assert.equal(t.ctx.state.canRetry, false);
    assert.equal(t.ctx.state.booking, null);
    assert.equal(t.store.load(t.settings.storageKey, t.settings), null);
    assert.equal(t.store.attempt(t.settings.storageKey), null);
    assert.equal(t.ctx.retry, null);
    assert.equal(t.ctx.unconfirmed, null);
  });

  it('an unknown booking with no booking at hand is an ordinary failure', () => {
    const t = contextFixture();
    failRequest(t.ctx, new BookingError('http', 'unknown', 404, UNKNOWN_BOOKING), () => undefined, null);
    assert.equal(t.ctx.state.error?.kind, 'http');
    assert.equal(t.ctx.state.canRetry, true);
  });
});
