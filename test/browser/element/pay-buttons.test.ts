/**
 * drawWallets (pay-buttons.ts) on a plain host and anchor, without the element: one native button per
 * wallet before the anchor, in the order `wallets.ts` gives; the pressed wallet's progress while busy;
 * none for a paid order; held hidden in place while the anchor is (a return address waiting for
 * `/order`); redrawn when the wallets change, and nothing for fewer than two.
 */
import { expect } from '@open-wc/testing';
import { drawWallets, type WalletsHost } from '../../../src/element/pay-buttons.js';
import { flowState } from '../../../src/core/flow/state.js';
import { IDLE_STATE } from '../../../src/core/flow/idle.js';
import { LABELS_EN } from '../../../src/element/i18n/en/labels.js';
import type { FlowState } from '../../../src/core/flow/state.js';
import type { StringTable } from '../../../src/element/i18n/index.js';

const t = LABELS_EN as unknown as StringTable;

/** A host whose shadow-like root holds the anchor (the first module's pay button). */
function setUp(wallets: string, walletOrder?: string) {
  const root = document.createElement('div');
  document.body.append(root);
  const anchor = root.appendChild(document.createElement('button'));
  const host: WalletsHost & { paymentState: FlowState } = { renderRoot: root, ownerDocument: document, disabled: false, paymentState: IDLE_STATE, wallets, walletOrder };
  const pressed: string[] = [];
  const draw = (state: FlowState = host.paymentState) => drawWallets(host, anchor, state, t, (wallet) => pressed.push(wallet));
  return { root, anchor, host, pressed, draw, buttons: () => [...root.querySelectorAll<HTMLButtonElement>('button.button')] };
}

afterEach(() => {
  for (const node of [...document.body.children]) if (node.localName === 'div') node.remove();
});

describe('drawWallets', () => {
  it('two wallets: a native button each before the anchor, wallet-order first, its press naming its wallet', () => {
    const { anchor, draw, buttons, pressed } = setUp('esewa khalti', 'khalti');
    expect(draw()).to.equal(true);
    expect(buttons().map((button) => [button.getAttribute('part'), button.textContent])).to.deep.equal([
      ['button button-khalti', 'Pay with Khalti'],
      ['button button-esewa', 'Pay with eSewa'],
    ]);
    expect(buttons()[1]!.nextElementSibling).to.equal(anchor);
    expect(buttons()[0]!.querySelector('slot')!.name).to.equal('logo-khalti');
    buttons()[1]!.click();
    expect(pressed).to.deep.equal(['esewa']);
  });

  it('fewer than two known wallets draw nothing: the anchor is the one pay button', () => {
    for (const wallets of ['esewa', '', 'esewa paypal']) {
      const { draw, buttons } = setUp(wallets);
      expect(draw(), wallets).to.equal(false);
      expect(buttons()).to.deep.equal([]);
    }
  });

  it('while busy the pressed wallet shows progress and the other is disabled; a paid order shows none', () => {
    const { host, draw, buttons } = setUp('esewa khalti');
    draw();
    buttons()[1]!.click();
    draw((host.paymentState = flowState('booking', null)));
    expect(buttons().map((button) => [button.disabled, button.getAttribute('aria-busy')])).to.deep.equal([
      [true, 'false'],
      [false, 'true'],
    ]);
    draw(flowState('paid', null));
    expect(buttons().map((button) => button.hidden)).to.deep.equal([true, true]);
  });

  it('held hidden in place while the anchor is, shown with it', () => {
    const { anchor, draw, buttons } = setUp('esewa khalti');
    anchor.style.visibility = 'hidden';
    draw();
    expect(buttons().map((button) => getComputedStyle(button).visibility)).to.deep.equal(['hidden', 'hidden']);
    anchor.style.visibility = '';
    draw();
    expect(buttons().map((button) => getComputedStyle(button).visibility)).to.deep.equal(['visible', 'visible']);
  });

  it('other wallets redraw the buttons; the same ones keep theirs', () => {
    const { host, draw, buttons } = setUp('esewa khalti');
    draw();
    const first = buttons();
    draw();
    expect(buttons()).to.deep.equal(first);
    host.wallets = 'khalti esewa';
    draw();
    expect(buttons().map((button) => button.textContent)).to.deep.equal(['Pay with Khalti', 'Pay with eSewa']);
    expect(first.some((button) => button.isConnected)).to.equal(false);
  });
});
