/**
 * No dead end, and no blind second payment, when the shop's server cannot find a kept booking: it is
 * checked once more by its ids (which lets the shop confirm it with the service) before a new payment is offered.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { bookingKey } from '../../../../src/core/settings.js';
import { STRINGS_EN } from '../../../../src/element/i18n/index.js';
import { mount, part, payButton, reach, statusText } from '../../../support/element.js';
import { answer, scenario, type Scenario } from '../../../support/proxy.js';

afterEach(() => sessionStorage.clear());

function keep(s: Scenario, started = Date.now()): string {
  const key = bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-1001' });
  sessionStorage.setItem(key, JSON.stringify({ booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', idempotency_key: 'kept-key', started_at: started }));
  return key;
}

const LOST = answer.failure(404, 'IP-404', 'unknown booking');

describe('<wallet-pay-button> the shop lost the booking (IP-404)', () => {
  it('on the status check: no new payment offered at once; the booking stays and "Check again" asks once more with its ids', async () => {
    const s = await scenario({ status: [LOST, LOST], book: [answer.bookApp('B2')] });
    const key = keep(s);
    const error = oneEvent(document, 'wallet-pay-error');
    const { el, nav } = await mount(s);
    expect((await error).detail).to.include({ kind: 'booking-unconfirmed', code: 'IP-404', http_status: 404 });
    await reach(el, 'error');
    expect(statusText(el)).to.equal(STRINGS_EN['error.booking-unconfirmed']);
    expect(part(el, 'start-again'), 'no new payment before the booking is checked again').to.equal(null);
    expect(part(el, 'retry')).to.equal(null);
    expect(part(el, 'check-again')!.textContent!.trim()).to.equal('Check again');
    expect(sessionStorage.getItem(key), 'the booking stays kept').to.not.equal(null);
    await expect(el).to.be.accessible();

    // Still unknown after the second check (the shop confirmed it with the service where it can):
    // only now a new payment, with a new key.
    const lost = oneEvent(el, 'wallet-pay-error');
    part(el, 'check-again')!.click();
    expect((await lost).detail).to.include({ kind: 'booking-lost', code: 'IP-404' });
    await reach(el, 'error');
    expect(statusText(el)).to.equal(STRINGS_EN['error.booking-lost']);
    expect(part(el, 'start-again')!.textContent!.trim()).to.equal('Start again');
    expect(sessionStorage.getItem(key)).to.equal(null);

    const navigate = oneEvent(el, 'wallet-pay-navigate');
    part(el, 'start-again')!.click();
    expect((await navigate).detail.url).to.equal('https://links.wallet.test/pay/B2');
    const received = await s.received();
    expect(received.status.map((r) => r.body)).to.deep.equal([
      { booking_id: 'B1', correlation_id: 'c-B1', order: { id: 'A-1001' } },
      { booking_id: 'B1', correlation_id: 'c-B1', order: { id: 'A-1001' } },
    ]);
    expect(received.book).to.have.length(1);
    expect(received.book[0]!.idempotencyKey).to.not.equal('kept-key');
    expect(nav.calls).to.deep.equal([{ kind: 'openApp', url: 'https://links.wallet.test/pay/B2' }]);
  });

  it('a booking the shop confirms on the second check (paid) routes to the success page: never a second payment', async () => {
    const s = await scenario({ status: [LOST, answer.status('B1', 'SUCCESS')] });
    keep(s);
    const { el, nav } = await mount(s);
    await reach(el, 'error');
    // The pay button, too, checks the kept booking instead of booking anew.
    payButton(el).click();
    await reach(el, 'done');
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: `${location.origin}/shop/done?booking_id=B1&status=SUCCESS` }]);
    expect((await s.received()).book).to.have.length(0);
  });

  it('on cancel: the same, and the pay button starts again once the booking is known to be lost', async () => {
    const s = await scenario({ status: [answer.status('B1', 'PENDING'), LOST], cancel: [LOST], book: [answer.bookApp('B2')] });
    const key = keep(s, Date.now() - 10 * 60 * 1000);
    const { el } = await mount(s);
    await reach(el, 'stalled');
    const error = oneEvent(el, 'wallet-pay-error');
    part(el, 'cancel')!.click();
    expect((await error).detail.kind).to.equal('booking-unconfirmed');
    await reach(el, 'error');
    expect(part(el, 'start-again')).to.equal(null);
    const lost = oneEvent(el, 'wallet-pay-error');
    part(el, 'check-again')!.click();
    expect((await lost).detail.kind).to.equal('booking-lost');
    await reach(el, 'error');
    expect(part(el, 'start-again')).to.not.equal(null);
    expect(sessionStorage.getItem(key)).to.equal(null);
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    payButton(el).click();
    await navigate;
    const received = await s.received();
    expect(received.status).to.have.length(2);
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
