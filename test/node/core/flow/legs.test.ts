import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { begin } from '../../../../src/core/flow/context.js';
import { checked, followWebPayment, handOver, navigateWebPayment, openApp, showCode } from '../../../../src/core/flow/legs.js';
import type { BookResult, WebPaymentInstruction } from '../../../../src/protocol/contract.js';
import { flush } from '../../../support/fake-clock.js';
import { answer, contextFixture } from './context-fixture.js';

const appResult = (deeplink = 'https://links.wallet.test/pay/B1'): BookResult => ({ booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', deeplink });
const form: WebPaymentInstruction = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { booking: 'B1' } };

describe('legs: checked', () => {
  it('passes a provider address on an allowed host', () => {
    const t = contextFixture();
    assert.equal(checked(t.ctx, begin(t.ctx), t.kept(), 'https://pay.wallet.test/x')?.href, 'https://pay.wallet.test/x');
    assert.deepEqual(t.events, []);
  });

  it('refuses another host: the booking is cancelled, the attempt ended, and "try again" pays anew', async () => {
    const t = contextFixture();
    t.ctx.attempt = { key: 'k0', environment: 'mobile', settings: t.settings };
    t.store.setAttempt(t.settings.storageKey, 'mobile:k0');
    t.scripted.queues.cancel.push(answer({ booking_id: 'B1', correlation_id: 'c-B1', status: 'CANCELED' as const }));
    assert.equal(checked(t.ctx, begin(t.ctx), t.kept(), 'https://evil.test/pay'), null);
    assertRefused(t, 'https://evil.test/pay');
    await flush();
    assert.equal(t.scripted.calls.cancel.length, 1, 'cancelled, best effort');
    t.ctx.retry?.();
    assert.deepEqual(t.again.pay, [{ settings: t.settings, pressed: false }]);
  });

  it('refuses a missing address the same way', () => {
    const t = contextFixture();
    t.scripted.queues.cancel.push(answer({ booking_id: 'B1', correlation_id: 'c-B1', status: 'CANCELED' as const }));
    assert.equal(checked(t.ctx, begin(t.ctx), t.kept(), undefined), null);
    assertRefused(t, '');
  });

  it('an answer of a run a newer action overtook is neither followed nor refused', () => {
    const t = contextFixture();
    const run = begin(t.ctx);
    begin(t.ctx);
    assert.equal(checked(t.ctx, run, t.kept(), 'https://evil.test/pay'), null);
    assert.deepEqual(t.events, []);
    assert.deepEqual(t.scripted.calls.cancel, []);
  });

  function assertRefused(t: ReturnType<typeof contextFixture>, url: string): void {
    assert.equal(t.ctx.attempt, null);
    assert.equal(t.store.attempt(t.settings.storageKey), null);
    assert.equal(t.ctx.state.error?.kind, 'url-refused');
    assert.equal(t.ctx.state.canRetry, true);
    assert.equal((t.events.at(-1) as { url?: string }).url, url);
  }
});

describe('legs: the web payment', () => {
  it('keeps the booking with its instruction, then POSTs the form and reports leaving for the web', () => {
    const t = contextFixture({ environment: 'desktop' });
    const kept = t.kept({ channel: 'web' });
    followWebPayment(t.ctx, begin(t.ctx), { kept, result: { booking_id: 'B1', correlation_id: 'c-B1', channel: 'web', web_payment: form } });
    assert.deepEqual(t.store.load(t.settings.storageKey, t.settings)?.web_payment, form);
    assert.equal(t.ctx.state.name, 'redirecting');
    assert.deepEqual(t.types(), ['left', 'navigate']);
    assert.deepEqual(t.navigator.calls, [{ kind: 'postForm', url: form.url, fields: form.fields }]);
  });

  it('follows a GET with its fields in the query', () => {
    const t = contextFixture({ environment: 'desktop' });
    navigateWebPayment(t.ctx, begin(t.ctx), t.kept({ channel: 'web' }), { ...form, method: 'GET' });
    assert.deepEqual(t.navigator.calls, [{ kind: 'assign', url: 'https://pay.wallet.test/form?booking=B1' }]);
  });

  it('a host that routes itself keeps the button ready, the booking kept', () => {
    const t = contextFixture({ environment: 'desktop' });
    t.host.preventNavigation = true;
    navigateWebPayment(t.ctx, begin(t.ctx), t.kept({ channel: 'web' }), form);
    assert.deepEqual(t.navigator.calls, []);
    assert.equal(t.ctx.state.name, 'idle');
    assert.equal(t.store.load(t.settings.storageKey, t.settings)?.booking_id, 'B1');
  });

  it('a refused payment page is not followed and its booking not kept', () => {
    const t = contextFixture({ environment: 'desktop' });
    t.scripted.queues.cancel.push(answer({ booking_id: 'B1', correlation_id: 'c-B1', status: 'CANCELED' as const }));
    navigateWebPayment(t.ctx, begin(t.ctx), t.kept({ channel: 'web' }), { ...form, url: 'https://evil.test/form' });
    assert.deepEqual(t.navigator.calls, []);
    assert.equal(t.store.load(t.settings.storageKey, t.settings), null);
    assert.equal(t.ctx.state.error?.kind, 'url-refused');
  });
});

describe('legs: the app', () => {
  it('opens the app at once and shows the fallback panel after the delay if the page is still visible', async () => {
    const t = contextFixture();
    openApp(t.ctx, begin(t.ctx), { kept: t.kept(), result: appResult() });
    assert.deepEqual(t.navigator.calls, [{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
    assert.equal(t.store.load(t.settings.storageKey, t.settings)?.deeplink, 'https://links.wallet.test/pay/B1');
    assert.deepEqual(t.types(), ['left', 'navigate']);
    await t.clock.advance(1499);
    assert.equal(t.ctx.state.name, 'opening-app');
    await t.clock.advance(1);
    assert.equal(t.ctx.state.name, 'app-fallback');
  });

  it('shows no fallback when the page went hidden, and opens nothing when the host routes itself', async () => {
    const t = contextFixture();
    t.host.preventNavigation = true;
    openApp(t.ctx, begin(t.ctx), { kept: t.kept(), result: appResult() });
    assert.deepEqual(t.navigator.calls, []);
    t.host.visible = false;
    await t.clock.advance(1500);
    assert.equal(t.ctx.state.name, 'opening-app');
  });

  it('a refused deeplink opens nothing', () => {
    const t = contextFixture();
    t.scripted.queues.cancel.push(answer({ booking_id: 'B1', correlation_id: 'c-B1', status: 'CANCELED' as const }));
    openApp(t.ctx, begin(t.ctx), { kept: t.kept(), result: appResult('intent://evil.test/pay') });
    assert.deepEqual(t.navigator.calls, []);
    assert.equal(t.ctx.state.error?.kind, 'url-refused');
    assert.equal(t.clock.pending, 0);
  });
});

describe('legs: the phone and the in-app browser', () => {
  it("the hand-off's code shows, reported as left for the phone, and the wait begins", () => {
    const t = contextFixture({ environment: 'desktop' });
    showCode(t.ctx, begin(t.ctx), { kept: t.kept({ handoff: true }), result: appResult() });
    assert.equal(t.ctx.state.name, 'handoff');
    assert.equal(t.ctx.state.booking?.deeplink, 'https://links.wallet.test/pay/B1');
    assert.deepEqual(t.events.map((event) => [event.type, (event as { to?: string }).to]), [['left', 'phone'], ['pending', undefined]]);
    assert.equal(t.clock.nextDelay(), 2000);
  });

  it('a refused deeplink shows no code and starts no wait', () => {
    const t = contextFixture({ environment: 'desktop' });
    t.scripted.queues.cancel.push(answer({ booking_id: 'B1', correlation_id: 'c-B1', status: 'CANCELED' as const }));
    showCode(t.ctx, begin(t.ctx), { kept: t.kept({ handoff: true }), result: appResult('https://evil.test/x') });
    assert.equal(t.ctx.state.error?.kind, 'url-refused');
    assert.equal(t.clock.pending, 0);
  });
});

describe('legs: handOver', () => {
  it('a host app that takes the payment ends it here: no booking, the webview state', () => {
    const t = contextFixture({ environment: 'webview' });
    t.host.hostTakes = true;
    const attempt = (t.ctx.attempt = { key: 'k0', environment: 'webview' as const, settings: t.settings });
    assert.equal(handOver(t.ctx, attempt), true);
    assert.equal(t.ctx.state.name, 'webview');
    assert.equal(t.ctx.attempt, null);
    assert.equal((t.events[0] as { success_url?: string }).success_url, 'https://shop.test/done', 'absolute, for the host app');
  });

  it('no host app: the in-app path goes on when a booking can be made', () => {
    const t = contextFixture({ environment: 'webview' });
    assert.equal(handOver(t.ctx, { key: 'k0', environment: 'webview', settings: t.settings }), false);
    assert.deepEqual(t.names(), []);
  });

  it('no host app and no endpoint: the set-up is named, with no retry', () => {
    const t = contextFixture({ environment: 'webview', endpoint: '' });
    t.ctx.retry = () => undefined;
    assert.equal(handOver(t.ctx, { key: 'k0', environment: 'webview', settings: t.settings }), true);
    assert.equal(t.ctx.state.error?.kind, 'config');
    assert.equal(t.ctx.retry, null);
  });
});
