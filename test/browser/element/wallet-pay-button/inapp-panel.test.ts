/**
 * The in-app panel's module on its own (the element's use of it: inapp.test.ts): what it draws for a
 * kept booking, and the address its way out carries. Drawn with Lit's `render` into a plain container
 * standing in for the element's shadow root; the flow is a recorder of what the panel asks of it.
 */
import { expect } from '@open-wc/testing';
import { render } from 'lit/html.js';
import { readContinuation } from '../../../../src/core/continuation.js';
import type { PaymentFlow } from '../../../../src/core/flow/index.js';
import type { KeptBooking } from '../../../../src/core/session-store.js';
import type { PaymentSettings } from '../../../../src/core/settings.js';
import type { PaymentElement } from '../../../../src/element/host.js';
import { STRINGS_EN, STRINGS_NE, type StringTable } from '../../../../src/element/i18n/index.js';
import { escapeAddress, inAppPanel } from '../../../../src/element/inapp-panel.js';

const ALLOWED = ['links.wallet.test', 'pay.wallet.test'];
const WEB = { url: 'https://pay.wallet.test/form', method: 'POST' as const, fields: { booking_id: 'W1' } };

function booking(extra: Partial<KeptBooking>): KeptBooking {
  const settings = { allowedHosts: ALLOWED } as unknown as PaymentSettings;
  return { booking_id: 'B1', correlation_id: 'c-B1', channel: 'web', idempotency_key: 'k', started_at: 0, settings, ...extra };
}

/** The panel for `kept`, drawn; what it asked of the flow is recorded. */
function drawn(kept: KeptBooking, t: StringTable = STRINGS_EN) {
  const root = document.createElement('div');
  document.body.append(root);
  const asked: string[] = [];
  const flow = { cancel: () => asked.push('cancel'), left: (to: string) => asked.push(`left ${to}`) } as unknown as PaymentFlow;
  const host = { ownerDocument: document, renderRoot: root, requestUpdate: () => undefined, updateComplete: Promise.resolve(true) } as unknown as PaymentElement;
  render(inAppPanel(host, kept, flow, t), root);
  const part = (name: string) => root.querySelector<HTMLElement>(`[part~="${name}"]`);
  return { root, asked, part };
}

afterEach(() => {
  for (const node of document.body.querySelectorAll(':scope > div')) node.remove();
});

describe('inAppPanel', () => {
  it('draws the secondary ways only, under a visible caption: the way out and cancel for a web booking', () => {
    const { root, part, asked } = drawn(booking({ web_payment: WEB, receipt: 'r' }));
    expect(root.querySelector('#inapp-label')!.textContent).to.equal('Other ways to pay');
    expect([...root.querySelectorAll('[part~="action"]')].map((a) => a.getAttribute('part'))).to.deep.equal(['action copy-link', 'action cancel']);
    expect(part('pay-web')).to.equal(null);
    part('cancel')!.click();
    expect(asked).to.deep.equal(['cancel']);
  });

  it('links the wallet app only for a deeplink on the allowed hosts, and reports the tap', () => {
    const { part, asked } = drawn(booking({ channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' }));
    const link = part('open-app') as HTMLAnchorElement;
    expect(link.getAttribute('href')).to.equal('https://links.wallet.test/pay/B1');
    link.addEventListener('click', (event) => event.preventDefault(), { once: true });
    link.click();
    expect(asked).to.deep.equal(['left app']);
    for (const deeplink of ['https://evil.test/pay/B1', 'javascript:alert(1)']) {
      expect(drawn(booking({ channel: 'app', deeplink })).part('open-app'), deeplink).to.equal(null);
    }
  });

  it('speaks Nepali with the Nepali table', () => {
    const { root } = drawn(booking({ web_payment: WEB }), STRINGS_NE);
    expect(root.querySelector('#inapp-label')!.textContent).to.equal(STRINGS_NE['panel.label']);
    expect(root.querySelector('[part~="copy-link"]')!.textContent).to.equal(STRINGS_NE['action.copy-link']);
  });
});

describe('escapeAddress', () => {
  const page = location.href.split('#')[0];

  it("is the page's address carrying the booking: its web payment, else its deeplink", () => {
    const web = escapeAddress(window, booking({ web_payment: WEB, receipt: 'r' }));
    expect(readContinuation(web, ALLOWED)).to.deep.equal({ ok: true, continuation: { booking_id: 'B1', correlation_id: 'c-B1', receipt: 'r', web_payment: WEB }, url: new URL(WEB.url) });
    const app = escapeAddress(window, booking({ channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' }));
    expect(readContinuation(app, ALLOWED)).to.deep.equal({ ok: true, continuation: { booking_id: 'B1', correlation_id: 'c-B1', deeplink: 'https://links.wallet.test/pay/B1' }, url: new URL('https://links.wallet.test/pay/B1') });
    expect(web.startsWith(`${page}#wallet-pay=`)).to.equal(true);
  });

  it("is the page's own address for a booking with no way on", () => {
    expect(escapeAddress(window, booking({}))).to.equal(location.href);
  });
});
