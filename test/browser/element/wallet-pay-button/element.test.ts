import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { FAST, PHONE, mount, part, payButton, shadow, statusText, toFallback } from '../../../support/element.js';
import { answer, scenario } from '../../../support/proxy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WEB = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { booking_id: 'W1', signature: 'c2ln' } };

afterEach(() => sessionStorage.clear());

describe('<wallet-pay-button> at rest', () => {
  it('is a native button with a name, 44px tall, and a status region from the first render', async () => {
    const s = await scenario({});
    const m = await mount(s);
    const { el } = m;
    const button = payButton(el);
    expect(button.localName).to.equal('button');
    expect(button.type).to.equal('button');
    expect(button.textContent!.trim() || button.querySelector('slot')!.textContent).to.equal('Pay with wallet');
    expect(button.getBoundingClientRect().height).to.be.at.least(44);
    expect(button.getAttribute('aria-busy')).to.equal('false');
    expect(shadow(el).querySelector('[role="status"]')).to.not.equal(null);
    expect(statusText(el)).to.equal('');
    await expect(el).to.be.accessible();
  });

  it('shows a visible focus ring on keyboard focus, and none at rest', async () => {
    const { el } = await mount(await scenario({}));
    expect(getComputedStyle(payButton(el)).outlineStyle).to.equal('none');
    // A shopper tabbing to the button: keyboard focus, so :focus-visible matches. The focus brings the
    // payment code, whose template may replace the button once: focus moves to the replacement, ring and all.
    await sendKeys({ press: 'Tab' });
    await el.loadsSettled();
    const button = payButton(el);
    expect(shadow(el).activeElement).to.equal(button);
    expect(button.matches(':focus-visible')).to.equal(true);
    const style = getComputedStyle(button);
    expect(style.outlineStyle).to.equal('solid');
    expect(style.outlineWidth).to.equal('3px');
    expect(style.outlineColor).to.equal('rgb(26, 115, 232)');
  });

  it('keeps the 44px floor when the theme asks for less', async () => {
    const m = await mount(await scenario({}));
    const { el } = m;
    el.style.setProperty('--wallet-pay-min-height', '20px');
    expect(payButton(el).getBoundingClientRect().height).to.be.at.least(44);
  });

  it('ignores clicks while disabled', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const m = await mount(s);
    const { el } = m;
    el.disabled = true;
    await el.updateComplete;
    payButton(el).click();
    el.shadowRoot!.querySelector('button')!.dispatchEvent(new MouseEvent('click'));
    await el.updateComplete;
    expect((await s.received()).book).to.have.length(0);
    expect(el.hasAttribute('disabled')).to.equal(true);
  });

  it('costs the page no listener until it is pressed, then follows the page coming back', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const added: string[] = [];
    const record = (target: EventTarget) => {
      const original = target.addEventListener;
      target.addEventListener = function (this: EventTarget, type: string, ...rest: [EventListenerOrEventListenerObject | null, (boolean | AddEventListenerOptions)?]) {
        added.push(type);
        original.call(this, type, ...rest);
      };
      return () => delete (target as { addEventListener?: unknown }).addEventListener;
    };
    const restore = [record(document), record(window)];
    try {
      const m = await mount(s);
    const { el } = m;
      expect(added.filter((type) => type === 'visibilitychange' || type === 'pageshow')).to.deep.equal([]);
      payButton(el).click();
      await toFallback(m);
      expect(added).to.include.members(['visibilitychange', 'pageshow']);
    } finally {
      for (const undo of restore) undo();
    }
  });

  it('is registered once even when the define module runs again', async () => {
    const first = customElements.get('wallet-pay-button');
    // @ts-expect-error a second copy of the module (another bundle on the page)
    await import('../../../../src/define.ts?second-copy');
    expect(customElements.get('wallet-pay-button')).to.equal(first);
    expect(first).to.equal(WalletPayButton);
    expect(document.createElement('wallet-pay-button')).to.be.instanceOf(WalletPayButton);
  });

  it('keeps properties a framework set before the definition loaded (a deferred CDN script)', async () => {
    // A fresh tag, defined only after the element exists and has its properties: as on a page whose
    // framework renders before the element's script has run.
    const tag = 'late-wallet-pay-button';
    const el = document.createElement(tag) as WalletPayButton;
    Object.assign(el, {
      endpoint: '/api/pay',
      order: { id: 'LATE-1' },
      variant: 'light',
      disabled: true,
      fullWidth: true,
      label: 'donate',
      strings: { 'button.donate': 'Give now' },
    });
    document.body.append(el);
    try {
      customElements.define(tag, class extends WalletPayButton {});
      await el.updateComplete;
      expect(el).to.be.instanceOf(WalletPayButton);
      expect([el.getAttribute('variant'), el.hasAttribute('disabled'), el.hasAttribute('full-width')]).to.deep.equal(['light', true, true]);
      expect(payButton(el).disabled).to.equal(true);
      expect(payButton(el).querySelector('slot')!.textContent).to.equal('Give now');
      expect([el.endpoint, el.order]).to.deep.equal(['/api/pay', { id: 'LATE-1' }]);
      expect(getComputedStyle(el).display).to.equal('flex');
    } finally {
      el.remove();
    }
  });
});

describe('<wallet-pay-button> desktop path', () => {
  it('books on the web channel with an Idempotency-Key and POSTs the form top-level', async () => {
    const s = await scenario({ book: [{ ...answer.bookWeb('W1', WEB), delay: 150 }] });
    const m = await mount(s, { environment: 'desktop' });
    const { el, nav } = m;
    const booked = oneEvent(el, 'wallet-pay-booked');
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    // The payment code may still be on its way: wait for it and for the press it then runs.
    await el.loadsSettled();
    expect(payButton(el).getAttribute('aria-busy')).to.equal('true');
    expect(statusText(el)).to.equal('Preparing your payment…');
    await expect(el).to.be.accessible();
    const { attempt_id, elapsed_ms, ...detail } = (await booked).detail;
    expect(detail).to.deep.equal({ booking_id: 'W1', correlation_id: 'c-W1', channel: 'web' });
    expect([typeof attempt_id, elapsed_ms >= 0]).to.deep.equal(['string', true]);
    const event = await navigate;
    expect(event.cancelable && event.bubbles && event.composed).to.equal(true);
    expect(event.detail).to.deep.include({ reason: 'web-payment', url: WEB.url, method: 'POST', fields: WEB.fields });
    expect(nav.calls).to.deep.equal([{ kind: 'postForm', url: WEB.url, fields: WEB.fields }]);
    const { book } = await s.received();
    expect(book).to.have.length(1);
    expect(book[0]!.body).to.deep.equal({ channel: 'web', order: { id: 'A-1001' } });
    expect(book[0]!.idempotencyKey).to.match(UUID);
    expect(book[0]!.contentType).to.contain('application/json');
    const kept = JSON.parse(sessionStorage.getItem(Object.keys(sessionStorage).find((k) => k.startsWith('wallet-pay-button:'))!)!);
    expect(kept).to.include({ booking_id: 'W1', correlation_id: 'c-W1', channel: 'web', idempotency_key: book[0]!.idempotencyKey });
    await el.updateComplete;
    expect(statusText(el)).to.equal('Taking you to the payment page…');
  });

  it('sends the order property as-is when set', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', { url: WEB.url, method: 'GET' })] });
    const m = await mount(s, { environment: 'desktop' });
    const { el, nav } = m;
    el.order = { id: 'A-9', cart: 'c-77' };
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await navigate;
    expect((await s.received()).book[0]!.body).to.deep.equal({ channel: 'web', order: { id: 'A-9', cart: 'c-77' } });
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: WEB.url }]);
  });

  it('lets the host route itself by cancelling wallet-pay-navigate', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', WEB)] });
    const m = await mount(s, { environment: 'desktop' });
    const { el, nav } = m;
    el.addEventListener('wallet-pay-navigate', (event) => event.preventDefault());
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    expect((await navigate).defaultPrevented).to.equal(true);
    expect(nav.calls).to.deep.equal([]);
  });
});

describe('<wallet-pay-button> mobile path', () => {
  it('opens the deeplink at once, then shows a panel that never dead-ends', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const m = await mount(s);
    const { el, nav } = m;
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    expect((await navigate).detail).to.deep.include({ reason: 'app', url: 'https://links.wallet.test/pay/B1', method: 'GET' });
    expect(nav.calls).to.deep.equal([{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
    expect((await s.received()).book[0]!.body).to.deep.equal({ channel: 'app', order: { id: 'A-1001' } });
    await toFallback(m);
    expect(part<HTMLAnchorElement>(el, 'open-app')!.href).to.equal('https://links.wallet.test/pay/B1');
    expect(part(el, 'pay-on-web')).to.not.equal(null);
    expect(part(el, 'cancel')).to.not.equal(null);
    const store = part<HTMLAnchorElement>(el, 'get-app');
    if (/Android/.test(navigator.userAgent)) expect(store!.href).to.equal('https://play.google.com/store/apps/details?id=com.wallet.app');
    else if (/iPhone/.test(navigator.userAgent)) expect(store!.href).to.equal('https://apps.apple.com/app/id1234567890');
    else expect(store).to.equal(null);
    for (const action of shadow(el).querySelectorAll('[part~="action"]')) {
      expect(action.getBoundingClientRect().height).to.be.at.least(44);
    }
    expect(statusText(el)).to.equal('Did the wallet app not open? Choose how to continue.');
    await expect(el).to.be.accessible();
  });

  it('hides "get the app" rather than showing a broken link when no store id is given', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const m = await mount(s, { androidPackage: '', iosAppId: '' });
    const { el } = m;
    payButton(el).click();
    await toFallback(m);
    expect(part(el, 'get-app')).to.equal(null);
    expect(part(el, 'open-app')).to.not.equal(null);
  });

  it('pay on the web instead: checks the app booking, cancels it, then books on the web with a new key', async () => {
    const s = await scenario({
      book: [answer.bookApp('B1'), answer.bookWeb('W1', WEB)],
      status: [answer.status('B1', 'BOOKED')],
      cancel: [answer.cancelled('B1')],
    });
    const m = await mount(s);
    const { el, nav } = m;
    payButton(el).click();
    await toFallback(m);
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    part(el, 'pay-on-web')!.click();
    expect((await navigate).detail.reason).to.equal('web-payment');
    const received = await s.received();
    expect(received.status.map((r) => r.body)).to.deep.equal([{ booking_id: 'B1', correlation_id: 'c-B1', order: { id: 'A-1001' } }]);
    expect(received.cancel.map((r) => r.body)).to.deep.equal([{ booking_id: 'B1', correlation_id: 'c-B1', order: { id: 'A-1001' } }]);
    expect(received.book.map((r) => r.body.channel)).to.deep.equal(['app', 'web']);
    expect(received.book[0]!.idempotencyKey).to.not.equal(received.book[1]!.idempotencyKey);
    expect(nav.calls.at(-1)).to.deep.equal({ kind: 'postForm', url: WEB.url, fields: WEB.fields });
  });

  it('pay on the web instead: an app booking already paid goes to the success page', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'SUCCESS')] });
    const m = await mount(s);
    const { el, nav } = m;
    payButton(el).click();
    await toFallback(m);
    const success = oneEvent(el, 'wallet-pay-success');
    part(el, 'pay-on-web')!.click();
    expect((await success).detail).to.deep.equal({ booking_id: 'B1', status: 'SUCCESS' });
    expect(nav.calls.at(-1)).to.deep.equal({ kind: 'assign', url: `${location.origin}/shop/done?booking_id=B1&status=SUCCESS` });
    expect((await s.received()).book).to.have.length(1);
  });

  it('ignores three fast clicks: exactly one booking', async () => {
    const s = await scenario({ book: [{ ...answer.bookApp('B1'), delay: 200 }] });
    const m = await mount(s);
    const { el, nav } = m;
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    payButton(el).click();
    payButton(el).click();
    await navigate;
    expect((await s.received()).book).to.have.length(1);
    expect(nav.calls).to.have.length(1);
  });
});

describe('<wallet-pay-button> environment auto', () => {
  it(`takes the ${PHONE ? 'mobile' : 'desktop'} path in this profile`, async () => {
    const s = await scenario({ book: [PHONE ? answer.bookApp('B1') : answer.bookWeb('W1', WEB)] });
    const m = await mount(s, { environment: 'auto' });
    const { el, nav } = m;
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await navigate;
    expect((await s.received()).book[0]!.body.channel).to.equal(PHONE ? 'app' : 'web');
    expect(nav.calls[0]!.kind).to.equal(PHONE ? 'openApp' : 'postForm');
  });
});

describe('<wallet-pay-button> WebView', () => {
  it('hands over to a host app that takes it (preventDefault): an event, a message, no booking, no navigation', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const m = await mount(s, { environment: 'webview' });
    const { el, nav } = m;
    el.addEventListener('wallet-pay-webview', (event) => event.preventDefault());
    const handOver = oneEvent(el, 'wallet-pay-webview');
    payButton(el).click();
    const event = await handOver;
    expect(event.bubbles && event.composed).to.equal(true);
    expect(event.detail).to.deep.equal({
      order: { id: 'A-1001' },
      endpoint: new URL(s.endpoint, location.href).href,
      success_url: `${location.origin}/shop/done`,
      failure_url: `${location.origin}/shop/failed`,
    });
    await el.updateComplete;
    expect(statusText(el)).to.equal('Continue the payment in the app.');
    expect((await s.received()).book).to.have.length(0);
    expect(nav.calls).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });
});

describe('<wallet-pay-button> set-up errors', () => {
  it('reports a missing order as a clear error, without a request', async () => {
    const s = await scenario({});
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button endpoint=${s.endpoint} .timings=${FAST}></wallet-pay-button>`);
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    expect((await error).detail.kind).to.equal('config');
    await el.updateComplete;
    expect(statusText(el)).to.equal('This payment button is not set up correctly. Please contact the shop.');
    expect((await s.received()).book).to.have.length(0);
  });

  it('refuses to book with no allowed-hosts (every payment address would be refused after the booking), but a WebView hands over', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', WEB)] });
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button endpoint=${s.endpoint} order-id="A-1" environment="desktop" .timings=${FAST}></wallet-pay-button>`);
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    const { detail } = await error;
    expect([detail.kind, detail.message]).to.deep.equal(['config', 'allowed-hosts is empty: list the hosts of the wallet links and the web payment page.']);
    expect((await s.received()).book).to.have.length(0);
    el.environment = 'webview';
    el.addEventListener('wallet-pay-webview', (event) => event.preventDefault());
    const webview = oneEvent(el, 'wallet-pay-webview');
    payButton(el).click();
    await webview;
  });

  it('names the allowed hosts when it refuses a payment address', async () => {
    const s = await scenario({ book: [answer.bookApp('B1', 'https://links.elsewhere.test/pay/B1')] });
    const m = await mount(s);
    const { el } = m;
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    expect((await error).detail.message).to.equal(
      'Refused to follow "https://links.elsewhere.test/pay/B1": host-not-allowed (allowed-hosts: links.wallet.test pay.wallet.test). Booking B1 is being cancelled.',
    );
  });

  it('reports an unknown environment value by name', async () => {
    const s = await scenario({});
    const m = await mount(s, { environment: 'tablet' });
    const { el } = m;
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    expect((await error).detail.message).to.contain('environment="tablet"');
  });
});
