/**
 * The phone hand-off in the element: the offer on the desktop path only, the panel with the code
 * while the page follows the booking, focus into the panel and back to the pay button, the expired
 * code, "Use this computer instead", the way back after a reload, and axe in each state, in English
 * and Nepali. Against the scripted proxy, time on the element's fake clock.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import type { KeptBooking } from '../../../../src/core/session-store.js';
import { bookingKey } from '../../../../src/core/settings.js';
import { FAST, PHONE, mount, nextCheck, part, payButton, reach, shadow, statusText, type Mounted } from '../../../support/element.js';
import { answer, scenario } from '../../../support/proxy.js';

afterEach(() => sessionStorage.clear());

const LINK = 'https://links.wallet.test/pay/B1';

/** Presses the offer and waits for the code. */
async function openHandoff(m: Mounted): Promise<void> {
  part(m.el, 'pay-on-phone')!.click();
  await reach(m.el, 'handoff');
  await waitUntil(() => part(m.el, 'qr'), 'the code shows', { timeout: 8000 });
  await m.el.updateComplete;
}

const focused = (el: WalletPayButton) => shadow(el).activeElement;

describe('<wallet-pay-button> the phone hand-off', () => {
  it('offers "Pay with the app on your phone" on the desktop path, and phone-handoff="off" hides it', async () => {
    const s = await scenario({});
    const { el } = await mount(s, { environment: 'desktop' });
    expect(part(el, 'pay-on-phone')!.textContent!.trim()).to.equal('Pay with the app on your phone');
    await expect(el).to.be.accessible();
    el.setAttribute('phone-handoff', 'off');
    await el.updateComplete;
    expect(part(el, 'pay-on-phone')).to.equal(null);
  });

  for (const environment of ['mobile', 'webview']) {
    it(`does not offer it on the ${environment} path`, async () => {
      const { el } = await mount(await scenario({}), { environment });
      expect(part(el, 'pay-on-phone')).to.equal(null);
    });
  }

  it(`follows the environment rule when auto (${PHONE ? 'a phone: no offer' : 'a desktop: the offer'})`, async () => {
    const { el } = await mount(await scenario({}), { environment: 'auto' });
    expect(!!part(el, 'pay-on-phone')).to.equal(!PHONE);
  });

  it('books an app payment as a hand-off on a key of its own, shows the code and takes focus into it', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'BOOKED')] });
    const m = await mount(s, { environment: 'desktop' });
    await openHandoff(m);
    const { el, nav } = m;
    const { book } = await s.received();
    expect(book.map((r) => r.body)).to.deep.equal([{ channel: 'app', order: { id: 'A-1001' }, handoff: true }]);
    expect(book[0]!.idempotencyKey).to.be.a('string');
    expect(nav.calls).to.deep.equal([]);
    expect(part(el, 'qr')!.getAttribute('aria-label')).to.match(/QR code/);
    expect(part<HTMLAnchorElement>(el, 'open-here')!.href).to.equal(LINK);
    expect(focused(el)).to.equal(part(el, 'handoff'));
    // The panel's own status line speaks; the element's stays empty, and the offer is gone.
    expect(part(el, 'handoff-status')!.textContent).to.equal('Waiting for the payment on your phone…');
    expect(statusText(el)).to.equal('');
    expect(part(el, 'pay-on-phone')).to.equal(null);
    await expect(el).to.be.accessible();
    // The checks run behind the code, which stays.
    await nextCheck(m);
    await waitUntil(async () => (await s.received()).status.length === 1, 'a status check', { timeout: 8000 });
    await el.updateComplete;
    expect(part(el, 'qr')).to.not.equal(null);
  });

  it('routes a payment made on the phone to the success page', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'SUCCESS')] });
    const m = await mount(s, { environment: 'desktop' });
    await openHandoff(m);
    await nextCheck(m);
    await reach(m.el, 'done');
    expect(m.nav.calls).to.deep.equal([{ kind: 'assign', url: `${location.origin}/shop/done?booking_id=B1&status=SUCCESS` }]);
  });

  it('a deeplink too long for a QR code: an error with "Use this computer instead" and "Cancel payment"; cancelling cancels the booking', async () => {
    const long = `${LINK}?ref=${'x'.repeat(3000)}`;
    const s = await scenario({ book: [answer.bookApp('B1', long)], status: [answer.status('B1', 'BOOKED')], cancel: [answer.cancelled('B1')] });
    const m = await mount(s, { environment: 'desktop' });
    part(m.el, 'pay-on-phone')!.click();
    await reach(m.el, 'handoff');
    await waitUntil(() => part(m.el, 'use-computer'), 'the panel offers its ways out', { timeout: 8000 });
    expect(part(m.el, 'qr')).to.equal(null);
    expect(part(m.el, 'handoff-status')!.textContent).to.equal('This payment link is too long to show as a code. Pay on this computer instead, or cancel the payment.');
    expect(part(m.el, 'cancel')).to.not.equal(null);
    await expect(m.el).to.be.accessible();
    part(m.el, 'cancel')!.click();
    await reach(m.el, 'done');
    expect((await s.received()).cancel.map((r) => r.body)).to.deep.equal([{ booking_id: 'B1', correlation_id: 'c-B1', order: { id: 'A-1001' } }]);
  });

  it('says when the code expired and gives a new one on a new key; focus stays in the panel', async () => {
    const s = await scenario({ book: [answer.bookApp('B1'), answer.bookApp('B2')], status: [answer.status('B1', 'CANCELED')] });
    const m = await mount(s, { environment: 'desktop' });
    await openHandoff(m);
    await nextCheck(m);
    await reach(m.el, 'handoff-expired');
    const { el } = m;
    expect(part(el, 'handoff-status')!.textContent).to.equal('This code has expired.');
    expect(part(el, 'qr')).to.equal(null);
    expect(m.nav.calls).to.deep.equal([]);
    await expect(el).to.be.accessible();
    part(el, 'new-code')!.click();
    await reach(el, 'handoff');
    await waitUntil(() => part(el, 'qr'), 'a new code', { timeout: 8000 });
    const { book } = await s.received();
    expect(book).to.have.length(2);
    expect(book[1]!.idempotencyKey).to.not.equal(book[0]!.idempotencyKey);
    expect(part<HTMLAnchorElement>(el, 'open-here')!.href).to.equal('https://links.wallet.test/pay/B2');
  });

  it('the five-minute rule applies: "Check again" and "Cancel payment"', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'BOOKED')] });
    const m = await mount(s, { environment: 'desktop', timings: { ...FAST, pollDelaysMs: [300], finalCheckAfterMs: 250 } });
    await openHandoff(m);
    await nextCheck(m);
    await reach(m.el, 'stalled');
    await waitUntil(() => part(m.el, 'check-again'), 'check again shows', { timeout: 8000 });
    expect(part(m.el, 'handoff-status')!.textContent).to.match(/not received a final answer/);
    await expect(m.el).to.be.accessible();
  });

  it('"Use this computer instead" cancels the app booking, then pays on the web; focus returns to the pay button', async () => {
    const web = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { booking_id: 'W1' } };
    const s = await scenario({
      book: [answer.bookApp('B1'), answer.bookWeb('W1', web)],
      status: [answer.status('B1', 'BOOKED')],
      cancel: [answer.cancelled('B1')],
    });
    const m = await mount(s, { environment: 'desktop' });
    await openHandoff(m);
    const useComputer = part(m.el, 'use-computer')!;
    useComputer.focus();
    useComputer.click();
    await reach(m.el, 'redirecting');
    const received = await s.received();
    expect(received.cancel.map((r) => r.body)).to.deep.equal([{ booking_id: 'B1', correlation_id: 'c-B1', order: { id: 'A-1001' } }]);
    expect(received.book.map((r) => r.body.channel)).to.deep.equal(['app', 'web']);
    expect(received.book[1]!.idempotencyKey).to.not.equal(received.book[0]!.idempotencyKey);
    expect(m.nav.calls).to.deep.equal([{ kind: 'postForm', url: web.url, fields: web.fields }]);
    expect(focused(m.el)).to.equal(payButton(m.el));
  });

  it('"Cancel payment" cancels the booking and focus returns to the pay button', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'BOOKED')], cancel: [answer.cancelled('B1')] });
    const m = await mount(s, { environment: 'desktop' });
    await openHandoff(m);
    const cancel = part(m.el, 'cancel')!;
    cancel.focus();
    cancel.click();
    await reach(m.el, 'done');
    expect((await s.received()).cancel).to.have.length(1);
    expect(focused(m.el)).to.equal(payButton(m.el));
    expect(m.nav.calls).to.deep.equal([{ kind: 'assign', url: `${location.origin}/shop/failed?booking_id=B1&status=CANCELED` }]);
  });

  it('takes the waiting up again after a reload (the kept booking is a hand-off)', async () => {
    const s = await scenario({ status: [answer.status('B1', 'BOOKED')] });
    const key = bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-1001' });
    const kept: Omit<KeptBooking, 'settings'> = { booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', idempotency_key: 'k-1', started_at: Date.now(), deeplink: LINK, handoff: true };
    sessionStorage.setItem(key, JSON.stringify(kept));
    const { el } = await mount(s, { environment: 'desktop' });
    await reach(el, 'handoff');
    await waitUntil(() => part(el, 'qr'), 'the code shows again', { timeout: 8000 });
    expect(part<HTMLAnchorElement>(el, 'open-here')!.href).to.equal(LINK);
  });

  it('speaks Nepali on a Nepali page, axe-clean waiting and expired', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')], status: [answer.status('B1', 'CANCELED')] });
    const m = await mount(s, { environment: 'desktop' });
    m.el.lang = 'ne';
    await m.el.updateComplete;
    await waitUntil(() => part(m.el, 'pay-on-phone')?.textContent?.trim() === 'फोनको एपबाट भुक्तानी गर्नुहोस्', 'the Nepali offer', { timeout: 8000 });
    await openHandoff(m);
    expect(part(m.el, 'handoff-status')!.textContent).to.equal('तपाईंको फोनबाट भुक्तानी हुन पर्खंदैछौं…');
    await expect(m.el).to.be.accessible();
    await nextCheck(m);
    await reach(m.el, 'handoff-expired');
    expect(part(m.el, 'handoff-status')!.textContent).to.equal('यो कोडको म्याद सकियो।');
    await expect(m.el).to.be.accessible();
  });
});

