/**
 * Two wallets rendered by the server: every wallet's button painted before the script, nothing moving
 * when the element (whose first render draws them too, without waiting for the payment code) takes over, and a
 * press on the second wallet's button before the script books that wallet once the element is ready.
 * Each page is a frame of its own (its own custom element registry) whose element script is held
 * back, as on a slow connection.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { renderWalletPayButton } from '../../../src/element/server-render.js';
import type { WalletPayButton } from '../../../src/element/wallet-pay-button.js';
import { answer, scenario } from '../../support/proxy.js';
import { LAYOUT_SHIFT_SCRIPT, defineOnRelease, openFrame, releaseScript, type HeldScriptWindow } from '../../support/frame-page.js';

interface Frame {
  frame: HTMLIFrameElement;
  win: HeldScriptWindow & { __shifts?: number[]; __layoutShiftSupported?: boolean };
  doc: Document;
}

afterEach(() => {
  sessionStorage.clear();
  for (const frame of document.querySelectorAll('iframe[data-server-render-wallets]')) frame.remove();
});

/** A page in a frame: `body` as written, a layout-shift observer first, the element's script held back until the test lets it in. */
async function openPage(body: string): Promise<Frame> {
  const frame = await openFrame(
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${LAYOUT_SHIFT_SCRIPT}
${defineOnRelease()}
</head>
<body style="margin: 0; font: 16px/1.4 sans-serif">
<p id="above">Your order: A-1001</p>
${body}
<p id="below">Delivery in two days.</p>
</body>
</html>`,
    'serverRenderWallets',
    'width: 900px; height: 500px; border: 0',
  );
  return { frame, win: frame.contentWindow as Frame['win'], doc: frame.contentDocument! };
}

const host = ({ doc }: Frame) => doc.querySelector('wallet-pay-button') as WalletPayButton;

/** The boxes of the host, each visible button and the paragraph below, rounded to 1/100 px. */
function boxes(page: Frame) {
  const round = (rect: DOMRect) => [rect.x, rect.y, rect.width, rect.height].map((value) => Math.round(value * 100) / 100);
  const buttons = [...host(page).shadowRoot!.querySelectorAll('button')].filter((button) => button.getClientRects().length > 0);
  return {
    host: round(host(page).getBoundingClientRect()),
    buttons: buttons.map((button) => [button.getAttribute('part'), button.textContent!.trim(), ...round(button.getBoundingClientRect())]),
    below: round(page.doc.getElementById('below')!.getBoundingClientRect()),
  };
}

/** Lets the held-back script in and waits (past the payment code) until the element is defined and has rendered. */
async function upgraded(page: Frame): Promise<WalletPayButton> {
  await releaseScript(page.win);
  const el = host(page);
  let rendered = false;
  void el.updateComplete.then(() => (rendered = true));
  await waitUntil(() => rendered, 'the element did not render within 6 s (its payment code did not come?)', { timeout: 6000 });
  // Two frames, so a shift the upgrade caused would have been painted and reported.
  await new Promise((done) => page.win.requestAnimationFrame(() => page.win.requestAnimationFrame(done)));
  return el;
}

const ATTRIBUTES = { 'allow-framed': true, 'order-id': 'A-1001', environment: 'desktop', 'allowed-hosts': 'links.wallet.test pay.wallet.test', wallets: 'esewa khalti' };

describe('<wallet-pay-button wallets> rendered by the server', function () {
  this.timeout(15_000);

  it("paints every wallet's button before the script, and nothing moves when the element takes over", async () => {
    const s = await scenario({});
    const page = await openPage(renderWalletPayButton({ ...ATTRIBUTES, endpoint: s.endpoint, 'wallet-order': 'khalti' }));
    expect(page.win.customElements.get('wallet-pay-button')).to.equal(undefined);
    const painted = boxes(page);
    expect(painted.buttons.map(([part, name]) => [part, name])).to.deep.equal([
      ['button button-khalti', 'Pay with Khalti'],
      ['button button-esewa', 'Pay with eSewa'],
      ['action pay-on-phone', 'Pay with the app on your phone'],
    ]);
    const served = host(page).shadowRoot!.querySelector('[part~="button-khalti"]');

    const el = await upgraded(page);
    expect(el.shadowRoot!.querySelector('[part~="button-khalti"]'), 'the element drew its own buttons').to.not.equal(served);
    expect(boxes(page)).to.deep.equal(painted);
    if (page.win.__layoutShiftSupported) expect(page.win.__shifts!.reduce((sum, value) => sum + value, 0)).to.equal(0);
  });

  it("a press on the second wallet's button before the script books that wallet once the element is ready", async () => {
    const s = await scenario({ book: [answer.failure(422, 'IP-424', 'unknown order')] });
    const page = await openPage(renderWalletPayButton({ ...ATTRIBUTES, endpoint: s.endpoint, 'phone-handoff': 'off' }));
    expect(page.win.customElements.get('wallet-pay-button')).to.equal(undefined);
    const early = host(page).shadowRoot!.querySelector('[part~="button-khalti"]') as HTMLButtonElement;
    early.click();
    expect(early.getAttribute('aria-busy'), 'the button says at once that the press was taken').to.equal('true');
    expect(host(page).getAttribute('data-early-press')).to.equal('khalti');
    expect((await s.received()).book).to.have.length(0);

    const el = await upgraded(page);
    await waitUntil(async () => (await s.received()).book.length === 1, `the early press did not book (the element is ${JSON.stringify(el.paymentState)})`, { timeout: 6000 });
    expect((await s.received()).book[0]!.body).to.deep.equal({ channel: 'web', order: { id: 'A-1001' }, wallet: 'khalti' });
    expect(el.hasAttribute('data-early-press'), 'the press is taken once').to.equal(false);
    await waitUntil(() => el.paymentState.name === 'error', 'the refused booking was not shown', { timeout: 6000 });
    expect((await s.received()).book).to.have.length(1);
  });
});

describe('<wallet-pay-button wallets> whose payment code does not come', function () {
  this.timeout(15_000);

  it("shows the one pay button (the server's first wallet) instead of nothing, and a press asks for the code again", async () => {
    const s = await scenario({});
    const missing = new URL('/test-proxy/missing-payment-code.js', location.href).href;
    // The page's import map sends the payment code's URL to a file that is not there.
    const map = { imports: Object.fromEntries(['payment.js', 'payment.ts'].map((name) => [new URL(`/src/element/${name}`, location.href).href, missing])) };
    const frame = await openFrame(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">
<script type="importmap">${JSON.stringify(map)}</script>
<script type="module">await import('${new URL('/src/define.ts', location.href).href}'); window.__definedAt = 1;</script>
</head><body><wallet-pay-button endpoint="${s.endpoint}" order-id="A-1001" environment="desktop" phone-handoff="off" allowed-hosts="pay.wallet.test" allow-framed wallets="esewa khalti"></wallet-pay-button></body></html>`,
      'serverRenderWallets',
      'width: 600px; height: 300px; border: 0',
    );
    const win = frame.contentWindow as Window & { __definedAt?: number };
    await waitUntil(() => win.__definedAt !== undefined, 'the element script never ran in the frame', { timeout: 6000 });
    const el = frame.contentDocument!.querySelector('wallet-pay-button') as WalletPayButton;
    let rendered = false;
    void el.updateComplete.then(() => (rendered = true));
    await waitUntil(() => rendered, 'the element never rendered without its payment code', { timeout: 8000 });
    const visible = () => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')].filter((button) => !button.hidden).map((button) => button.getAttribute('part'));
    // The wallets' buttons are drawn at once; the one pay button stands in once the code's load failed.
    await waitUntil(() => String(visible()) === 'button', `the one pay button did not stand in (${visible().join(', ')})`, { timeout: 8000 });
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="button"]')!.click();
    await waitUntil(() => el.paymentState.name === 'error', `the press did not show the missing code (now ${el.paymentState.name})`, { timeout: 8000 });
    // A missing file where the engine names the mapped URL; Firefox names the module asked for, which
    // is there, so it reads as a dropped load (with "Try again").
    expect(['config', 'network']).to.include(el.paymentState.error?.kind);
    expect((await s.received()).book).to.have.length(0);
  });
});
