import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BookingError } from '../../../../src/core/booking-client.js';
import { begin, setState } from '../../../../src/core/flow/context.js';
import { handoffExpired, outlive, verify, waitFor, waitingState } from '../../../../src/core/flow/waiting.js';
import type { PaymentStatus, StatusResult } from '../../../../src/protocol/contract.js';
import { MERCHANT_SETUP } from '../../../../src/protocol/contract.js';
import { flush } from '../../../support/fake-clock.js';
import { answer, contextFixture, hangs, rejects } from './context-fixture.js';

const status = (s: PaymentStatus) => answer<StatusResult>({ booking_id: 'B1', correlation_id: 'c-B1', status: s });

describe('waiting: waitingState', () => {
  it("a hand-off waits behind its code, an in-app booking behind its actions, any other on the pending panel", () => {
    const t = contextFixture();
    assert.equal(waitingState(t.kept({ handoff: true })), 'handoff');
    assert.equal(waitingState(t.kept({ inapp: true })), 'inapp');
    assert.equal(waitingState(t.kept()), 'pending');
  });
});

describe('waiting: verify', () => {
  it('a final status finishes the payment', async () => {
    const t = contextFixture();
    t.scripted.queues.status.push(status('SUCCESS'));
    verify(t.ctx, t.kept(), 0);
    assert.equal(t.ctx.state.name, 'verifying');
    await flush();
    assert.equal(t.ctx.state.name, 'done');
    assert.equal(t.ctx.state.outcome, 'SUCCESS');
  });

  it('an open booking is waited for with backoff (2 s, then 4 s repeating), each answer reported pending', async () => {
    const t = contextFixture();
    t.scripted.queues.status.push(status('BOOKED'));
    verify(t.ctx, t.kept(), 0);
    await flush();
    assert.equal(t.ctx.state.name, 'pending');
    assert.deepEqual(t.types(), ['pending']);
    await t.clock.advance(1999);
    assert.equal(t.scripted.calls.status.length, 1);
    await t.clock.advance(1);
    assert.equal(t.scripted.calls.status.length, 2);
    await t.clock.advance(4000);
    assert.equal(t.scripted.calls.status.length, 3);
    await t.clock.advance(4000);
    assert.equal(t.scripted.calls.status.length, 4);
    assert.deepEqual(t.types(), ['pending', 'pending', 'pending', 'pending']);
  });

  it("a hand-off's CANCELED is a dead code: a new one is offered, the attempt reported abandoned as expired", async () => {
    const t = contextFixture();
    t.scripted.queues.status.push(status('CANCELED'));
    verify(t.ctx, t.kept({ handoff: true }), 0);
    assert.equal(t.ctx.state.name, 'handoff');
    await flush();
    assert.equal(t.ctx.state.name, 'handoff-expired');
    assert.deepEqual(t.events.map((event) => [event.type, (event as { reason?: string }).reason]), [['abandoned', 'expired']]);
  });

  it('back on the page with a web booking still BOOKED: it was left unpaid and is abandoned', async () => {
    const t = contextFixture({ environment: 'desktop' });
    t.scripted.queues.status.push(status('BOOKED'));
    t.scripted.queues.cancel.push(hangs());
    verify(t.ctx, t.kept({ channel: 'web' }), 0, true);
    await flush();
    assert.equal(t.ctx.state.name, 'cancelling');
    assert.equal(t.scripted.calls.cancel.length, 1);
  });

  it("back on the page in someone else's in-app browser with its web booking still BOOKED: kept, and its other ways out shown", async () => {
    const t = contextFixture({ environment: 'inapp' });
    t.scripted.queues.status.push(status('BOOKED'));
    verify(t.ctx, t.kept({ channel: 'web', inapp: true }), 0, true);
    await flush();
    assert.equal(t.ctx.state.name, 'inapp');
    assert.deepEqual(t.scripted.calls.cancel, []);
  });

  it('the same web booking found open when the page only became visible again is waited for, not abandoned', async () => {
    const t = contextFixture({ environment: 'desktop' });
    t.scripted.queues.status.push(status('BOOKED'));
    verify(t.ctx, t.kept({ channel: 'web' }), 0, false);
    await flush();
    assert.equal(t.ctx.state.name, 'pending');
    assert.deepEqual(t.scripted.calls.cancel, []);
  });

  it('five minutes after the booking, the wait stalls instead of checking again', async () => {
    const t = contextFixture();
    const kept = t.kept();
    await t.clock.advance(300_000);
    t.scripted.queues.status.push(status('PENDING'));
    verify(t.ctx, kept, 7);
    await flush();
    assert.equal(t.ctx.state.name, 'stalled');
    assert.equal(t.clock.pending, 0);
  });

  it('the last check comes at the five minutes, not after a longer backoff', async () => {
    const t = contextFixture({}, { pollDelaysMs: [60_000] });
    const kept = t.kept();
    await t.clock.advance(270_000);
    t.scripted.queues.status.push(status('PENDING'));
    verify(t.ctx, kept, 0);
    await flush();
    assert.equal(t.clock.nextDelay(), 30_000);
  });

  it('a refused check ends the wait with the error and the booking, and "try again" checks again', async () => {
    const t = contextFixture();
    const kept = t.kept();
    t.scripted.queues.status.push(rejects(new BookingError('http', 'bad request', 400)), status('SUCCESS'));
    verify(t.ctx, kept, 0);
    await flush();
    assert.equal(t.ctx.state.error?.kind, 'http');
    assert.equal(t.ctx.state.booking, kept);
    t.ctx.retry?.();
    await flush();
    assert.equal(t.ctx.state.name, 'done');
  });

  it('an answer a newer action overtook is dropped', async () => {
    const t = contextFixture();
    t.scripted.queues.status.push(status('SUCCESS'));
    verify(t.ctx, t.kept(), 0);
    begin(t.ctx);
    await flush();
    assert.equal(t.ctx.state.name, 'verifying');
    assert.deepEqual(t.events, []);
  });

  it('while waiting on the panel, a check that found no server keeps the panel and says it is reconnecting', async () => {
    const t = contextFixture();
    const kept = t.kept();
    setState(t.ctx, 'pending', kept);
    t.scripted.queues.status.push(rejects(new BookingError('timeout', 'slow')), hangs());
    verify(t.ctx, kept, 0);
    assert.equal(t.ctx.state.name, 'verifying', 'a first check shows verifying');
    await flush();
    assert.equal(t.ctx.state.name, 'pending');
    assert.equal(t.ctx.state.reconnecting, 'server');
    await t.clock.advance(2000);
    assert.equal(t.scripted.calls.status.length, 2);
    assert.equal(t.ctx.state.name, 'pending', 'the check of a reconnecting wait keeps the panel up');
    assert.equal(t.ctx.state.reconnecting, 'server');
  });
});

describe('waiting: outlive', () => {
  it('outlives a server that did not answer or a device offline, for a booking the element waits for', () => {
    const t = contextFixture();
    const run = begin(t.ctx);
    assert.equal(outlive(t.ctx, run, t.kept({ channel: 'app' }), new BookingError('offline', 'offline'), 0, false), true);
    assert.equal(t.ctx.state.reconnecting, 'offline');
    assert.equal(t.clock.nextDelay(), 2000);
    assert.equal(outlive(t.ctx, begin(t.ctx), t.kept({ handoff: true }), new BookingError('http', 'bad gateway', 502), 1, false), true);
    assert.equal(t.ctx.state.name, 'handoff');
    assert.equal(t.ctx.state.reconnecting, 'server');
    assert.equal(t.clock.nextDelay(), 4000);
  });

  it("does not outlive a refusal, the shop's set-up, a web payment's check on return, or the five minutes", async () => {
    const t = contextFixture();
    const run = begin(t.ctx);
    assert.equal(outlive(t.ctx, run, t.kept(), new BookingError('http', 'bad request', 400), 0, true), false);
    assert.equal(outlive(t.ctx, run, t.kept(), new BookingError('http', 'set-up', 501, MERCHANT_SETUP), 0, true), false);
    assert.equal(outlive(t.ctx, run, t.kept({ channel: 'web' }), new BookingError('network', 'down'), 0, false), false);
    const kept = t.kept();
    await t.clock.advance(300_000);
    assert.equal(outlive(t.ctx, run, kept, new BookingError('network', 'down'), 0, true), false);
    assert.deepEqual(t.names(), []);
    assert.equal(t.clock.pending, 0);
  });
});

describe('waiting: waitFor and handoffExpired', () => {
  it('waitFor shows the wait and reports its status and time', async () => {
    const t = contextFixture();
    const kept = t.kept({ inapp: true });
    await t.clock.advance(1000);
    waitFor(t.ctx, begin(t.ctx), kept, 'PENDING', 0);
    assert.equal(t.ctx.state.name, 'inapp');
    assert.deepEqual(t.events, [{ type: 'pending', booking_id: 'B1', status: 'PENDING', elapsed_ms: 1000 }]);
  });

  it('a timer of a run a newer action overtook does not check', async () => {
    const t = contextFixture();
    waitFor(t.ctx, begin(t.ctx), t.kept(), 'BOOKED', 0);
    const later = t.clock.nextDelay();
    begin(t.ctx);
    await t.clock.advance(later ?? 0);
    assert.deepEqual(t.scripted.calls.status, []);
  });

  it("handoffExpired ends the funnel and offers a new code", () => {
    const t = contextFixture();
    handoffExpired(t.ctx, t.kept({ handoff: true }));
    assert.equal(t.ctx.state.name, 'handoff-expired');
    assert.equal(t.ctx.funnel.over, true);
  });
});
