import { expect } from '@open-wc/testing';
import { IDLE_STATE, type FlowState } from '../../../src/core/flow/index.js';
import { errorKey, statusKey } from '../../../src/element/status-keys.js';
import { STRINGS_EN } from '../../../src/element/i18n/index.js';

const state = (extra: Partial<FlowState>): FlowState => ({ ...IDLE_STATE, ...extra });

describe('the words of a flow state', () => {
  it('maps each request failure to its own message; a refusal (4xx) reads differently from an outage', () => {
    expect(errorKey({ kind: 'network' })).to.equal('error.network');
    expect(errorKey({ kind: 'offline' })).to.equal('error.offline');
    expect(errorKey({ kind: 'timeout' })).to.equal('error.timeout');
    expect(errorKey({ kind: 'http', httpStatus: 503 })).to.equal('error.http');
    expect(errorKey({ kind: 'http', httpStatus: 422, code: 'IP-424' })).to.equal('error.rejected');
    expect(errorKey({ kind: 'http', httpStatus: 0 })).to.equal('error.rejected');
    expect(errorKey({ kind: 'invalid-json' })).to.equal('error.invalid-json');
    expect(errorKey({ kind: 'url-refused' })).to.equal('error.url-refused');
  });

  it('shows each state by name, the outcome when done, and nothing when idle', () => {
    expect(statusKey(IDLE_STATE)).to.equal(null);
    expect(statusKey(state({ name: 'booking' }))).to.equal('status.booking');
    expect(statusKey(state({ name: 'stalled' }))).to.equal('status.stalled');
    expect(statusKey(state({ name: 'done', outcome: 'SUCCESS' }))).to.equal('status.success');
    expect(statusKey(state({ name: 'done', outcome: 'CANCELED' }))).to.equal('status.cancelled');
    expect(statusKey(state({ name: 'done', outcome: 'REVERTED' }))).to.equal('status.failure');
    expect(statusKey(state({ name: 'done', outcome: 'SUCCESS', error: { kind: 'return-url-refused' } }))).to.equal('error.return-url-refused');
  });

  it('every key it can give has a text', () => {
    const names = ['booking', 'redirecting', 'opening-app', 'app-fallback', 'verifying', 'pending', 'stalled', 'cancelling', 'webview'] as const;
    for (const name of names) expect(STRINGS_EN[statusKey(state({ name }))!], name).to.be.a('string');
  });
});
