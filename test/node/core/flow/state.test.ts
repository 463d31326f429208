/**
 * The flow's states as plain values: `flowState` derives `busy` from the state's name alone (clicks
 * are ignored while a request or a navigation is under way), keeps the booking it is given, takes the
 * rest from `extra` or idle; `IDLE_STATE` is the first module's idle state, whole.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IDLE_STATE, flowState, type FlowStateName } from '../../../../src/core/flow/state.js';
import { IDLE_STATE as FIRST_MODULE_IDLE } from '../../../../src/core/flow/idle.js';
import type { KeptBooking } from '../../../../src/core/session-store.js';
import { settingsOf } from '../../../support/settings.js';

const kept: KeptBooking = { booking_id: 'B1', correlation_id: 'c-B1', channel: 'web', idempotency_key: 'k1', started_at: 1, settings: settingsOf() };

const BUSY: readonly FlowStateName[] = ['booking', 'redirecting', 'opening-app', 'verifying', 'cancelling'];
const AT_REST: readonly FlowStateName[] = ['idle', 'app-fallback', 'pending', 'stalled', 'webview', 'inapp', 'handoff', 'handoff-expired', 'done', 'paid', 'error'];

describe('flowState', () => {
  it('is busy exactly in the states where a request or a navigation is under way', () => {
    for (const name of BUSY) assert.equal(flowState(name, kept).busy, true, name);
    for (const name of AT_REST) assert.equal(flowState(name, kept).busy, false, name);
  });

  it('keeps the booking it is given, and null when given none', () => {
    assert.equal(flowState('pending', kept).booking, kept);
    assert.equal(flowState('pending', null).booking, null);
  });

  it('takes the other fields from extra, and from idle where extra says nothing', () => {
    const error = flowState('error', null, { error: { kind: 'network', httpStatus: 502 }, canRetry: true });
    assert.deepEqual(error, { ...IDLE_STATE, name: 'error', busy: false, booking: null, error: { kind: 'network', httpStatus: 502 }, canRetry: true });
    const done = flowState('done', kept, { outcome: 'SUCCESS' });
    assert.equal(done.outcome, 'SUCCESS');
    assert.equal(done.canRetry, false, 'a state does not inherit the flags of the state before it');
    assert.equal(done.error, null);
    assert.equal(done.paidUrl, null);
    assert.equal(done.reconnecting, null);
  });

  it('a fresh object each time, so a state once reported never changes under its reader', () => {
    const first = flowState('pending', kept, { reconnecting: 'server' });
    const second = flowState('pending', kept, { reconnecting: 'server' });
    assert.notEqual(first, second);
    assert.deepEqual(first, second);
    assert.notEqual(flowState('idle', null), IDLE_STATE);
  });
});

describe('IDLE_STATE', () => {
  it("is the first module's idle state: at rest, nothing kept, nothing offered", () => {
    assert.equal(IDLE_STATE, FIRST_MODULE_IDLE);
    assert.deepEqual(IDLE_STATE, {
      name: 'idle',
      busy: false,
      booking: null,
      canRetry: false,
      canStartAgain: false,
      error: null,
      outcome: null,
      paidUrl: null,
      reconnecting: null,
    });
    assert.deepEqual(flowState('idle', null), IDLE_STATE);
  });
});
