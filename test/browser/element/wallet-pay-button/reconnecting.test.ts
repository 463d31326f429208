/**
 * A short outage of the shop's server while the element waits for a result: the wait goes on with
 * its backoff, the code or the panel stays, a note says the shop's server is not answering (or that
 * the device is offline), and the next check that answers routes the shopper by itself.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { FlowTimings } from '../../../../src/core/flow/index.js';
import type { KeptBooking } from '../../../../src/core/session-store.js';
import { bookingKey } from '../../../../src/core/settings.js';
import { STRINGS_EN, STRINGS_NE } from '../../../../src/element/i18n/index.js';
import { FAST, mount, nextCheck, part, reach, statusText, type Mounted } from '../../../support/element.js';
import { answer, scenario, type Scenario } from '../../../support/proxy.js';

/** Checks every few ms, and the five minutes far away: only the outage decides. */
const WAITING: Partial<FlowTimings> = { ...FAST, pollDelaysMs: [20, 40], finalCheckAfterMs: 60_000 };
// A dropped connection; Chromium may send the request again once on a fresh connection, so an
// outage is two of them.
const DOWN = { destroy: true };
const OUTAGE = [DOWN, DOWN];
/** What a reverse proxy in front of a stopped shop server answers. */
const GATEWAY = { status: 502, raw: '<html><body>502 Bad Gateway</body></html>' };
const UNAVAILABLE = { status: 503, body: { code: 'IP-503', error_message: 'The store is unavailable' } };
const SUCCESS_URL = `${location.origin}/shop/done?booking_id=B1&status=SUCCESS`;

afterEach(() => sessionStorage.clear());

/** A booking of this tab, kept as if the shopper had gone to the wallet app. */
function keepAppBooking(s: Scenario): void {
  const key = bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-1001' });
  const kept: Omit<KeptBooking, 'settings'> = { booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', idempotency_key: 'k-1', started_at: Date.now(), deeplink: 'https://links.wallet.test/pay/B1' };
  sessionStorage.setItem(key, JSON.stringify(kept));
}

/**
 * Moves to the next check and waits for its answer: the next check's timer is set (the request's own
 * 8 s timeout, also on the fake clock, is gone) or the flow finished.
 */
async function check(m: Mounted): Promise<void> {
  await nextCheck(m);
  await waitUntil(() => m.el.paymentState.name === 'done' || (m.clock.pending > 0 && m.clock.nextDelay()! < 1000), 'the check answered', { timeout: 8000 });
  await m.el.updateComplete;
}

/** Checks until the flow is done (a few checks at most), running `during` after each one that is not the last. */
async function checkUntilDone(m: Mounted, during: () => void = () => undefined): Promise<void> {
  const done = () => m.el.paymentState.name === 'done';
  for (let i = 0; i < 6 && !done(); i++) {
    await check(m);
    if (!done()) during();
  }
  await reach(m.el, 'done');
}

/** Waits until the element says it is reconnecting. */
async function reconnecting(m: Mounted, who: 'server' | 'offline' = 'server'): Promise<void> {
  await waitUntil(() => m.el.paymentState.reconnecting === who, `the element says it is reconnecting (${who})`, { timeout: 8000 });
  await m.el.updateComplete;
}

describe('<wallet-pay-button> a short outage while it waits', () => {
  it('the hand-off: the code stays, the shop\'s server is named, and the payment routes by itself once the server answers', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [...OUTAGE, UNAVAILABLE, answer.status('B1', 'SUCCESS')] });
    const m = await mount(s, { environment: 'desktop', timings: WAITING });
    part(m.el, 'pay-on-phone')!.click();
    await reach(m.el, 'handoff');
    await waitUntil(() => part(m.el, 'qr'), 'the code shows', { timeout: 8000 });
    await check(m);
    await reconnecting(m);
    expect(m.el.paymentState.name).to.equal('handoff');
    expect(part(m.el, 'qr'), 'the code stays').to.not.equal(null);
    expect(statusText(m.el)).to.equal(STRINGS_EN['status.reconnecting']);
    expect(statusText(m.el)).to.contain("shop's server").and.not.contain('payment service');
    expect(part(m.el, 'retry')).to.equal(null);
    await expect(m.el).to.be.accessible();
    // The 503 (the kit's store unavailable) is the same outage: still waiting, the code still there.
    await checkUntilDone(m, () => expect(part(m.el, 'qr'), 'the code stays while reconnecting').to.not.equal(null));
    expect(m.nav.calls).to.deep.equal([{ kind: 'assign', url: SUCCESS_URL }]);
  });

  it('the pending panel: it stays with its actions through the outage, and the next answer routes', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING'), GATEWAY, answer.status('B1', 'SUCCESS')] });
    keepAppBooking(s);
    const m = await mount(s, { timings: WAITING });
    await reach(m.el, 'pending');
    expect(statusText(m.el)).to.equal(STRINGS_EN['status.pending']);
    await check(m);
    await reconnecting(m);
    expect(m.el.paymentState.name).to.equal('pending');
    expect(statusText(m.el)).to.equal(STRINGS_EN['status.reconnecting']);
    expect(part(m.el, 'panel'), 'the panel stays').to.not.equal(null);
    expect(part(m.el, 'cancel')).to.not.equal(null);
    expect(part(m.el, 'retry')).to.equal(null);
    await expect(m.el).to.be.accessible();
    await checkUntilDone(m, () => expect(part(m.el, 'panel'), 'the panel stays while reconnecting').to.not.equal(null));
    expect(m.nav.calls).to.deep.equal([{ kind: 'assign', url: SUCCESS_URL }]);
  });

  it('coming back from the app: a first check that fails keeps the wait (no error), and the payment routes by itself', async () => {
    const s = await scenario({ status: [UNAVAILABLE, ...OUTAGE, answer.status('B1', 'SUCCESS')] });
    keepAppBooking(s);
    const m = await mount(s, { timings: WAITING });
    await reconnecting(m);
    expect(m.el.paymentState).to.deep.include({ name: 'pending', error: null, canRetry: false });
    expect(statusText(m.el)).to.equal(STRINGS_EN['status.reconnecting']);
    expect(part(m.el, 'open-app')).to.not.equal(null);
    await checkUntilDone(m);
    expect(m.nav.calls).to.deep.equal([{ kind: 'assign', url: SUCCESS_URL }]);
  });

  it('offline: the shopper\'s connection is named, not the shop\'s server; back online, the wait routes', async () => {
    const s = await scenario({ status: [answer.status('B1', 'SUCCESS')] });
    keepAppBooking(s);
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    let m: Mounted;
    try {
      m = await mount(s, { timings: WAITING });
      await reconnecting(m, 'offline');
      expect(statusText(m.el)).to.equal(STRINGS_EN['status.reconnecting-offline']);
      expect((await s.received()).status, 'nothing is sent while offline').to.have.length(0);
    } finally {
      delete (navigator as unknown as Record<string, unknown>).onLine;
    }
    await check(m);
    await reach(m.el, 'done');
    expect(m.nav.calls).to.deep.equal([{ kind: 'assign', url: SUCCESS_URL }]);
  });

  it('in Nepali on a Nepali page', async () => {
    const s = await scenario({ status: OUTAGE });
    keepAppBooking(s);
    const m = await mount(s, { timings: WAITING });
    m.el.lang = 'ne';
    await reconnecting(m);
    await waitUntil(() => statusText(m.el) === STRINGS_NE['status.reconnecting'], 'the Nepali note shows', { timeout: 8000 });
  });

  it('a refusal (4xx) is no outage: the wait ends with its message', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING'), { status: 400, body: { code: 'IP-400', error_message: 'bad' } }] });
    keepAppBooking(s);
    const m = await mount(s, { timings: WAITING });
    await reach(m.el, 'pending');
    await nextCheck(m);
    await reach(m.el, 'error');
    expect(m.el.paymentState.reconnecting).to.equal(null);
    expect(part(m.el, 'retry')).to.not.equal(null);
  });
});
