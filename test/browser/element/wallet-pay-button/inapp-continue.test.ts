/**
 * The other end of an in-app browser's escape: a page opened at a continuation address (the checkout
 * with `#wallet-pay=…`), as the phone's own browser opens it, with no kept booking and no session.
 * Against the scripted proxy, in every engine: the booking is asked about with its ids and receipt and
 * never booked again; an open web booking's checked payment is followed; a paid one routes to the
 * success page; an app booking shows its link to tap; an expired, cancelled, refused or unanswered one
 * leaves the pay button. The continuation leaves the address in every case.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { Continuation } from '../../../../src/core/continuation.js';
import { continuationAddress } from '../../../../src/core/open-in-browser.js';
import { answer, scenario, type Scenario, type Script } from '../../../support/proxy.js';
import { mount, part, payButton, reach, type Mounted } from '../../../support/element.js';

const WEB = { url: 'https://pay.wallet.test/form', method: 'POST' as const, fields: { booking_id: 'W1', signature: 'c2ln' } };
const PAGE = location.href.split('#')[0]!;

afterEach(() => history.replaceState(history.state, '', PAGE));

/** The element mounted on this page opened at `continuation`'s address, against `script`. */
async function continuing(continuation: Continuation, script: Script): Promise<Mounted & { s: Scenario }> {
  const s = await scenario(script);
  history.replaceState(history.state, '', continuationAddress(PAGE, continuation));
  const m = await mount(s, { environment: 'mobile' });
  await waitUntil(() => !location.hash, 'the continuation stayed in the address', { timeout: 8000 });
  await m.el.loadsSettled();
  return { ...m, s };
}

const web = (id: string): Continuation => ({ booking_id: id, correlation_id: `c-${id}`, receipt: `receipt-${id}`, web_payment: { ...WEB, fields: { ...WEB.fields, booking_id: id } } });

describe('<wallet-pay-button> opened at a continuation address', () => {
  it("follows an open web booking's payment, asked about with its receipt, never booked again", async () => {
    const m = await continuing(web('W1'), { status: [answer.status('W1', 'BOOKED')] });
    await waitUntil(() => m.nav.calls.length > 0, 'the web payment was not followed', { timeout: 8000 });
    expect(m.nav.calls).to.deep.equal([{ kind: 'postForm', url: WEB.url, fields: { ...WEB.fields, booking_id: 'W1' } }]);
    const received = await m.s.received();
    expect(received.book).to.have.length(0);
    expect(received.status.map((r) => [r.body.booking_id, r.body.correlation_id, r.body.receipt])).to.deep.equal([['W1', 'c-W1', 'receipt-W1']]);
    expect(location.href).to.equal(PAGE);
    // Kept in this tab: the way back from the provider's page checks it, as after a fresh booking.
    const kept = Object.keys(sessionStorage).filter((key) => key.includes(m.s.endpoint) && sessionStorage.getItem(key)!.includes('"booking_id":"W1"'));
    expect(kept).to.have.length(1);
  });

  it('a booking paid meanwhile routes to the success page', async () => {
    const m = await continuing(web('W2'), { status: [answer.status('W2', 'SUCCESS')] });
    await waitUntil(() => m.nav.calls.length > 0, 'no route to the success page', { timeout: 8000 });
    expect(m.nav.calls).to.deep.equal([{ kind: 'assign', url: `${location.origin}/shop/done?booking_id=W2&status=SUCCESS` }]);
  });

  it("an app booking's deeplink becomes a link the shopper taps, never a script's navigation", async () => {
    const deeplink = 'https://links.wallet.test/pay/A1';
    const m = await continuing({ booking_id: 'A1', correlation_id: 'c-A1', deeplink }, { status: [answer.status('A1', 'BOOKED')] });
    await reach(m.el, 'pending');
    await m.el.loadsSettled();
    await m.el.updateComplete;
    expect(part<HTMLAnchorElement>(m.el, 'open-app')!.getAttribute('href')).to.equal(deeplink);
    expect(m.nav.calls).to.deep.equal([]);
  });

  for (const [status, why] of [
    ['CANCELED', 'expired or cancelled'],
    ['FAILED', 'failed'],
  ] as const) {
    it(`a booking that ${why} leaves the pay button, the way forward`, async () => {
      const m = await continuing(web('W3'), { status: [answer.status('W3', status)] });
      await waitUntil(async () => (await m.s.received()).status.length === 1, 'the status was not asked', { timeout: 8000 });
      await m.el.updateComplete;
      expect(m.el.paymentState.name).to.equal('idle');
      expect(payButton(m.el).disabled).to.equal(false);
      expect(m.nav.calls).to.deep.equal([]);
    });
  }

  it("a booking the server does not know (IP-404) or cannot answer for leaves the pay button", async () => {
    for (const failure of [answer.failure(404, 'IP-404', 'unknown booking'), { destroy: true }]) {
      const m = await continuing(web('W4'), { status: [failure] });
      // loadsSettled waited for the continuation's chunk and its status request.
      expect((await m.s.received()).status.length).to.be.at.least(1);
      await m.el.updateComplete;
      expect(m.el.paymentState.name).to.equal('idle');
      expect(payButton(m.el).disabled).to.equal(false);
      expect(m.nav.calls).to.deep.equal([]);
    }
  });

  it('a continuation whose payment leaves the allowed hosts, or a damaged one, asks nothing and leaves the pay button', async () => {
    for (const continuation of [
      { ...web('W5'), web_payment: { ...WEB, url: 'https://evil.test/form' } },
      { booking_id: 'W5', correlation_id: 'c-W5', deeplink: 'javascript:alert(1)' },
    ]) {
      const m = await continuing(continuation, { status: [answer.status('W5', 'BOOKED')] });
      await m.el.updateComplete;
      expect((await m.s.received()).status).to.have.length(0);
      expect(m.el.paymentState.name).to.equal('idle');
      expect(m.nav.calls).to.deep.equal([]);
    }
    const s = await scenario({ status: [answer.status('W5', 'BOOKED')] });
    history.replaceState(history.state, '', `${PAGE}#wallet-pay=%7Bnot-json`);
    const m = await mount(s, { environment: 'mobile' });
    await waitUntil(() => !location.hash, 'the damaged continuation stayed in the address', { timeout: 8000 });
    await m.el.loadsSettled();
    expect((await s.received()).status).to.have.length(0);
    expect(payButton(m.el).disabled).to.equal(false);
  });
});
