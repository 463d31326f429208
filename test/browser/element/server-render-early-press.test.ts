/**
 * The server render's early press (`renderWalletPayButton`'s inline script) when the payment code is
 * still on its way as the element takes over: in a tab that keeps a paid order of the shop, the
 * element loads its payment code at once, and the press the script makes again on the element's own
 * button lands during that load. It books once the code is in, once. The page is a frame of its own
 * (its own custom element registry); the test lets its element script and its payment code come.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { bookingKey } from '../../../src/core/settings.js';
import { renderWalletPayButton } from '../../../src/element/server-render.js';
import type { WalletPayButton } from '../../../src/element/wallet-pay-button.js';
import { answer, scenario } from '../../support/proxy.js';

/** What the frame waits for: its element script, then its payment code. */
interface Gates {
  script: Promise<void>;
  payment: Promise<void>;
}

declare global {
  interface Window {
    __earlyPressGates?: Gates;
  }
}

afterEach(() => {
  sessionStorage.clear();
  for (const frame of document.querySelectorAll('iframe[data-early-press-page]')) frame.remove();
});

/** A gate the test opens. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * A page in a frame with `body` as written; its element script comes when `gates.script` opens, and
 * the element's payment code (its `paymentLoader`, set before the element is defined) when
 * `gates.payment` does.
 */
async function openPage(body: string, gates: Gates): Promise<Document> {
  window.__earlyPressGates = gates;
  const frame = document.createElement('iframe');
  frame.dataset.earlyPressPage = '';
  frame.style.cssText = 'width: 900px; height: 300px; border: 0';
  frame.srcdoc = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<script type="module">
  const gates = parent.__earlyPressGates;
  await gates.script;
  document.querySelector('wallet-pay-button').paymentLoader = () => gates.payment.then(() => import('${new URL('/src/element/payment.ts', location.href).href}'));
  await import('${new URL('/src/define.ts', location.href).href}');
</script>
</head>
<body>
${body}
</body>
</html>`;
  const loaded = new Promise((done) => frame.addEventListener('load', done, { once: true }));
  document.body.append(frame);
  await loaded;
  return frame.contentDocument!;
}

describe('<wallet-pay-button> rendered by the server, pressed early, its payment code slow', () => {
  it('the early press made again during the load a paid order started books once the code is in, once', async () => {
    const s = await scenario({ book: [answer.failure(422, 'IP-424', 'unknown order')] });
    // The tab paid another order of this shop: the element loads its payment code at once.
    sessionStorage.setItem(`wallet-pay-paid:${bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-0999' })}`, '1');
    const script = gate();
    const payment = gate();
    const doc = await openPage(
      renderWalletPayButton({ 'allow-framed': true, endpoint: s.endpoint, 'order-id': 'A-1001', environment: 'desktop', 'allowed-hosts': 'pay.wallet.test', 'phone-handoff': 'off' }),
      { script: script.promise, payment: payment.promise },
    );
    const el = doc.querySelector('wallet-pay-button') as WalletPayButton;
    (el.shadowRoot!.querySelector('button[part~="button"]') as HTMLButtonElement).click();
    expect(el.getAttribute('data-early-press')).to.equal('pay');

    script.open();
    // The script made the press again on the element's own button: while the payment code is held.
    await waitUntil(() => doc.defaultView!.customElements.get('wallet-pay-button') && !el.hasAttribute('data-early-press'), 'the early press was never made again on the element', { timeout: 6000 });
    expect(el.paymentState.busy, 'the element shows the press waiting').to.equal(true);
    expect((await s.received()).book).to.have.length(0);

    payment.open();
    await waitUntil(async () => (await s.received()).book.length > 0, `the early press did not book once the code was in (the element is ${JSON.stringify(el.paymentState.name)})`, { timeout: 6000 });
    await waitUntil(() => el.paymentState.name === 'error', 'the refused booking was not shown', { timeout: 6000 });
    await el.loadsSettled();
    const { book } = await s.received();
    expect(book.map((r) => r.body), 'one booking for the one press').to.deep.equal([{ channel: 'web', order: { id: 'A-1001' } }]);
  });
});
