/**
 * The element in a third-party in-app browser (forced with `environment="inapp"`, since Firefox and
 * WebKit cannot change their user agent here; the detection by real user agents is tested in Node and
 * end to end), and in a WebView whose host app does not take the payment. Against the scripted proxy,
 * in every engine: one press goes to the web payment; back on the page with that booking open, the
 * panel offers the secondary ways only (the escape to the phone's own browser carries the booking as
 * its continuation address), the button goes on with the same booking, the page follows the payment,
 * and the funnel's steps share one attempt id. The other end of the escape: inapp-continue.test.ts.
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { answer, scenario, type Script } from '../../../support/proxy.js';
import { mount, nextCheck, part, payButton, reach, type Mounted } from '../../../support/element.js';
import { readContinuation } from '../../../../src/core/continuation.js';
import type { WalletPayEvent } from '../../../../src/element/events.js';

const WEB = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { booking_id: 'W1', signature: 'c2ln' } };
const ALLOWED = ['links.wallet.test', 'pay.wallet.test'];

// The bookings these payments keep would make the next file's elements load their payment code at once
// (Firefox and WebKit run the files one after another in one tab, whose session storage stays).
afterEach(() => sessionStorage.clear());

/** A web booking's answer with the server's receipt. */
const bookWeb = (id: string) => {
  const step = answer.bookWeb(id, WEB);
  (step.body as { data: Record<string, unknown> }).data.receipt = `receipt-${id}`;
  return step;
};

/** Pressed in the in-app browser: one booking on the web, and the page leaves for its payment. */
async function pressed(m: Mounted): Promise<void> {
  payButton(m.el).click();
  await waitUntil(() => m.nav.calls.length > 0, `no navigation to the web payment (the element is ${m.el.paymentState.name})`, { timeout: 8000 });
}

/** Pressed, then back on the page (visible again) with the booking open: the in-app panel shows. */
async function back(script: Script): Promise<Mounted & { s: Awaited<ReturnType<typeof scenario>> }> {
  const s = await scenario(script);
  const m = await mount(s, { environment: 'inapp' });
  await pressed(m);
  document.dispatchEvent(new Event('visibilitychange'));
  await reach(m.el, 'inapp');
  await m.el.loadsSettled();
  await m.el.updateComplete;
  return { ...m, s };
}

describe('<wallet-pay-button> in an in-app browser', () => {
  it('one press books on the web and follows the web payment', async () => {
    const s = await scenario({ book: [bookWeb('W1')] });
    const m = await mount(s, { environment: 'inapp' });
    await pressed(m);
    expect(m.nav.calls).to.deep.equal([{ kind: 'postForm', url: WEB.url, fields: WEB.fields }]);
    expect((await s.received()).book.map((r) => r.body.channel)).to.deep.equal(['web']);
  });

  it('back on the page with the booking open: the secondary ways only, outlined, and no code for a phone', async () => {
    const { el, nav } = await back({ book: [bookWeb('W1')], status: [answer.status('W1', 'BOOKED')] });
    expect(nav.calls).to.have.length(1);
    const panel = part(el, 'inapp')!;
    expect(panel.getAttribute('aria-labelledby')).to.equal('inapp-label');
    expect(panel.querySelector('#inapp-label')!.textContent).to.equal('Other ways to pay');
    // "Pay on the web" is the element's own button; the panel does not repeat it.
    expect(part(el, 'pay-web')).to.equal(null);
    // A web booking has no deeplink: no link to the app, never a dead one.
    expect(part(el, 'open-app')).to.equal(null);
    // This engine's own user agent names no app: the continuation is offered to copy.
    const actions = [...panel.querySelectorAll('[part~="action"]')];
    expect(actions.map((a) => a.getAttribute('part'))).to.deep.equal(['action copy-link', 'action cancel']);
    for (const action of actions) expect(getComputedStyle(action).backgroundColor, 'outlined, under the filled button').to.equal('rgba(0, 0, 0, 0)');
    expect(part(el, 'pay-on-phone')).to.equal(null);
    expect(payButton(el).disabled).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('the button goes on with the same booking: its web payment again, no second booking', async () => {
    const { el, nav, s } = await back({ book: [bookWeb('W1')], status: [answer.status('W1', 'BOOKED')] });
    payButton(el).click();
    await waitUntil(() => nav.calls.length === 2, 'the button did nothing under the panel', { timeout: 8000 });
    expect(nav.calls[1]).to.deep.equal({ kind: 'postForm', url: WEB.url, fields: WEB.fields });
    const received = await s.received();
    expect(received.book).to.have.length(1);
    expect(received.cancel).to.have.length(0);
  });

  it('"Copy link" copies the continuation of this booking, or shows it to copy by hand when the clipboard refuses', async () => {
    const m = await back({ book: [bookWeb('W1')], status: [answer.status('W1', 'BOOKED')] });
    const written: string[] = [];
    const clipboard = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
    try {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: (text: string) => (written.push(text), Promise.resolve()) } });
      part(m.el, 'copy-link')!.click();
      await waitUntil(() => statusOf(m).includes('Link copied'), 'no copied note', { timeout: 8000 });
      expect(written).to.have.length(1);
      const page = location.href.split('#')[0];
      expect(written[0]!.startsWith(`${page}#wallet-pay=`), written[0]).to.equal(true);
      expect(readContinuation(written[0]!, ALLOWED)).to.deep.equal({
        ok: true,
        continuation: { booking_id: 'W1', correlation_id: 'c-W1', receipt: 'receipt-W1', web_payment: WEB },
        url: new URL(WEB.url),
      });
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } });
      part(m.el, 'copy-link')!.click();
      await waitUntil(() => !!part(m.el, 'copy-field'), 'no address to copy by hand', { timeout: 8000 });
      expect(part<HTMLInputElement>(m.el, 'copy-field')!.value).to.equal(written[0]);
    } finally {
      delete (navigator as { clipboard?: unknown }).clipboard;
      if (clipboard && !('clipboard' in navigator)) Object.defineProperty(Navigator.prototype, 'clipboard', clipboard);
    }
  });

  it('follows the payment by itself and routes to the success page when it is paid in another browser', async () => {
    const m = await back({ book: [bookWeb('W1')], status: [answer.status('W1', 'BOOKED'), answer.status('W1', 'SUCCESS')] });
    await nextCheck(m);
    await waitUntil(() => m.nav.calls.length > 1, 'no route to the success page', { timeout: 8000 });
    expect(m.nav.calls[1]).to.deep.equal({ kind: 'assign', url: `${location.origin}/shop/done?booking_id=W1&status=SUCCESS` });
  });

  it('"Cancel" cancels the booking, and the button is ready again', async () => {
    const m = await back({ book: [bookWeb('W1')], status: [answer.status('W1', 'BOOKED')], cancel: [answer.cancelled('W1')] });
    m.el.failureUrl = '';
    part(m.el, 'cancel')!.click();
    await reach(m.el, 'done');
    expect((await m.s.received()).cancel.map((r) => r.body.booking_id)).to.deep.equal(['W1']);
    expect(part(m.el, 'inapp')).to.equal(null);
    expect(payButton(m.el).disabled).to.equal(false);
  });

  it('a refused web payment address is never followed: the booking is cancelled and the shopper told', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', { ...WEB, url: 'javascript:alert(1)' })], cancel: [answer.cancelled('W1')] });
    const m = await mount(s, { environment: 'inapp' });
    const error = oneEvent(m.el, 'wallet-pay-error');
    payButton(m.el).click();
    expect((await error).detail.kind).to.equal('url-refused');
    await m.el.updateComplete;
    expect(m.nav.calls).to.deep.equal([]);
    expect(part(m.el, 'inapp')).to.equal(null);
  });
});

describe('<wallet-pay-button> in a WebView no host app takes', () => {
  it('goes on as in an in-app browser: books on the web and follows its payment', async () => {
    const s = await scenario({ book: [bookWeb('W1')] });
    const m = await mount(s, { environment: 'webview' });
    const webview = oneEvent(m.el, 'wallet-pay-webview');
    payButton(m.el).click();
    expect((await webview).cancelable).to.equal(true);
    await waitUntil(() => m.nav.calls.length > 0, 'no navigation to the web payment', { timeout: 8000 });
    expect(m.nav.calls).to.deep.equal([{ kind: 'postForm', url: WEB.url, fields: WEB.fields }]);
  });
});

describe('<wallet-pay-button> funnel in an in-app browser', () => {
  it('shown, pressed, booked, left, confirmed share one attempt id (sent with the booking), with growing times', async () => {
    const steps: WalletPayEvent[] = [];
    const record = (event: Event) => steps.push(event as WalletPayEvent);
    const names = ['shown', 'pressed', 'booked', 'left', 'returned', 'confirmed', 'abandoned'];
    for (const name of names) document.addEventListener(`wallet-pay-${name}`, record);
    try {
      const m = await back({ book: [bookWeb('W1')], status: [answer.status('W1', 'BOOKED'), answer.status('W1', 'SUCCESS')] });
      await nextCheck(m);
      await waitUntil(() => steps.some((e) => e.type === 'wallet-pay-confirmed'), 'no confirmed step', { timeout: 8000 });
      const types = steps.map((e) => e.type);
      expect(types.slice(0, 4)).to.deep.equal(['wallet-pay-shown', 'wallet-pay-pressed', 'wallet-pay-booked', 'wallet-pay-left']);
      expect(types.at(-1)).to.equal('wallet-pay-confirmed');
      const details = steps.map((e) => e.detail as { attempt_id: string; elapsed_ms: number });
      expect(new Set(details.map((d) => d.attempt_id)).size).to.equal(1);
      for (let i = 1; i < details.length; i += 1) expect(details[i]!.elapsed_ms).to.be.at.least(details[i - 1]!.elapsed_ms);
      expect((steps[3]!.detail as { to: string }).to).to.equal('web');
      expect((await m.s.received()).book[0]!.attempt).to.equal(details[0]!.attempt_id);
    } finally {
      for (const name of names) document.removeEventListener(`wallet-pay-${name}`, record);
    }
  });
});

function statusOf({ el }: Mounted): string {
  return el.shadowRoot!.textContent ?? '';
}
