/**
 * The first render in someone else's in-app browser, from the server and from the element: the
 * server render (`renderWalletPayButton` with `environment="inapp"`, as it writes for an in-app user
 * agent; the user agents themselves are tested in Node) paints "Pay on the web", and the element,
 * once its script arrives late, renders the same button in the same box. Each page is a frame of its
 * own (its own custom element registry) whose element script is held back, as on a slow connection.
 */
import { expect } from '@open-wc/testing';
import { renderWalletPayButton } from '../../../../src/element/server-render.js';
import type { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { scenario } from '../../../support/proxy.js';
import { LAYOUT_SHIFT_SCRIPT, defineOnRelease, openFrame, releaseScript, type HeldScriptWindow } from '../../../support/frame-page.js';

type FrameWindow = HeldScriptWindow & { __shifts: number[]; __layoutShiftSupported: boolean };

afterEach(() => {
  for (const frame of document.querySelectorAll('iframe[data-inapp-render]')) frame.remove();
});

/** A page in a frame holding `body`, a layout-shift observer, and the element's script held back until the test lets it in. */
async function openPage(body: string, lang: string): Promise<{ win: FrameWindow; doc: Document }> {
  const frame = await openFrame(
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
${LAYOUT_SHIFT_SCRIPT}
${defineOnRelease()}</head>
<body style="margin: 0; font: 16px/1.4 sans-serif"><p>Your order: A-1001</p>${body}<p id="below">Delivery in two days.</p></body></html>`,
    'inappRender',
    'width: 400px; height: 400px; border: 0',
  );
  return { win: frame.contentWindow as FrameWindow, doc: frame.contentDocument! };
}

/** The visible buttons of the element's shadow root, with their text and box. */
function buttons(el: Element): { text: string; box: string }[] {
  return [...el.shadowRoot!.querySelectorAll('button, a')]
    .filter((node) => node.getBoundingClientRect().height > 0)
    .map((node) => {
      const { x, y, width, height } = node.getBoundingClientRect();
      return { text: node.textContent!.trim(), box: [x, y, width, height].map(Math.round).join(' ') };
    });
}

describe('<wallet-pay-button> first render in an in-app browser', function () {
  this.timeout(12_000);

  for (const [lang, text] of [
    ['en', 'Pay on the web'],
    ['ne', 'वेबमा भुक्तानी गर्नुहोस्'],
  ] as const) {
    it(`the server paints "${text}" and the element renders the same, with nothing moving (${lang})`, async () => {
      const s = await scenario({});
      const attributes = { 'allow-framed': true, endpoint: s.endpoint, 'order-id': 'A-1001', environment: 'inapp', 'allowed-hosts': 'links.wallet.test pay.wallet.test' };
      const { win, doc } = await openPage(renderWalletPayButton(attributes, { lang }), lang);
      const el = doc.querySelector('wallet-pay-button') as WalletPayButton;
      expect(win.customElements.get('wallet-pay-button'), 'the script is held back').to.equal(undefined);
      const painted = buttons(el);
      expect(painted.map((button) => button.text)).to.deep.equal([text]);
      const below = doc.getElementById('below')!.getBoundingClientRect().y;

      await releaseScript(win);
      await el.updateComplete;
      await new Promise((done) => win.requestAnimationFrame(() => win.requestAnimationFrame(done)));
      expect(buttons(el), 'the element renders what the server painted').to.deep.equal(painted);
      expect(doc.getElementById('below')!.getBoundingClientRect().y).to.equal(below);
      if (win.__layoutShiftSupported) expect(win.__shifts.reduce((sum, value) => sum + value, 0)).to.equal(0);
    });
  }
});
