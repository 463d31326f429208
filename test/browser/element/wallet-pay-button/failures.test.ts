import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { mount, part, payButton, reach, statusText } from '../../../support/element.js';
import { answer, scenario, type Step } from '../../../support/proxy.js';

afterEach(() => sessionStorage.clear());

interface FailureCase {
  name: string;
  step: Step;
  kind: string;
  text: string;
  bookingTimeout?: number;
}

const CASES: FailureCase[] = [
  { name: 'a booking timeout', step: { ...answer.bookApp('B1'), delay: 600 }, bookingTimeout: 150, kind: 'timeout', text: 'The payment service took too long to answer. Please try again.' },
  { name: 'a dropped connection', step: { destroy: true }, kind: 'network', text: 'We could not reach the payment service. Check your connection and try again.' },
  { name: 'a 503 failure envelope', step: answer.failure(503, 'IP-502', 'upstream down'), kind: 'http', text: 'The payment could not be started right now. Please try again.' },
  { name: "IP-503: the kit's store unavailable (a 503 with Retry-After)", step: answer.failure(503, 'IP-503', 'The store is unavailable'), kind: 'http', text: 'The payment could not be started right now. Please try again.' },
  { name: 'an HTML 502 from a gateway', step: { status: 502, raw: '<html><body>502 Bad Gateway</body></html>' }, kind: 'http', text: 'The payment could not be started right now. Please try again.' },
  { name: 'a 4xx failure envelope', step: answer.failure(422, 'IP-424', 'unknown order'), kind: 'http', text: 'The shop could not start this payment. Please try again or contact the shop.' },
  { name: 'a redirect from the proxy (a login wall)', step: { status: 302, location: '/login', raw: '' }, kind: 'http', text: 'The shop could not start this payment. Please try again or contact the shop.' },
  { name: 'a 200 answer that is not JSON', step: { status: 200, raw: 'OK' }, kind: 'invalid-json', text: 'The payment service sent an answer we could not read. Please try again.' },
  { name: 'an answer without a deeplink', step: { body: { code: 'IP-201', message: 'ok', data: { booking_id: 'B1', correlation_id: 'c-B1', channel: 'app' } } }, kind: 'invalid-response', text: 'The payment service sent an incomplete answer. Please try again.' },
  { name: 'a javascript: deeplink', step: answer.bookApp('B1', 'javascript:alert(document.domain)'), kind: 'url-refused', text: 'The payment address was refused for your safety, so the payment was cancelled. Nothing was charged.' },
  { name: 'a data: deeplink', step: answer.bookApp('B1', 'data:text/html,<script>alert(1)</script>'), kind: 'url-refused', text: 'The payment address was refused for your safety, so the payment was cancelled. Nothing was charged.' },
  { name: 'a deeplink on a host not allowed', step: answer.bookApp('B1', 'https://links.evil.test/pay/B1'), kind: 'url-refused', text: 'The payment address was refused for your safety, so the payment was cancelled. Nothing was charged.' },
];

describe('<wallet-pay-button> booking failures', () => {
  for (const c of CASES) {
    it(`${c.name}: a clear message, an error event, no navigation, and a retry with the same key`, async () => {
      // The failure repeats until the test swaps the script: Chromium may itself re-send a request
      // whose connection dropped, and that must not reach the success answer.
      const s = await scenario({ book: [c.step] });
      const m = await mount(s, { bookingTimeout: c.bookingTimeout ?? 3500 });
    const { el, nav } = m;
      const error = oneEvent(el, 'wallet-pay-error');
      payButton(el).click();
      if (c.bookingTimeout) {
        // The request reached the proxy, which is slow to answer; the timeout runs on the element's clock.
        await waitUntil(async () => (await s.received()).book.length > 0, 'the book request never arrived');
        await m.clock.advance(c.bookingTimeout);
      }
      const event = await error;
      expect(event.detail.kind).to.equal(c.kind);
      expect(event.bubbles && event.composed).to.equal(true);
      await reach(el, 'error');
      expect(statusText(el)).to.equal(c.text);
      expect(payButton(el).getAttribute('aria-busy')).to.equal('false');
      expect(nav.calls).to.deep.equal([]);
      await expect(el).to.be.accessible();

      await s.script({ keepReceived: true, book: [answer.bookApp('B1')] });
      const navigate = oneEvent(el, 'wallet-pay-navigate');
      part(el, 'retry')!.click();
      await navigate;
      const { book, cancel } = await s.received();
      expect(book.length).to.be.at.least(2);
      if (c.kind === 'url-refused') {
        // The refused booking was cancelled, so trying again is a new attempt with a new key.
        expect(cancel.map((r) => r.body)).to.deep.equal([{ booking_id: 'B1', correlation_id: 'c-B1', order: { id: 'A-1001' } }]);
        expect(book.at(-1)!.idempotencyKey).to.not.equal(book[0]!.idempotencyKey);
      } else {
        expect(cancel).to.have.length(0);
        expect(book.every((r) => r.idempotencyKey === book[0]!.idempotencyKey)).to.equal(true);
      }
      expect(book.map((r) => r.body)).to.deep.equal(book.map(() => ({ channel: 'app', order: { id: 'A-1001' } })));
      expect(nav.calls).to.deep.equal([{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
    });
  }

  it('a web-payment URL with a javascript: scheme is refused on the desktop path', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', { url: 'javascript:alert(1)', method: 'GET' })] });
    const m = await mount(s, { environment: 'desktop' });
    const { el, nav } = m;
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    expect((await error).detail).to.include({ kind: 'url-refused', reason: 'scheme', url: 'javascript:alert(1)' });
    expect(nav.calls).to.deep.equal([]);
    await waitUntil(async () => (await s.received()).cancel.length === 1, 'the refused booking was not cancelled');
    expect((await s.received()).cancel[0]!.body).to.deep.equal({ booking_id: 'W1', correlation_id: 'c-W1', order: { id: 'A-1001' } });
  });

  it('offline: says so without sending anything, and the retry books with one key', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const m = await mount(s);
    const { el, nav } = m;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const error = oneEvent(el, 'wallet-pay-error');
      payButton(el).click();
      expect((await error).detail.kind).to.equal('offline');
      await el.updateComplete;
      expect(statusText(el)).to.equal('You are offline. Connect to the internet and try again.');
      expect((await s.received()).book).to.have.length(0);
    } finally {
      delete (navigator as unknown as Record<string, unknown>).onLine;
    }
    expect(navigator.onLine).to.equal(true);
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    part(el, 'retry')!.click();
    await navigate;
    expect((await s.received()).book).to.have.length(1);
    expect(nav.calls).to.have.length(1);
  });

  it('the pay button while in error retries the same attempt too', async () => {
    const s = await scenario({ book: [answer.failure(500, 'IP-500'), answer.bookApp('B1')] });
    const m = await mount(s);
    const { el } = m;
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    await error;
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await navigate;
    const { book } = await s.received();
    expect(book.map((r) => r.idempotencyKey)).to.deep.equal([book[0]!.idempotencyKey, book[0]!.idempotencyKey]);
  });

  it('a set-up failure on the shop\'s server (IP-501): "contact the shop", and no "try again" that cannot help', async () => {
    const s = await scenario({ book: [answer.failure(500, 'IP-501', 'access key refused')] });
    const { el, nav } = await mount(s);
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    expect((await error).detail).to.include({ kind: 'merchant-setup', code: 'IP-501', http_status: 500 });
    await reach(el, 'error');
    expect(statusText(el)).to.equal('The shop cannot take this payment right now. Please contact the shop.');
    expect(part(el, 'retry')).to.equal(null);
    expect(payButton(el).getAttribute('aria-busy')).to.equal('false');
    expect((await s.received()).book).to.have.length(1);
    expect(nav.calls).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('an order already paid (IP-412 on book): shown as paid, not as an error to retry', async () => {
    const s = await scenario({ book: [answer.failure(409, 'IP-412', 'order already paid')] });
    const { el, nav } = await mount(s);
    let errors = 0;
    el.addEventListener('wallet-pay-error', () => errors++);
    payButton(el).click();
    await reach(el, 'paid');
    expect(statusText(el)).to.equal('Payment received, thank you.');
    expect(payButton(el).disabled).to.equal(true);
    expect(part<HTMLAnchorElement>(el, 'see-order')!.href).to.equal(`${location.origin}/shop/done`);
    expect(part(el, 'retry')).to.equal(null);
    expect([errors, nav.calls.length, (await s.received()).book.length]).to.deep.equal([0, 0, 1]);
  });

  it('a network error against a closed port is reported as such', async () => {
    const m = await mount({ endpoint: 'http://127.0.0.1:9/pay', received: async () => ({ book: [], status: [], cancel: [], order: [] }), script: async () => undefined, release: async () => undefined });
    const { el } = m;
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    expect((await error).detail.kind).to.equal('network');
  });
});

  it('a redirect from the proxy is named in the error event and never followed', async () => {
    const s = await scenario({});
    // The redirect points at the scenario's own cancel route, so a followed redirect would show there.
    await s.script({ book: [{ status: 307, location: `${s.endpoint}/cancel`, raw: '' }], cancel: [answer.cancelled('B1')] });
    const m = await mount(s);
    const { el, nav } = m;
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    const { detail } = await error;
    expect([detail.kind, detail.http_status]).to.deep.equal(['http', 0]);
    expect(detail.message).to.match(/^book: the proxy answered with a redirect \(never followed\)$/);
    await reach(el, 'error');
    const received = await s.received();
    expect([received.book.length, received.cancel.length]).to.deep.equal([1, 0]);
    expect(nav.calls).to.deep.equal([]);
  });

describe('<wallet-pay-button> in a cross-origin frame', () => {
  const otherHost = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost';

  async function framed(endpoint: string, allow: boolean): Promise<{ outcome: string; status: string; navigations: string[] }> {
    const frame = document.createElement('iframe');
    frame.title = 'framed shop';
    const query = new URLSearchParams({ endpoint });
    if (allow) query.set('allow', '');
    frame.src = `${location.protocol}//${otherHost}:${location.port}/test/fixtures/framed.html?${query}`;
    const reply = new Promise<MessageEvent>((resolve) => {
      const listener = (event: MessageEvent) => {
        if (event.source === frame.contentWindow && event.data?.source === 'framed-wallet-pay') {
          window.removeEventListener('message', listener);
          resolve(event);
        }
      };
      window.addEventListener('message', listener);
    });
    document.body.append(frame);
    try {
      return (await reply).data;
    } finally {
      frame.remove();
    }
  }

  it('does not start a payment without allow-framed', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', { url: 'https://pay.wallet.test/form', method: 'GET' })] });
    const result = await framed(s.endpoint, false);
    expect(result.outcome).to.equal('error:framed');
    expect(result.status).to.equal('This payment button cannot be used inside another website. Open the shop in its own tab.');
    expect(result.navigations).to.deep.equal([]);
    expect((await s.received()).book).to.have.length(0);
  });

  it('pays inside the frame when the merchant opts in', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', { url: 'https://pay.wallet.test/form', method: 'GET' })] });
    const result = await framed(s.endpoint, true);
    expect(result.outcome).to.equal('navigate');
    expect(result.navigations).to.deep.equal(['https://pay.wallet.test/form']);
    expect((await s.received()).book).to.have.length(1);
  });
});
