/**
 * The element in a third-party in-app browser (forced with `environment="inapp"`, since Firefox and
 * WebKit cannot change their user agent here; the detection by real user agents is tested in Node and
 * end to end), and in a WebView whose host app does not take the payment. Against the scripted proxy,
 * in every engine: nothing navigates by script, the panel offers its ways forward, the page follows
 * the payment, and the funnel's steps share one attempt id.
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { answer, scenario } from '../../../support/proxy.js';
import { mount, nextCheck, part, payButton, reach, statusText, type Mounted } from '../../../support/element.js';
import type { WalletPayEvent } from '../../../../src/element/events.js';

const WEB = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { booking_id: 'W1', signature: 'c2ln' } };

/** Pressed, and the in-app panel drawn (its module is loaded when it first shows). */
async function pressed(m: Mounted): Promise<void> {
  payButton(m.el).click();
  await reach(m.el, 'inapp');
  await m.el.loadsSettled();
  await m.el.updateComplete;
}

describe('<wallet-pay-button> in an in-app browser', () => {
  it('books on the app channel and shows the ways forward on the page, navigating nowhere', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'BOOKED')] });
    const m = await mount(s, { environment: 'inapp' });
    await pressed(m);
    const { el, nav } = m;
    expect(nav.calls).to.deep.equal([]);
    expect(statusText(el)).to.equal("Pay in the wallet app or on the web. We'll update this page when your payment is done.");
    expect(part(el, 'pay-web')!.textContent!.trim()).to.equal('Pay on the web');
    const link = part<HTMLAnchorElement>(el, 'open-app')!;
    expect([link.tagName, link.getAttribute('href')]).to.deep.equal(['A', 'https://links.wallet.test/pay/B1']);
    // No code for a phone: the shopper is on it.
    expect(part(el, 'pay-on-phone')).to.equal(null);
    // This engine's own user agent names no app: the page's address is offered to copy.
    expect(part(el, 'copy-link')!.textContent!.trim()).to.equal('Copy link');
    await expect(el).to.be.accessible();
  });

  it('"Pay on the web" cancels the app booking, books on the web and follows the web payment', async () => {
    const s = await scenario({
      book: [answer.bookApp('B1'), answer.bookWeb('W1', WEB)],
      status: [answer.status('B1', 'BOOKED')],
      cancel: [answer.cancelled('B1')],
    });
    const m = await mount(s, { environment: 'inapp' });
    await pressed(m);
    part(m.el, 'pay-web')!.click();
    await waitUntil(() => m.nav.calls.length > 0, 'no navigation to the web payment', { timeout: 8000 });
    expect(m.nav.calls).to.deep.equal([{ kind: 'postForm', url: WEB.url, fields: WEB.fields }]);
    const received = await s.received();
    expect(received.cancel.map((r) => r.body.booking_id)).to.deep.equal(['B1']);
    expect(received.book.map((r) => r.body.channel)).to.deep.equal(['app', 'web']);
  });

  it('follows the payment by itself and routes to the success page when it is paid elsewhere', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'SUCCESS')] });
    const m = await mount(s, { environment: 'inapp' });
    await pressed(m);
    await nextCheck(m);
    await waitUntil(() => m.nav.calls.length > 0, 'no route to the success page', { timeout: 8000 });
    expect(m.nav.calls[0]).to.deep.equal({ kind: 'assign', url: `${location.origin}/shop/done?booking_id=B1&status=SUCCESS` });
  });

  it('"Copy link" copies the page address, or shows it to copy by hand when the clipboard refuses', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'BOOKED')] });
    const m = await mount(s, { environment: 'inapp' });
    await pressed(m);
    const written: string[] = [];
    const clipboard = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
    try {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: (text: string) => (written.push(text), Promise.resolve()) } });
      part(m.el, 'copy-link')!.click();
      await waitUntil(() => statusOf(m).includes('Link copied'), 'no copied note', { timeout: 8000 });
      expect(written).to.deep.equal([location.href.split('#')[0]]);
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } });
      part(m.el, 'copy-link')!.click();
      await waitUntil(() => !!part(m.el, 'copy-field'), 'no address to copy by hand', { timeout: 8000 });
      expect(part<HTMLInputElement>(m.el, 'copy-field')!.value).to.equal(location.href.split('#')[0]);
    } finally {
      delete (navigator as { clipboard?: unknown }).clipboard;
      if (clipboard && !('clipboard' in navigator)) Object.defineProperty(Navigator.prototype, 'clipboard', clipboard);
    }
  });

  it('a refused deeplink is never a link: the booking is cancelled and the shopper told', async () => {
    const s = await scenario({ book: [answer.bookApp('B1', 'javascript:alert(1)')], cancel: [answer.cancelled('B1')] });
    const m = await mount(s, { environment: 'inapp' });
    const error = oneEvent(m.el, 'wallet-pay-error');
    payButton(m.el).click();
    expect((await error).detail.kind).to.equal('url-refused');
    await m.el.updateComplete;
    expect(part(m.el, 'open-app')).to.equal(null);
  });
});

describe('<wallet-pay-button> in a WebView no host app takes', () => {
  it('goes on as in an in-app browser: books on the app channel and shows the panel', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'BOOKED')] });
    const m = await mount(s, { environment: 'webview' });
    const webview = oneEvent(m.el, 'wallet-pay-webview');
    payButton(m.el).click();
    expect((await webview).cancelable).to.equal(true);
    await reach(m.el, 'inapp');
    await m.el.loadsSettled();
    await m.el.updateComplete;
    expect(part(m.el, 'pay-web')).to.not.equal(null);
    expect(m.nav.calls).to.deep.equal([]);
  });
});

describe('<wallet-pay-button> funnel', () => {
  it('shown, pressed, booked, left, confirmed share one attempt id (sent with the booking), with growing times', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'SUCCESS')] });
    const steps: WalletPayEvent[] = [];
    const record = (event: Event) => steps.push(event as WalletPayEvent);
    const names = ['shown', 'pressed', 'booked', 'left', 'returned', 'confirmed', 'abandoned'];
    for (const name of names) document.addEventListener(`wallet-pay-${name}`, record);
    try {
      const m = await mount(s, { environment: 'inapp' });
      await pressed(m);
      part(m.el, 'open-app')!.addEventListener('click', (event) => event.preventDefault(), { once: true });
      part(m.el, 'open-app')!.click();
      await nextCheck(m);
      await waitUntil(() => steps.some((e) => e.type === 'wallet-pay-confirmed'), 'no confirmed step', { timeout: 8000 });
      const details = steps.map((e) => e.detail as { attempt_id: string; elapsed_ms: number });
      expect(steps.map((e) => e.type)).to.deep.equal(['wallet-pay-shown', 'wallet-pay-pressed', 'wallet-pay-booked', 'wallet-pay-left', 'wallet-pay-confirmed']);
      expect(new Set(details.map((d) => d.attempt_id)).size).to.equal(1);
      for (let i = 1; i < details.length; i += 1) expect(details[i]!.elapsed_ms).to.be.at.least(details[i - 1]!.elapsed_ms);
      expect((steps[3]!.detail as { to: string }).to).to.equal('app');
      expect((steps[4]!.detail as { status: string }).status).to.equal('SUCCESS');
      expect((await s.received()).book[0]!.attempt).to.equal(details[0]!.attempt_id);
    } finally {
      for (const name of names) document.removeEventListener(`wallet-pay-${name}`, record);
    }
  });

  it('cancelled in the app: abandoned with its reason, and the button is ready again', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'CANCELED')] });
    const m = await mount(s, { environment: 'inapp', successUrl: '' });
    m.el.failureUrl = '';
    await pressed(m);
    const abandoned = oneEvent(m.el, 'wallet-pay-abandoned');
    await nextCheck(m);
    expect((await abandoned).detail.reason).to.equal('cancelled');
    await reach(m.el, 'done');
    expect(payButton(m.el).disabled).to.equal(false);
  });
});

function statusOf({ el }: Mounted): string {
  return el.shadowRoot!.textContent ?? '';
}
