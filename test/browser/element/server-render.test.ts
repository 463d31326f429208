/**
 * The button on screen before its script, with nothing moving when the element takes over. Each page
 * is a frame of its own (its own custom element registry) whose element script is held back, as on a
 * slow connection, until the test has read the page without it: the server-rendered button (`renderWalletPayButton`, Declarative Shadow DOM)
 * and the documented `:not(:defined)` rule (read from docs/element.md). Checked: the button is there
 * at the first paint with its label while the element is not defined yet; a press before the script
 * arrives starts the payment once it has; the button's box and the content below it are where they
 * were after the upgrade, and the engine's `layout-shift` entries (where it has them) add up to 0.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { ELEMENT_ATTRIBUTES } from '../../../src/element/attribute-names.js';
import { renderWalletPayButton } from '../../../src/element/server-render.js';
import { WalletPayButton } from '../../../src/element/wallet-pay-button.js';
import { answer, scenario } from '../../support/proxy.js';
import { LAYOUT_SHIFT_SCRIPT, defineOnRelease, openFrame, releaseScript, type HeldScriptWindow } from '../../support/frame-page.js';

interface Frame {
  frame: HTMLIFrameElement;
  win: HeldScriptWindow & { __shifts?: number[]; __layoutShiftSupported?: boolean };
  doc: Document;
}

afterEach(() => {
  for (const frame of document.querySelectorAll('iframe[data-server-render]')) frame.remove();
});

/**
 * A page in a frame: `body` as written, a layout-shift observer first, and the element's script
 * (the source's define module) held back until {@link upgraded} lets it in.
 */
async function openPage(body: string, head = '', width = 900): Promise<Frame> {
  const frame = await openFrame(
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${LAYOUT_SHIFT_SCRIPT}
${defineOnRelease()}
${head}
</head>
<body style="margin: 0; font: 16px/1.4 sans-serif">
<p id="above">Your order: A-1001</p>
${body}
<p id="below">Delivery in two days.</p>
</body>
</html>`,
    'serverRender',
    `width: ${width}px; height: 500px; border: 0`,
  );
  const win = frame.contentWindow as Frame['win'];
  return { frame, win, doc: frame.contentDocument! };
}

const host = ({ doc }: Frame) => doc.querySelector('wallet-pay-button') as WalletPayButton;

/** Where the host and the paragraph below it are, in the frame's coordinates. */
function boxes(page: Frame) {
  const round = (rect: DOMRect) => ({ x: Math.round(rect.x * 100) / 100, y: Math.round(rect.y * 100) / 100, width: Math.round(rect.width * 100) / 100, height: Math.round(rect.height * 100) / 100 });
  return { host: round(host(page).getBoundingClientRect()), below: round(page.doc.getElementById('below')!.getBoundingClientRect()) };
}

/** Lets the held-back script in and waits until the element is defined and has rendered. */
async function upgraded(page: Frame): Promise<WalletPayButton> {
  await releaseScript(page.win);
  const el = host(page);
  await el.updateComplete;
  // Two frames, so a shift the upgrade caused would have been painted and reported.
  await new Promise((done) => page.win.requestAnimationFrame(() => page.win.requestAnimationFrame(done)));
  return el;
}

/** The first paint of the frame, where the engine reports paint timing; `null` where it does not. */
function firstPaint(page: Frame): number | null {
  const [entry] = page.win.performance.getEntriesByName('first-contentful-paint');
  return entry ? entry.startTime : null;
}

// The test's own frame stands in for a page: the element may pay inside it. A srcdoc frame's address is
// about:srcdoc, so return URLs (same-origin only) are left unset.
const ATTRIBUTES = { 'allow-framed': true, endpoint: '', 'order-id': 'A-1001', environment: 'desktop', 'allowed-hosts': 'links.wallet.test pay.wallet.test' };

describe('<wallet-pay-button> rendered by the server (Declarative Shadow DOM)', function () {
  this.timeout(12_000);

  it('is painted with its label before the script, and nothing moves when the element takes over', async () => {
    const s = await scenario({});
    const page = await openPage(renderWalletPayButton({ ...ATTRIBUTES, endpoint: s.endpoint }));
    // The frame's load came well before the held-back script: the element is not defined yet.
    expect(page.win.customElements.get('wallet-pay-button')).to.equal(undefined);
    const before = host(page);
    const button = before.shadowRoot?.querySelector('button[part~="button"]') as HTMLButtonElement | null;
    expect(button, 'the server-rendered shadow root was attached by the parser').to.not.equal(null);
    expect(button!.textContent).to.equal('Pay with wallet');
    expect(before.shadowRoot!.querySelector('[part~="pay-on-phone"]')?.textContent).to.equal('Pay with the app on your phone');
    const painted = boxes(page);
    expect(painted.host.height).to.be.at.least(48 + 8 + 44);
    expect(button!.getBoundingClientRect().height).to.be.at.least(48);
    expect(page.win.getComputedStyle(button!).backgroundColor).to.equal('rgb(74, 31, 122)');

    const el = await upgraded(page);
    const paint = firstPaint(page);
    if (paint !== null) expect(paint, 'the first paint came before the script was let in').to.be.below(page.win.__releasedAt!);
    expect(el).to.equal(before);
    const rendered = el.shadowRoot!.querySelectorAll('button[part~="button"]');
    expect(rendered.length, 'the element rendered into the adopted root once').to.equal(1);
    expect(rendered[0]).to.not.equal(button);
    expect(rendered[0]!.textContent!.trim()).to.equal('Pay with wallet');
    expect(boxes(page)).to.deep.equal(painted);
    if (page.win.__layoutShiftSupported) expect(page.win.__shifts!.reduce((sum, value) => sum + value, 0)).to.equal(0);
  });

  it('a press before the script arrives shows busy at once and starts the payment once the element is ready', async () => {
    const s = await scenario({ book: [answer.failure(422, 'IP-424', 'unknown order')] });
    const page = await openPage(renderWalletPayButton({ ...ATTRIBUTES, endpoint: s.endpoint, 'phone-handoff': 'off' }));
    expect(page.win.customElements.get('wallet-pay-button')).to.equal(undefined);
    const early = host(page).shadowRoot!.querySelector('button[part~="button"]') as HTMLButtonElement;
    early.click();
    expect(early.getAttribute('aria-busy'), 'the button says at once that the press was taken').to.equal('true');
    expect(host(page).getAttribute('data-early-press')).to.equal('pay');
    expect((await s.received()).book).to.have.length(0);

    const el = await upgraded(page);
    await waitUntil(async () => (await s.received()).book.length === 1, `the early press did not book (the element is ${JSON.stringify(el.paymentState)})`, { timeout: 6000 });
    expect((await s.received()).book[0]!.body).to.deep.equal({ channel: 'web', order: { id: 'A-1001' } });
    expect(el.hasAttribute('data-early-press'), 'the press is taken once').to.equal(false);
    await waitUntil(() => el.paymentState.name === 'error', 'the refused booking was not shown', { timeout: 6000 });
  });

  it("with the shopper's user agent and no environment, the server and the element choose the same first render at a phone's width and a tablet's", async () => {
    // In the android group this is a phone's user agent with touch: a frame wider than 768 px is a
    // tablet (the element offers the phone hand-off there), a narrower one a phone (it does not).
    for (const width of [900, 400]) {
      const s = await scenario({});
      const { environment: _auto, ...auto } = ATTRIBUTES;
      const page = await openPage(renderWalletPayButton({ ...auto, endpoint: s.endpoint }, { userAgent: navigator.userAgent }), '', width);
      const shown = () => {
        const offer = host(page).shadowRoot!.querySelector('[part~="pay-on-phone"]');
        return offer !== null && offer.getBoundingClientRect().height > 0;
      };
      const before = { offer: shown(), boxes: boxes(page) };
      const el = await upgraded(page);
      expect({ offer: shown(), boxes: boxes(page) }, `${width} px wide, ${navigator.userAgent}`).to.deep.equal(before);
      expect(el.shadowRoot!.querySelectorAll('button[part~="button"]').length).to.equal(1);
      if (page.win.__layoutShiftSupported) expect(page.win.__shifts!.reduce((sum, value) => sum + value, 0)).to.equal(0);
      page.frame.remove();
    }
  });

  it('a page without the server helper: the documented :not(:defined) rule reserves the same box', async () => {
    const markdown = await (await fetch(new URL('/docs/element.md', location.href))).text();
    const rule = /```css\n(wallet-pay-button:not\(:defined\)[\s\S]*?)```/.exec(markdown)?.[1];
    expect(rule, 'docs/element.md gives the :not(:defined) rule').to.be.a('string');
    const s = await scenario({});
    const page = await openPage(
      `<wallet-pay-button endpoint="${s.endpoint}" order-id="A-1001" allowed-hosts="links.wallet.test pay.wallet.test" phone-handoff="off" allow-framed></wallet-pay-button>`,
      `<style>${rule}</style>`,
    );
    expect(page.win.customElements.get('wallet-pay-button')).to.equal(undefined);
    expect(page.win.getComputedStyle(host(page), '::before').content).to.equal('"Pay with wallet"');
    const painted = boxes(page);
    expect(painted.host.height).to.be.at.least(48);
    await upgraded(page);
    expect(boxes(page)).to.deep.equal(painted);
    if (page.win.__layoutShiftSupported) expect(page.win.__shifts!.reduce((sum, value) => sum + value, 0)).to.equal(0);
  });

  it('writes exactly the attributes the element observes, so a new setting is never refused by the server render', () => {
    expect([...ELEMENT_ATTRIBUTES].sort()).to.deep.equal([...WalletPayButton.observedAttributes].sort());
  });
});
