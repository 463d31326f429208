/** No dead end when the shop's server cannot find a booking (issue 12, point 4, the element's side). */
import { expect, oneEvent } from '@open-wc/testing';
import { bookingKey } from '../../../src/core/settings.js';
import { STRINGS_EN } from '../../../src/element/strings.js';
import { mount, part, payButton, reach, statusText } from '../../support/element.js';
import { answer, scenario, type Scenario } from '../../support/proxy.js';

afterEach(() => sessionStorage.clear());

function keep(s: Scenario, started = Date.now()): string {
  const key = bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-1001' });
  sessionStorage.setItem(key, JSON.stringify({ booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', idempotency_key: 'kept-key', started_at: started }));
  return key;
}

const LOST = answer.failure(404, 'IP-404', 'unknown booking');

describe('<wallet-pay-button> the shop lost the booking (IP-404)', () => {
  it('on the status check: says so, forgets the booking, and "start again" books anew with a new key', async () => {
    const s = await scenario({ status: [LOST], book: [answer.bookApp('B2')] });
    const key = keep(s);
    const error = oneEvent(document, 'wallet-pay-error');
    const { el, nav } = await mount(s);
    expect((await error).detail).to.include({ kind: 'booking-lost', code: 'IP-404', http_status: 404 });
    await reach(el, 'error');
    expect(statusText(el)).to.equal(STRINGS_EN['error.booking-lost']);
    expect(part(el, 'retry'), 'no "try again" that can only fail again').to.equal(null);
    expect(part(el, 'start-again')!.textContent!.trim()).to.equal('Start again');
    expect(sessionStorage.getItem(key)).to.equal(null);
    await expect(el).to.be.accessible();

    const navigate = oneEvent(el, 'wallet-pay-navigate');
    part(el, 'start-again')!.click();
    expect((await navigate).detail.url).to.equal('https://links.wallet.test/pay/B2');
    const received = await s.received();
    expect(received.status).to.have.length(1);
    expect(received.book).to.have.length(1);
    expect(received.book[0]!.idempotencyKey).to.not.equal('kept-key');
    expect(nav.calls).to.deep.equal([{ kind: 'openApp', url: 'https://links.wallet.test/pay/B2' }]);
  });

  it('on cancel: the same, and the pay button starts again too', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING')], cancel: [LOST], book: [answer.bookApp('B2')] });
    const key = keep(s, Date.now() - 10 * 60 * 1000);
    const { el } = await mount(s);
    await reach(el, 'stalled');
    const error = oneEvent(el, 'wallet-pay-error');
    part(el, 'cancel')!.click();
    expect((await error).detail.kind).to.equal('booking-lost');
    await reach(el, 'error');
    expect(part(el, 'start-again')).to.not.equal(null);
    expect(sessionStorage.getItem(key)).to.equal(null);
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await navigate;
    const received = await s.received();
    expect(received.status).to.have.length(1);
    expect(received.book.map((r) => r.idempotencyKey)).to.have.length(1);
  });
});

describe('<wallet-pay-button> a kept key the shop refuses (IP-409)', () => {
  it('drops the key and books once more with a new one, without the shopper doing anything', async () => {
    const s = await scenario({ book: [answer.failure(409, 'IP-409', 'key reused'), answer.bookApp('B2')] });
    const { el, nav } = await mount(s);
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await navigate;
    const { book } = await s.received();
    expect(book).to.have.length(2);
    expect(book[1]!.idempotencyKey).to.not.equal(book[0]!.idempotencyKey);
    expect(nav.calls).to.deep.equal([{ kind: 'openApp', url: 'https://links.wallet.test/pay/B2' }]);
  });

  it('only once: a second refusal is shown, not retried in a loop', async () => {
    const s = await scenario({ book: [answer.failure(409, 'IP-409', 'key reused')] });
    const { el, nav } = await mount(s);
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    expect((await error).detail).to.include({ kind: 'http', code: 'IP-409' });
    await reach(el, 'error');
    expect((await s.received()).book).to.have.length(2);
    expect(nav.calls).to.deep.equal([]);
  });
});
