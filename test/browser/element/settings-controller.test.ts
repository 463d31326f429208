/**
 * One settings snapshot per payment: what the attributes say after the shopper acted does not change
 * where that payment is checked, cancelled, cleared or routed; and the element's lifecycle stops what
 * it started.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { WalletPayButton } from '../../../src/element/wallet-pay-button.js';
import type { KeptBooking } from '../../../src/core/session-store.js';
import { bookingKey } from '../../../src/core/settings.js';
import { FAST, mount, nextCheck, part, payButton, reach } from '../../support/element.js';
import { answer, scenario, type Scenario } from '../../support/proxy.js';

// The app around these WebView pages takes the payment (a shop's own app calls preventDefault()).
document.addEventListener('wallet-pay-webview', (event) => event.preventDefault());

afterEach(() => sessionStorage.clear());

function keep(s: Scenario, booking: Partial<KeptBooking> = {}): string {
  const key = bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-1001' });
  sessionStorage.setItem(key, JSON.stringify({ booking_id: 'B1', correlation_id: 'c-B1', channel: 'web', idempotency_key: 'k-1', started_at: Date.now(), ...booking }));
  return key;
}

const bookingKeys = () => Object.keys(sessionStorage).filter((key) => key.startsWith('wallet-pay-button:'));

describe('<wallet-pay-button> one settings snapshot per payment', () => {
  it('a page that changes order, endpoint and return URLs while a payment waits still checks, clears and routes that payment', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING')] });
    const other = await scenario({ status: [answer.status('B1', 'FAILED')] });
    const key = keep(s);
    const m = await mount(s);
    const { el, nav } = m;
    await reach(el, 'pending');
    // A single-page app moves on to another order while the first one waits for its status.
    Object.assign(el, { orderId: 'A-2002', endpoint: other.endpoint, successUrl: '/shop/other-done', failureUrl: '/shop/other-failed' });
    await el.updateComplete;
    await s.script({ keepReceived: true, status: [answer.status('B1', 'SUCCESS')] });
    const success = oneEvent(el, 'wallet-pay-success');
    await nextCheck(m);
    await success;
    expect((await other.received()).status, 'the new endpoint is never asked').to.have.length(0);
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: `${location.origin}/shop/done?booking_id=B1&status=SUCCESS` }]);
    expect(sessionStorage.getItem(key), "the first order's booking is cleared").to.equal(null);
    expect(bookingKeys()).to.deep.equal([]);
  });

  it('cancelling after the endpoint became invalid cancels at the payment\'s endpoint and never sticks busy', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING')], cancel: [answer.cancelled('B1')] });
    keep(s, { started_at: Date.now() - 10 * 60 * 1000 });
    const { el, nav } = await mount(s);
    await reach(el, 'stalled');
    el.endpoint = 'ftp://nowhere.test/pay';
    await el.updateComplete;
    const failure = oneEvent(el, 'wallet-pay-failure');
    part(el, 'cancel')!.click();
    expect((await failure).detail).to.deep.equal({ booking_id: 'B1', status: 'CANCELED' });
    expect((await s.received()).cancel).to.have.length(1);
    await el.updateComplete;
    expect(payButton(el).getAttribute('aria-busy')).to.equal('false');
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: `${location.origin}/shop/failed?booking_id=B1&status=CANCELED` }]);
  });

  it('a kept booking carries its settings: a later page with other return URLs routes by the payment\'s own', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', { url: 'https://pay.wallet.test/form', method: 'GET' })], status: [answer.status('W1', 'SUCCESS')] });
    const first = await mount(s, { environment: 'desktop' });
    const navigate = oneEvent(first.el, 'wallet-pay-navigate');
    payButton(first.el).click();
    await navigate;
    first.el.remove();
    // The shopper comes back to a page whose button now names other return pages.
    const second = await mount(s, { environment: 'desktop', successUrl: '/shop/changed' });
    await waitUntil(() => second.nav.calls.length > 0, 'the kept booking was not routed', { timeout: 8000 });
    expect(second.nav.calls).to.deep.equal([{ kind: 'assign', url: `${location.origin}/shop/done?booking_id=W1&status=SUCCESS` }]);
  });
});

describe('<wallet-pay-button> requests follow the element\'s life', () => {
  it('aborts the request in flight when the element is removed', async () => {
    const s = await scenario({ book: [{ ...answer.bookApp('B1'), delay: 3000 }] });
    const signals: AbortSignal[] = [];
    const original = window.fetch;
    window.fetch = (input, init) => {
      // The book request's (the element also asks once whether the order is paid, `/order`).
      if (init?.signal && String(input).endsWith('/book')) signals.push(init.signal);
      return original.call(window, input, init);
    };
    try {
      const { el, nav } = await mount(s);
      payButton(el).click();
      await waitUntil(async () => (await s.received()).book.length > 0, 'the book request never arrived');
      expect(signals.map((signal) => signal.aborted)).to.deep.equal([false]);
      el.remove();
      expect(signals.map((signal) => signal.aborted)).to.deep.equal([true]);
      expect(nav.calls).to.deep.equal([]);
    } finally {
      window.fetch = original;
    }
  });
});

describe('<wallet-pay-button> small set-up facts', () => {
  it('variant = undefined removes the attribute (the default look, no set-up error)', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button variant="light" environment="webview" order-id="A-1"></wallet-pay-button>`);
    el.variant = undefined as never;
    expect(el.hasAttribute('variant')).to.equal(false);
    expect(el.variant).to.equal('dark');
    const webview = oneEvent(el, 'wallet-pay-webview');
    payButton(el).click();
    await webview;
  });

  it('after a failed booking, a button on a later page builds no flow and adds no page listener', async () => {
    const s = await scenario({ book: [answer.failure(500, 'IP-500')] });
    const { el } = await mount(s);
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    await error;
    el.remove();
    await expectNoFlowOnLaterPage(s, 'A-1001');
  });

  it('after a paid order, a button of another order on a later page builds no flow and adds no page listener', async () => {
    const s = await scenario({ status: [answer.status('B1', 'SUCCESS')] });
    keep(s);
    const { el } = await mount(s);
    await reach(el, 'done');
    el.remove();
    expect(Object.keys(sessionStorage).some((key) => key.startsWith('wallet-pay-paid:')), 'the paid order is remembered').to.equal(true);
    await expectNoFlowOnLaterPage(s, 'A-2002');
  });
});

/** Mounts a button for `orderId` as a later page would and checks it builds no flow: no page listener, no request. */
async function expectNoFlowOnLaterPage(s: Scenario, orderId: string): Promise<void> {
  const before = (await s.received()).status.length;
  const added: string[] = [];
  for (const target of [document, window] as EventTarget[]) {
    const original = target.addEventListener;
    target.addEventListener = function (this: EventTarget, type: string, ...rest: [EventListenerOrEventListenerObject | null, (boolean | AddEventListenerOptions)?]) {
      added.push(type);
      original.call(this, type, ...rest);
    };
  }
  try {
    const later = await fixture<WalletPayButton>(html`<wallet-pay-button endpoint=${s.endpoint} order-id=${orderId} .timings=${FAST}></wallet-pay-button>`);
    await later.updateComplete;
    expect(added.filter((type) => type === 'visibilitychange' || type === 'pageshow')).to.deep.equal([]);
    expect((await s.received()).status).to.have.length(before);
    expect(later.paymentState.name).to.equal('idle');
  } finally {
    delete (document as { addEventListener?: unknown }).addEventListener;
    delete (window as { addEventListener?: unknown }).addEventListener;
  }
}
