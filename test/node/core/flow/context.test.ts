import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { begin, clientFor, fail, flowContext, funnelOver, idleBooking, keep, live, setState, step } from '../../../../src/core/flow/context.js';
import { settingsOf } from '../../../support/settings.js';
import { contextFixture } from './context-fixture.js';

describe('flow context', () => {
  it('starts idle, with no attempt, and takes the funnel the element began', () => {
    const t = contextFixture();
    assert.equal(t.ctx.state.name, 'idle');
    assert.equal(t.ctx.state.busy, false);
    assert.equal(t.ctx.attempt, null);
    assert.deepEqual(t.ctx.funnel, { id: 'funnel-1', at: t.clock.now() });
  });

  it('begins a funnel of its own, at the clock\'s time, when the element gave none', () => {
    const t = contextFixture();
    const ctx = flowContext({ ...t.deps, funnel: undefined }, { verify: () => undefined, pay: () => undefined });
    assert.match(ctx.funnel.id, /^[0-9a-f-]{36}$/);
    assert.equal(ctx.funnel.at, t.clock.now());
  });

  it('setState shows the state and tells the host each time', () => {
    const t = contextFixture();
    const kept = t.kept();
    setState(t.ctx, 'pending', kept);
    setState(t.ctx, 'stalled', kept, { reconnecting: 'server' });
    assert.deepEqual(t.names(), ['pending', 'stalled']);
    assert.equal(t.ctx.state, t.states.at(-1));
    assert.equal(t.ctx.state.booking, kept);
    assert.equal(t.ctx.state.reconnecting, 'server');
  });

  it('fail shows the failure before reporting it, with no booking, no way forward and no outcome by default', () => {
    const t = contextFixture();
    fail(t.ctx, 'config', 'endpoint is missing');
    assert.equal(t.shownAtEvent[0]?.name, 'error', 'the error event finds the failure shown');
    assert.deepEqual(t.events, [{ type: 'error', kind: 'config', message: 'endpoint is missing' }]);
    const { booking, canRetry, canStartAgain, error, outcome } = t.ctx.state;
    assert.deepEqual({ booking, canRetry, canStartAgain, error, outcome }, { booking: null, canRetry: false, canStartAgain: false, error: { kind: 'config' }, outcome: null });
  });

  it('fail keeps the options it is given, and the error event carries the details', () => {
    const t = contextFixture();
    const kept = t.kept();
    fail(t.ctx, 'http', 'HTTP 502', { booking: kept, extra: { code: 'IP-502', http_status: 502 }, canRetry: true, name: 'error' });
    assert.equal(t.ctx.state.booking, kept);
    assert.equal(t.ctx.state.canRetry, true);
    assert.deepEqual(t.ctx.state.error, { kind: 'http', httpStatus: 502, code: 'IP-502' });
    assert.deepEqual(t.events, [{ type: 'error', kind: 'http', message: 'HTTP 502', code: 'IP-502', http_status: 502 }]);
  });

  it('begin makes the previous run stale and aborts its requests, and shows the state it names', () => {
    const t = contextFixture();
    const first = begin(t.ctx);
    assert.equal(live(t.ctx, first), true);
    assert.deepEqual(t.names(), [], 'no name, no state change');
    const second = begin(t.ctx, 'cancelling', t.kept());
    assert.equal(live(t.ctx, first), false);
    assert.equal(first.signal.aborted, true);
    assert.equal(live(t.ctx, second), true);
    assert.equal(second.signal.aborted, false);
    assert.deepEqual(t.names(), ['cancelling']);
  });

  it('clientFor makes one client per settings snapshot', () => {
    const t = contextFixture();
    const other = settingsOf({ endpoint: 'https://other.test/pay' });
    assert.equal(clientFor(t.ctx, t.settings), clientFor(t.ctx, t.settings));
    assert.notEqual(clientFor(t.ctx, other), clientFor(t.ctx, t.settings));
    assert.deepEqual(t.scripted.made, [t.settings, other]);
  });

  it('idleBooking is the panel\'s booking, and none while something runs', () => {
    const t = contextFixture();
    const kept = t.kept();
    setState(t.ctx, 'pending', kept);
    assert.equal(idleBooking(t.ctx), kept);
    setState(t.ctx, 'verifying', kept);
    assert.equal(t.ctx.state.busy, true);
    assert.equal(idleBooking(t.ctx), null);
  });

  it("step reports on the kept booking's funnel after a reload, else on the flow's, never with a negative time", async () => {
    const t = contextFixture();
    await t.clock.advance(500);
    step(t.ctx, 'left', { booking_id: 'B1', to: 'app' }, t.kept({ attempt_id: 'older', attempt_at: t.clock.now() - 2000 }));
    step(t.ctx, 'pressed', { path: 'mobile' });
    step(t.ctx, 'returned', { booking_id: 'B1' }, t.kept({ attempt_id: 'ahead', attempt_at: t.clock.now() + 5 }));
    assert.deepEqual(t.events, [
      { type: 'left', attempt_id: 'older', elapsed_ms: 2000, booking_id: 'B1', to: 'app' },
      { type: 'pressed', attempt_id: 'funnel-1', elapsed_ms: 500, path: 'mobile' },
      { type: 'returned', attempt_id: 'ahead', elapsed_ms: 0, booking_id: 'B1' },
    ]);
  });

  it("funnelOver ends the flow's funnel only for a booking of it (or one kept without a funnel)", () => {
    const t = contextFixture();
    funnelOver(t.ctx, t.kept({ attempt_id: 'another' }));
    assert.equal(t.ctx.funnel.over, undefined);
    funnelOver(t.ctx, t.kept());
    assert.equal(t.ctx.funnel.over, true);
    const u = contextFixture();
    funnelOver(u.ctx, t.kept({ attempt_id: undefined }));
    assert.equal(u.ctx.funnel.over, true);
  });

  it('keep stores the booking and ends the attempt that made it', () => {
    const t = contextFixture();
    t.ctx.attempt = { key: 'k0', environment: 'mobile', settings: t.settings };
    t.store.setAttempt(t.settings.storageKey, 'mobile:k0');
    const kept = t.kept();
    keep(t.ctx, kept);
    assert.equal(t.ctx.attempt, null);
    assert.equal(t.store.attempt(t.settings.storageKey), null);
    assert.equal(t.store.entries.get(t.settings.storageKey), kept);
  });
});
