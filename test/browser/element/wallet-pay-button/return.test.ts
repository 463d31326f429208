import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import type { WalletPayEvent } from '../../../../src/element/events.js';
import type { FlowTimings } from '../../../../src/core/flow/index.js';
import type { KeptBooking } from '../../../../src/core/session-store.js';
import { bookingKey } from '../../../../src/core/settings.js';
import { FAST, mount, nextCheck, part, payButton, reach, statusText } from '../../../support/element.js';
import { answer, recordingNavigator, scenario, type Scenario } from '../../../support/proxy.js';

afterEach(() => sessionStorage.clear());

const ORDER = { id: 'A-1001' };

/** Puts a booking in session storage as the element keeps it before leaving the page. */
function keep(s: Scenario, booking: Partial<KeptBooking> = {}): string {
  const key = bookingKey(new URL(s.endpoint, location.href).href, ORDER);
  // Kept as an earlier version did, without its settings: the element's settings of the moment apply.
  const kept: Omit<KeptBooking, 'settings'> = { booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', idempotency_key: 'k-1', started_at: Date.now(), deeplink: 'https://links.wallet.test/pay/B1', ...booking };
  sessionStorage.setItem(key, JSON.stringify(kept));
  return key;
}

const done = (status: string) => `${location.origin}/shop/done?booking_id=B1&status=${status}`;
const failed = (status: string) => `${location.origin}/shop/failed?booking_id=B1&status=${status}`;

describe('<wallet-pay-button> fresh load with a kept booking', () => {
  it('asks the status and routes SUCCESS to the success page, then forgets the booking', async () => {
    const s = await scenario({ status: [answer.status('B1', 'SUCCESS')] });
    const key = keep(s);
    const success = oneEvent(document, 'wallet-pay-success');
    const navigate = oneEvent(document, 'wallet-pay-navigate');
    const m = await mount(s);
    const { el, nav } = m;
    expect((await success).detail).to.deep.equal({ booking_id: 'B1', status: 'SUCCESS' });
    expect((await navigate).detail).to.deep.include({ reason: 'success', url: done('SUCCESS') });
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: done('SUCCESS') }]);
    expect((await s.received()).status.map((r) => r.body)).to.deep.equal([{ booking_id: 'B1', correlation_id: 'c-B1', order: { id: 'A-1001' } }]);
    expect(sessionStorage.getItem(key)).to.equal(null);
    await el.updateComplete;
    expect(statusText(el)).to.equal('Payment complete.');
    await expect(el).to.be.accessible();
  });

  it('back at the checkout of an order this tab paid: shown as paid, the button disabled, a link to the success page', async () => {
    const s = await scenario({ status: [answer.status('B1', 'SUCCESS')], book: [answer.bookApp('B2')] });
    keep(s);
    const first = await mount(s);
    await reach(first.el, 'done');
    first.el.remove();
    // The shopper comes back to the checkout of the same order (the back button, a bookmark).
    const { el } = await mount(s);
    await reach(el, 'paid');
    expect(statusText(el)).to.equal('Payment received, thank you.');
    expect(payButton(el).disabled).to.equal(true);
    expect(part<HTMLAnchorElement>(el, 'see-order')!.href).to.equal(done('SUCCESS'));
    await expect(el).to.be.accessible();
    payButton(el).click();
    expect((await s.received()).book).to.have.length(0);
    // Another order on the same page pays as usual.
    el.orderId = 'A-2002';
    await el.updateComplete;
    await el.updateComplete;
    expect(payButton(el).disabled).to.equal(false);
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    expect((await navigate).detail.url).to.equal('https://links.wallet.test/pay/B2');
  });

  for (const final of ['FAILED', 'CANCELED', 'REVERTED']) {
    it(`routes ${final} to the failure page`, async () => {
      const s = await scenario({ status: [answer.status('B1', final)] });
      keep(s);
      const failure = oneEvent(document, 'wallet-pay-failure');
      const m = await mount(s);
    const { nav } = m;
      expect((await failure).detail).to.deep.equal({ booking_id: 'B1', status: final });
      expect(nav.calls).to.deep.equal([{ kind: 'assign', url: failed(final) }]);
    });
  }

  it('reports a status check that fails while verifying a web payment, and its retry routes', async () => {
    const s = await scenario({ status: [{ ...answer.failure(500, 'IP-500'), delay: 100 }] });
    // Back from the provider's page: its first check decides (a wait for the app outlives a failed check: reconnecting.test.ts).
    keep(s, { channel: 'web', deeplink: undefined });
    const error = oneEvent(document, 'wallet-pay-error');
    const m = await mount(s);
    const { el, nav } = m;
    expect(payButton(el).getAttribute('aria-busy')).to.equal('true');
    expect(statusText(el)).to.equal('Checking your payment…');
    await expect(el).to.be.accessible();
    expect((await error).detail).to.include({ kind: 'http', code: 'IP-500', http_status: 500 });
    await reach(el, 'error');
    expect(statusText(el)).to.equal('The payment could not be started right now. Please try again.');
    await expect(el).to.be.accessible();
    await s.script({ keepReceived: true, status: [answer.status('B1', 'SUCCESS')] });
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    part(el, 'retry')!.click();
    await navigate;
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: done('SUCCESS') }]);
    expect((await s.received()).book).to.have.length(0);
  });

  it('refuses a success page on another origin before anything is booked, and follows it once the origin is allowed', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'SUCCESS')] });
    const m = await mount(s, { successUrl: 'https://elsewhere.test/thanks' });
    const { el } = m;
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    const { detail } = await error;
    expect(detail.kind).to.equal('config');
    expect(detail.message).to.contain('success-url="https://elsewhere.test/thanks" is on another origin');
    expect((await s.received()).book).to.have.length(0);
    el.remove();

    keep(s);
    const nav2 = recordingNavigator();
    const navigate = oneEvent(document, 'wallet-pay-navigate');
    await fixture<WalletPayButton>(html`<wallet-pay-button endpoint=${s.endpoint} order-id="A-1001" allowed-hosts="links.wallet.test" success-url="https://elsewhere.test/thanks"
      return-origins="https://elsewhere.test" .navigation=${nav2} .timings=${FAST}></wallet-pay-button>`);
    await navigate;
    expect(nav2.calls).to.deep.equal([{ kind: 'assign', url: 'https://elsewhere.test/thanks?booking_id=B1&status=SUCCESS' }]);
  });

  it("resolves a relative success-url against the document's <base>, as a link would", async () => {
    const base = document.head.appendChild(Object.assign(document.createElement('base'), { href: '/store/' }));
    try {
      const s = await scenario({ status: [answer.status('B1', 'SUCCESS')] });
      keep(s);
      const navigate = oneEvent(document, 'wallet-pay-navigate');
      const m = await mount(s, { successUrl: 'done' });
    const { nav } = m;
      expect((await navigate).detail.url).to.equal(`${location.origin}/store/done?booking_id=B1&status=SUCCESS`);
      expect(nav.calls).to.deep.equal([{ kind: 'assign', url: `${location.origin}/store/done?booking_id=B1&status=SUCCESS` }]);
    } finally {
      base.remove();
    }
  });

  it('ignores a kept value it did not write', async () => {
    const s = await scenario({ status: [answer.status('B1', 'SUCCESS')] });
    const key = bookingKey(new URL(s.endpoint, location.href).href, ORDER);
    sessionStorage.setItem(key, '{"booking_id": 1}');
    const m = await mount(s);
    const { el } = m;
    await el.updateComplete;
    expect(el.paymentState.name).to.equal('idle');
    expect(sessionStorage.getItem(key)).to.equal(null);
  });
});

describe('<wallet-pay-button> coming back to the page', () => {
  // Stays PENDING for the whole test: no second check, and no "five minutes" either. FAST's 250 ms
  // "five minutes" is shorter than a status round trip can take when three device profiles share two
  // cores; an answer that comes after it rightly leads to "stalled", never to "pending".
  const STAYS_PENDING: Partial<FlowTimings> = { ...FAST, pollDelaysMs: [60_000], finalCheckAfterMs: 60_000 };

  it('on pageshow from the back/forward cache asks the status and routes', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'SUCCESS')] });
    const m = await mount(s);
    const { el, nav } = m;
    const opened = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await opened;
    // A normal (non-persisted) pageshow is a fresh load of another page instance: nothing to do here.
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
    const success = oneEvent(el, 'wallet-pay-success');
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await success;
    expect((await s.received()).status).to.have.length(1);
    expect(nav.calls).to.deep.equal([
      { kind: 'openApp', url: 'https://links.wallet.test/pay/B1' },
      { kind: 'assign', url: done('SUCCESS') },
    ]);
  });

  it('on becoming visible again checks, and while PENDING keeps the app panel with the pending message', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'PENDING')] });
    const m = await mount(s, { timings: STAYS_PENDING });
    const { el } = m;
    const opened = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await opened;
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      expect((await s.received()).status).to.have.length(0);
    } finally {
      delete (document as unknown as Record<string, unknown>).visibilityState;
    }
    const pending = oneEvent(el, 'wallet-pay-pending');
    document.dispatchEvent(new Event('visibilitychange'));
    expect((await pending).detail).to.include({ booking_id: 'B1', status: 'PENDING' });
    await reach(el, 'pending');
    expect(statusText(el)).to.equal('Waiting for the payment to be confirmed…');
    expect(part<HTMLAnchorElement>(el, 'open-app')!.href).to.equal('https://links.wallet.test/pay/B1');
    expect(part(el, 'cancel')).to.not.equal(null);
    await expect(el).to.be.accessible();
  });

  it('PENDING → backoff → five minutes → one last check → "check again" and "cancel payment"', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING')] });
    keep(s, { channel: 'web', deeplink: undefined });
    const pendings: number[] = [];
    const onPending = (event: WalletPayEvent<'pending'>) => pendings.push(event.detail.elapsed_ms);
    document.addEventListener('wallet-pay-pending', onPending);
    // The spec's own delays and five minutes, on the element's fake clock.
    const m = await mount(s, { timings: {} });
    const { el, nav } = m;
    await reach(el, 'pending');
    while (el.paymentState.name === 'pending') {
      await nextCheck(m);
      await waitUntil(() => el.paymentState.name !== 'verifying', 'the status check did not answer', { timeout: 8000 });
    }
    await reach(el, 'stalled');
    document.removeEventListener('wallet-pay-pending', onPending);
    expect(pendings.every((elapsed, i) => i === 0 || elapsed > pendings[i - 1]!)).to.equal(true);
    const received = (await s.received()).status.length;
    // The default backoff between checks, until the last one at five minutes.
    expect(pendings.slice(1, 6).map((elapsed, i) => elapsed - pendings[i]!)).to.deep.equal([2000, 3000, 5000, 10000, 20000]);
    expect(pendings.at(-1)).to.be.below(5 * 60 * 1000);
    expect(received).to.equal(pendings.length + 1);
    expect(statusText(el)).to.equal('We have not received a final answer about your payment yet. You can check again or cancel the payment.');
    expect(part(el, 'check-again')).to.not.equal(null);
    expect(part(el, 'cancel')).to.not.equal(null);
    expect(nav.calls).to.deep.equal([]);
    await expect(el).to.be.accessible();

    part(el, 'check-again')!.click();
    await reach(el, 'stalled');
    expect((await s.received()).status.length).to.equal(received + 1);

    await s.script({ keepReceived: true, status: [answer.status('B1', 'SUCCESS')] });
    const success = oneEvent(el, 'wallet-pay-success');
    part(el, 'check-again')!.click();
    await success;
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: done('SUCCESS') }]);
  });

  it('back from the payment page without paying: the booking is cancelled at the service, abandoned ("back"), and the button is ready again', async () => {
    const web = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { booking_id: 'W1', signature: 'c2ln' } };
    const s = await scenario({ book: [answer.bookWeb('W1', web)], status: [answer.status('W1', 'BOOKED')], cancel: [answer.cancelled('W1')] });
    const m = await mount(s, { environment: 'desktop', timings: STAYS_PENDING });
    const { el, nav } = m;
    const left = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await left;
    const abandoned = oneEvent(el, 'wallet-pay-abandoned');
    // The shopper comes back with the browser's back button, without paying.
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    expect((await abandoned).detail).to.deep.include({ booking_id: 'W1', reason: 'back' });
    await reach(el, 'idle');
    expect((await s.received()).cancel.map((r) => r.body.booking_id)).to.deep.equal(['W1']);
    expect(payButton(el).disabled).to.equal(false);
    expect(nav.calls).to.have.length(1);
    await expect(el).to.be.accessible();
  });

  it('back while the web payment is still PENDING: "continue to the payment page" (the same booking) beside "cancel payment"', async () => {
    const web = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { booking_id: 'W1', signature: 'c2ln' } };
    const s = await scenario({ book: [answer.bookWeb('W1', web)], status: [answer.status('W1', 'PENDING')] });
    const m = await mount(s, { environment: 'desktop', timings: STAYS_PENDING });
    const { el, nav } = m;
    const left = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await left;
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await reach(el, 'pending');
    expect(part(el, 'continue-web')!.textContent!.trim()).to.equal('Continue to the payment page');
    expect(part(el, 'cancel')).to.not.equal(null);
    await expect(el).to.be.accessible();
    const again = oneEvent(el, 'wallet-pay-navigate');
    part(el, 'continue-web')!.click();
    expect((await again).detail).to.deep.include({ reason: 'web-payment', url: web.url, booking_id: 'W1' });
    expect(nav.calls).to.deep.equal([
      { kind: 'postForm', url: web.url, fields: web.fields },
      { kind: 'postForm', url: web.url, fields: web.fields },
    ]);
    expect((await s.received()).book, 'the same booking, not a new one').to.have.length(1);
  });

  it('a web booking still pending offers to cancel', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING')] });
    keep(s, { channel: 'web', deeplink: undefined });
    const m = await mount(s, { timings: STAYS_PENDING });
    const { el } = m;
    await reach(el, 'pending');
    expect(part(el, 'cancel')).to.not.equal(null);
    expect(part(el, 'open-app')).to.equal(null);
    await expect(el).to.be.accessible();
  });
});

describe('<wallet-pay-button> cancel payment', () => {
  async function stalledElement(s: Scenario) {
    keep(s, { started_at: Date.now() - 10 * 60 * 1000 });
    const mounted = await mount(s);
    await reach(mounted.el, 'stalled');
    return mounted;
  }

  it('cancels through {endpoint}/cancel and goes to the failure page', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING')], cancel: [answer.cancelled('B1')] });
    const { el, nav } = await stalledElement(s);
    const cancel = oneEvent(el, 'wallet-pay-cancel');
    const failure = oneEvent(el, 'wallet-pay-failure');
    part(el, 'cancel')!.click();
    expect((await cancel).detail).to.deep.equal({ booking_id: 'B1', status: 'CANCELED' });
    expect((await failure).detail.status).to.equal('CANCELED');
    expect((await s.received()).cancel.map((r) => r.body)).to.deep.equal([{ booking_id: 'B1', correlation_id: 'c-B1', order: { id: 'A-1001' } }]);
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: failed('CANCELED') }]);
    await el.updateComplete;
    expect(statusText(el)).to.equal('Payment cancelled.');
  });

  it('a refusal with IP-410 checks the status again and routes by it', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING')], cancel: [answer.failure(409, 'IP-410', 'already processed')] });
    const { el, nav } = await stalledElement(s);
    await s.script({ keepReceived: true, status: [answer.status('B1', 'SUCCESS')], cancel: [answer.failure(409, 'IP-410', 'already processed')] });
    const success = oneEvent(el, 'wallet-pay-success');
    part(el, 'cancel')!.click();
    await success;
    const received = await s.received();
    expect(received.cancel).to.have.length(1);
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: done('SUCCESS') }]);
  });

  it('a cancel that fails for another reason is reported with a retry', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING')], cancel: [answer.failure(502, 'IP-502')] });
    const { el } = await stalledElement(s);
    const error = oneEvent(el, 'wallet-pay-error');
    part(el, 'cancel')!.click();
    expect((await error).detail.code).to.equal('IP-502');
    await reach(el, 'error');
    expect(part(el, 'retry')).to.not.equal(null);
    await expect(el).to.be.accessible();
  });
});
