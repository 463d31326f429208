import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BookingError } from '../../../../src/core/booking-client.js';
import { abandonBack, cancel, returnedFor } from '../../../../src/core/flow/abandon.js';
import { begin, setState } from '../../../../src/core/flow/context.js';
import { ALREADY_PROCESSED } from '../../../../src/protocol/contract.js';
import { flush } from '../../../support/fake-clock.js';
import { settingsOf } from '../../../support/settings.js';
import { answer, contextFixture, hangs, rejects } from './context-fixture.js';

const canceled = answer({ booking_id: 'B1', correlation_id: 'c-B1', status: 'CANCELED' as const });

describe('abandon: cancel', () => {
  it('does nothing without a panel booking, or while something runs', () => {
    const t = contextFixture();
    cancel(t.ctx);
    setState(t.ctx, 'verifying', t.kept());
    cancel(t.ctx);
    assert.deepEqual(t.scripted.calls.cancel, []);
  });

  it('cancels the panel booking at the service by its ids and ends the payment as the shopper\'s cancel', async () => {
    const t = contextFixture();
    const kept = t.kept({ receipt: 'r1' });
    setState(t.ctx, 'pending', kept);
    t.scripted.queues.cancel.push(canceled);
    cancel(t.ctx);
    assert.equal(t.ctx.state.name, 'cancelling');
    await flush();
    assert.deepEqual(t.scripted.calls.cancel, [{ booking_id: 'B1', correlation_id: 'c-B1', order: t.settings.order, receipt: 'r1' }]);
    assert.deepEqual(t.types(), ['cancel', 'confirmed', 'abandoned', 'failure', 'navigate']);
    assert.equal((t.events[2] as { reason?: string }).reason, 'cancel');
    assert.equal(t.ctx.state.name, 'done');
  });

  it('a cancel answered with a status still open ends the payment CANCELED', async () => {
    const t = contextFixture();
    setState(t.ctx, 'pending', t.kept());
    t.scripted.queues.cancel.push(answer({ booking_id: 'B1', correlation_id: 'c-B1', status: 'PENDING' as const }));
    cancel(t.ctx);
    await flush();
    assert.equal(t.ctx.state.outcome, 'CANCELED');
  });

  it('an expired hand-off ends CANCELED without asking the service', () => {
    const t = contextFixture();
    setState(t.ctx, 'handoff-expired', t.kept({ handoff: true }));
    cancel(t.ctx);
    assert.deepEqual(t.scripted.calls.cancel, []);
    assert.equal(t.ctx.state.outcome, 'CANCELED');
  });

  it('a booking processed meanwhile is checked: its status decides', async () => {
    const t = contextFixture();
    const kept = t.kept();
    setState(t.ctx, 'pending', kept);
    t.scripted.queues.cancel.push(rejects(new BookingError('http', 'processed', 409, ALREADY_PROCESSED)));
    cancel(t.ctx);
    await flush();
    assert.deepEqual(t.again.verify, [{ kept, checkNumber: 0, returning: undefined }]);
  });

  it('a failed cancel is shown with the booking, and "try again" cancels again', async () => {
    const t = contextFixture();
    const kept = t.kept();
    setState(t.ctx, 'pending', kept);
    t.scripted.queues.cancel.push(rejects(new BookingError('timeout', 'slow')), canceled);
    cancel(t.ctx);
    await flush();
    assert.equal(t.ctx.state.error?.kind, 'timeout');
    assert.equal(t.ctx.state.booking, kept);
    t.ctx.retry?.();
    await flush();
    assert.equal(t.scripted.calls.cancel.length, 2);
    assert.equal(t.ctx.state.name, 'done');
  });

  it('an answer to a cancel that a newer action overtook is dropped', async () => {
    const t = contextFixture();
    setState(t.ctx, 'pending', t.kept());
    t.scripted.queues.cancel.push(canceled);
    cancel(t.ctx);
    begin(t.ctx);
    await flush();
    assert.equal(t.ctx.state.name, 'cancelling');
    assert.deepEqual(t.events, []);
  });
});

describe('abandon: abandonBack', () => {
  it('back from the web page unpaid: the booking is cancelled, forgotten, reported abandoned, and the button is ready', async () => {
    const t = contextFixture({ environment: 'desktop' });
    const kept = t.kept({ channel: 'web' });
    t.store.save(t.settings.storageKey, kept);
    t.scripted.queues.cancel.push(canceled);
    abandonBack(t.ctx, kept);
    assert.equal(t.ctx.state.name, 'cancelling');
    await flush();
    assert.equal(t.scripted.calls.cancel.length, 1);
    assert.equal(t.store.load(t.settings.storageKey, t.settings), null);
    assert.deepEqual(t.events.map((event) => [event.type, (event as { reason?: string }).reason]), [['abandoned', 'back']]);
    assert.equal(t.ctx.funnel.over, true);
    assert.equal(t.ctx.state.name, 'idle');
    assert.deepEqual(t.navigator.calls, []);
  });

  it("sent back by the provider to the return address naming the booking: the payment ends CANCELED, on the failure page", async () => {
    const t = contextFixture({ environment: 'desktop' });
    t.ctx.read = { ok: true, settings: settingsOf({ pageUrl: 'https://shop.test/checkout?booking_id=B1?data=xyz' }) };
    t.scripted.queues.cancel.push(canceled);
    abandonBack(t.ctx, t.kept({ channel: 'web' }));
    await flush();
    assert.equal(t.ctx.state.outcome, 'CANCELED');
    assert.deepEqual(t.navigator.calls, [{ kind: 'assign', url: 'https://shop.test/failed?booking_id=B1&status=CANCELED' }]);
  });

  it('processed meanwhile: checked instead; a failed cancel is shown, and "try again" abandons again', async () => {
    const t = contextFixture();
    const kept = t.kept({ channel: 'web' });
    t.scripted.queues.cancel.push(rejects(new BookingError('http', 'processed', 409, ALREADY_PROCESSED)));
    abandonBack(t.ctx, kept);
    await flush();
    assert.deepEqual(t.again.verify, [{ kept, checkNumber: 0, returning: undefined }]);

    const u = contextFixture();
    const other = u.kept({ channel: 'web' });
    u.scripted.queues.cancel.push(rejects(new BookingError('network', 'down')), hangs());
    abandonBack(u.ctx, other);
    await flush();
    assert.equal(u.ctx.state.error?.kind, 'network');
    assert.equal(u.ctx.state.booking, other);
    u.ctx.retry?.();
    assert.equal(u.ctx.state.name, 'cancelling');
    assert.equal(u.scripted.calls.cancel.length, 2);
  });
});

describe('abandon: returnedFor', () => {
  const read = (pageUrl: string) => ({ ok: true as const, settings: settingsOf({ pageUrl }) });

  it("reads the page's booking_id, up to a `?` glued onto it", () => {
    assert.equal(returnedFor(read('https://shop.test/back?booking_id=B1'), 'B1'), true);
    assert.equal(returnedFor(read('https://shop.test/back?booking_id=B1?data=eyJ9'), 'B1'), true);
    assert.equal(returnedFor(read('https://shop.test/back?booking_id=B2'), 'B1'), false);
    assert.equal(returnedFor(read('https://shop.test/checkout'), 'B1'), false);
  });

  it('is false without readable settings or with a page address that does not parse', () => {
    assert.equal(returnedFor(undefined, 'B1'), false);
    assert.equal(returnedFor({ ok: false, problems: [] }, 'B1'), false);
    assert.equal(returnedFor(read('not a url'), 'B1'), false);
  });
});
