/**
 * Set-up mistakes the element meets only when it talks to the shop or the provider, told in the
 * console: a return page whose element did not make the booking in its address, an `endpoint` that
 * answers a page instead of the payment handler, an `allowed-hosts` without the deeplinks' host. Each
 * has a control where the same path goes right and nothing is warned.
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import type { KeptBooking } from '../../../src/core/session-store.js';
import { PAID_PREFIX } from '../../../src/core/kept.js';
import { bookingKey } from '../../../src/core/settings.js';
import type { WalletPayButton } from '../../../src/element/wallet-pay-button.js';
import { diagnoseFlowEvent } from '../../../src/element/diagnostics.js';
import { reportsSettled } from '../../../src/element/setup-check.js';
import { mount, payButton, reach } from '../../support/element.js';
import { answer, scenario, type Scenario } from '../../support/proxy.js';

// The element writes each warning once per page; every test uses ids of its own so that its warning is new.
const RUN = crypto.randomUUID().slice(0, 6);
let warnings: string[] = [];
let originalWarn: typeof console.warn;
let originalUrl: string;

beforeEach(() => {
  warnings = [];
  originalWarn = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
  };
  originalUrl = location.href;
});

afterEach(() => {
  console.warn = originalWarn;
  history.replaceState(history.state, '', originalUrl);
  sessionStorage.clear();
});

/** The address the provider sends the shopper back to: this page with `booking_id` and `status` added. */
function arriveWith(bookingId: string, status: string): void {
  const url = new URL(location.href);
  url.searchParams.set('booking_id', bookingId);
  url.searchParams.set('status', status);
  history.replaceState(history.state, '', url.href);
}

/** Keeps a booking for `orderId` on the scenario's endpoint, as the element does before leaving the page. */
function keep(s: Scenario, orderId: string, bookingId: string): void {
  const kept: Omit<KeptBooking, 'settings'> = {
    booking_id: bookingId,
    correlation_id: `c-${bookingId}`,
    channel: 'web',
    idempotency_key: `k-${bookingId}`,
    started_at: Date.now(),
  };
  sessionStorage.setItem(bookingKey(new URL(s.endpoint, location.href).href, { id: orderId }), JSON.stringify(kept));
}

/** Loads the payment code as a pointer over the button would, and waits for the set-up check. */
async function settle(el: WalletPayButton): Promise<void> {
  el.dispatchEvent(new Event('pointerenter'));
  await el.loadsSettled();
}

const about = (pattern: RegExp) => warnings.filter((line) => pattern.test(line));

describe('<wallet-pay-button> diagnostics: the return page', () => {
  it('warns when the address carries a booking this tab made for another order, naming both orders and what to render', async () => {
    const booking = `R-${RUN}-1`;
    const s = await scenario({});
    keep(s, 'OTHER-7', booking);
    arriveWith(booking, 'SUCCESS');
    const { el } = await mount(s, { environment: 'desktop' });
    await settle(el);
    const warned = about(new RegExp(`booking_id=${booking}`));
    expect(warned, warnings.join('\n')).to.have.length(1);
    expect(warned[0]).to.contain('<wallet-pay-button>');
    expect(warned[0]).to.contain('was booked for order {"id":"OTHER-7"}, not {"id":"A-1001"}');
    expect(warned[0]).to.contain(`booking_id=${booking}&status=SUCCESS`);
    expect(warned[0]).to.contain('redirectUrl');
    // The shopper still has a button: the element did not start anything on its own.
    expect(payButton(el).disabled).to.equal(false);
    expect((await s.received()).status).to.have.length(0);
  });

  it('warns when the tab kept no booking at all (the shopper came back in a new tab)', async () => {
    const booking = `R-${RUN}-2`;
    const s = await scenario({});
    arriveWith(booking, 'PENDING');
    const { el } = await mount(s, { environment: 'desktop' });
    await settle(el);
    const warned = about(new RegExp(`booking_id=${booking}`));
    expect(warned, warnings.join('\n')).to.have.length(1);
    expect(warned[0]).to.contain('is not kept in this tab');
  });

  it("a kept booking of another order whose order names the same booking_id is no lookalike: each kept booking is parsed", async () => {
    const booking = `R-${RUN}-6`;
    const s = await scenario({});
    // The order's own field holds the text an unparsed search would take for the kept booking's id.
    const kept = { booking_id: `OTHER-${RUN}`, correlation_id: 'c', channel: 'web', idempotency_key: 'k', started_at: Date.now(), order: { booking_id: booking } };
    sessionStorage.setItem(bookingKey(new URL(s.endpoint, location.href).href, { id: 'OTHER-9', booking_id: booking }), JSON.stringify(kept));
    arriveWith(booking, 'SUCCESS');
    const { el } = await mount(s, { environment: 'desktop' });
    await settle(el);
    const warned = about(new RegExp(`booking_id=${booking}`));
    expect(warned, warnings.join('\n')).to.have.length(1);
    expect(warned[0]).to.contain('is not kept in this tab');
    expect(warned[0]).to.not.contain('was booked for order');
  });

  it("reads the kit's booking_id up to the '?' eSewa glues its data onto", async () => {
    const booking = `R-${RUN}-7`;
    const s = await scenario({});
    keep(s, 'OTHER-10', booking);
    arriveWith(`${booking}?data=eyJ9`, 'SUCCESS');
    const { el } = await mount(s, { environment: 'desktop' });
    await settle(el);
    const warned = about(new RegExp(`booking_id=${booking}&`));
    expect(warned, warnings.join('\n')).to.have.length(1);
    expect(warned[0]).to.contain('was booked for order {"id":"OTHER-10"}');
  });

  it('says nothing when the element kept the booking itself: it verifies and routes', async () => {
    const booking = `R-${RUN}-3`;
    const s = await scenario({ status: [answer.status(booking, 'SUCCESS')] });
    keep(s, 'A-1001', booking);
    arriveWith(booking, 'SUCCESS');
    const success = oneEvent(document, 'wallet-pay-success');
    const { el } = await mount(s, { environment: 'desktop' });
    await success;
    await settle(el);
    expect(about(/booking_id=/), warnings.join('\n')).to.deep.equal([]);
  });

  it('says nothing on the return page of an order this tab paid: it shows the order paid', async () => {
    const booking = `R-${RUN}-5`;
    const s = await scenario({});
    const key = bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-1001' });
    sessionStorage.setItem(PAID_PREFIX + key, JSON.stringify({ booking_id: booking, url: `${location.origin}/shop/done` }));
    arriveWith(booking, 'SUCCESS');
    const { el } = await mount(s, { environment: 'desktop' });
    await reach(el, 'paid');
    await settle(el);
    expect(about(/booking_id=/), warnings.join('\n')).to.deep.equal([]);
  });

  it('says nothing on a page without a booking in its address', async () => {
    const s = await scenario({});
    keep(s, 'OTHER-8', `R-${RUN}-4`);
    const { el } = await mount(s, { environment: 'desktop' });
    await settle(el);
    expect(about(/booking_id=/), warnings.join('\n')).to.deep.equal([]);
  });
});

describe('<wallet-pay-button> diagnostics: an endpoint that is not the payment handler', () => {
  it('an HTML 404 page: warns naming endpoint, the URL posted to and what answered', async () => {
    const s = await scenario({ book: [{ status: 404, raw: `<!doctype html><html><head><title>Page not found ${RUN}</title></head><body>Not found</body></html>` }] });
    const { el } = await mount(s, { environment: 'desktop' });
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    await error;
    await waitUntil(() => about(/^<wallet-pay-button>: endpoint=/).length > 0, 'no warning about the endpoint', { timeout: 5000 });
    const [warned] = about(/^<wallet-pay-button>: endpoint=/);
    expect(warned).to.contain(`endpoint="${s.endpoint}"`);
    expect(warned).to.contain(`POST ${new URL(`${s.endpoint}/book`, location.href).href}`);
    expect(warned).to.contain('HTTP 404');
    expect(warned).to.contain('text/html');
    expect(warned).to.contain(`Page not found ${RUN}`);
  });

  it('a path nothing answers on this server: warns with the status the server gave', async () => {
    const s = await scenario({});
    const { el } = await mount({ ...s, endpoint: `/no-such-handler-${RUN}` }, { environment: 'desktop' });
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    await error;
    await waitUntil(() => about(/^<wallet-pay-button>: endpoint=/).length > 0, 'no warning about the endpoint', { timeout: 5000 });
    const [warned] = about(/^<wallet-pay-button>: endpoint=/);
    expect(warned).to.contain(`endpoint="/no-such-handler-${RUN}"`);
    expect(warned).to.match(/answered HTTP 404/);
  });

  it("a gateway's HTML 502, 503 or 504 while the shop restarts is an outage, not a wrong endpoint: nothing is warned", async () => {
    for (const status of [502, 503, 504]) {
      const s = await scenario({ book: [{ status, raw: `<!doctype html><html><head><title>${status} Bad Gateway ${RUN}</title></head><body>nginx</body></html>` }] });
      const { el } = await mount(s, { environment: 'desktop' });
      const error = oneEvent(el, 'wallet-pay-error');
      payButton(el).click();
      await error;
      await reach(el, 'error');
      el.remove();
    }
    // The control: the same page as a 405 (a page route that takes no POST) is warned about.
    const s = await scenario({ book: [{ status: 405, raw: `<!doctype html><html><head><title>Method Not Allowed ${RUN}</title></head></html>` }] });
    const { el } = await mount(s, { environment: 'desktop' });
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    await error;
    await waitUntil(() => about(/^<wallet-pay-button>: endpoint=/).length > 0, 'no warning about the endpoint', { timeout: 5000 });
    const warned = about(/^<wallet-pay-button>: endpoint=/);
    expect(warned.length, warnings.join('\n')).to.equal(1);
    expect(warned[0]).to.contain('HTTP 405');
  });

  it('a JSON failure of the handler itself (an unknown order) is no set-up mistake: nothing is warned', async () => {
    const s = await scenario({ book: [answer.failure(404, 'IP-404', 'unknown order')] });
    const { el } = await mount(s, { environment: 'desktop' });
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    await error;
    await reach(el, 'error');
    expect(about(/endpoint=/), warnings.join('\n')).to.deep.equal([]);
  });
});

describe('<wallet-pay-button> diagnostics: allowed-hosts without the deeplinks\' host', () => {
  it('a deeplink on a host allowed-hosts does not list: warns naming allowed-hosts and the refused host, and the booking is cancelled', async () => {
    const booking = `H-${RUN}-1`;
    const host = `links-${RUN}.wallet.test`;
    const s = await scenario({ book: [answer.bookApp(booking, `https://${host}/pay/${booking}`)], cancel: [answer.cancelled(booking)] });
    const { el, nav } = await mount(s, { environment: 'mobile' });
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    expect((await error).detail).to.include({ kind: 'url-refused', reason: 'host-not-allowed', url: `https://${host}/pay/${booking}` });
    // The warning's sentence comes with the set-up messages, loaded now that there is something to say.
    await el.loadsSettled();
    const warned = about(/allowed-hosts=/);
    expect(warned, warnings.join('\n')).to.have.length(1);
    expect(warned[0]).to.contain('allowed-hosts="links.wallet.test pay.wallet.test"');
    expect(warned[0]).to.contain(`does not list ${host}`);
    expect(warned[0]).to.contain(`Add ${host}:`);
    expect(nav.calls).to.deep.equal([]);
    await waitUntil(async () => (await s.received()).cancel.length === 1, 'the refused booking was not cancelled');
  });

  it('a deeplink with a port names the host with its port (as the sandbox answers)', async () => {
    const booking = `H-${RUN}-2`;
    const s = await scenario({ book: [answer.bookApp(booking, `https://pay-links.wallet.test:4011/pay/${booking}`)], cancel: [answer.cancelled(booking)] });
    const { el } = await mount(s, { environment: 'mobile' });
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    await error;
    await el.loadsSettled();
    expect(about(/allowed-hosts=/).join('\n')).to.contain('does not list pay-links.wallet.test:4011');
  });

  it('names the host from the event\'s url, whatever its message says (no English is parsed)', async () => {
    const host = `worded-${RUN}.wallet.test`;
    diagnoseFlowEvent({ type: 'error', kind: 'url-refused', reason: 'host-not-allowed', url: `https://${host}/pay/1`, message: 'Adresse refusée' }, 'links.wallet.test');
    await reportsSettled();
    expect(about(/allowed-hosts=/).join('\n'), warnings.join('\n')).to.contain(`does not list ${host}`);
  });

  it('an allowed deeplink opens the app and warns nothing', async () => {
    const booking = `H-${RUN}-3`;
    const s = await scenario({ book: [answer.bookApp(booking)] });
    const { el, nav } = await mount(s, { environment: 'mobile' });
    payButton(el).click();
    await waitUntil(() => nav.calls.length > 0, 'the app was not opened');
    expect(about(/allowed-hosts=/), warnings.join('\n')).to.deep.equal([]);
  });
});
