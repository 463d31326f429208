/**
 * drawWallets (pay-buttons.ts) on plain buttons, without the element: the payment code's take-over of
 * the wallet buttons the first module drew. While busy the button of the wallet under way (a kept
 * booking's own, else the pressed one) shows progress and the others are disabled; a paid order shows
 * none; the buttons are the same ones throughout, and a button disabled by the first module stays so.
 */
import { expect } from '@open-wc/testing';
import { drawWallets } from '../../../src/element/pay-buttons.js';
import { flowState, type FlowState } from '../../../src/core/flow/state.js';
import { IDLE_STATE } from '../../../src/core/flow/idle.js';
import type { KeptBooking } from '../../../src/core/session-store.js';

const WALLETS = ['esewa', 'khalti'];

/** Two plain buttons, as the first module leaves them (enabled, not busy). */
function setUp() {
  const buttons = WALLETS.map(() => document.createElement('button'));
  const draw = (state: FlowState, pressed?: string) => {
    // The first module sets each render's base state before the payment code's.
    for (const button of buttons) button.disabled = false;
    drawWallets(buttons, WALLETS, state, pressed);
    return buttons.map((button) => [button.disabled, button.getAttribute('aria-busy'), button.hidden]);
  };
  return { buttons, draw };
}

describe('drawWallets', () => {
  it('idle: every wallet ready, none busy', () => {
    const { draw } = setUp();
    expect(draw(IDLE_STATE, 'khalti')).to.deep.equal([
      [false, 'false', false],
      [false, 'false', false],
    ]);
  });

  it('while busy the pressed wallet shows progress and the other is disabled; a paid order shows none', () => {
    const { draw, buttons } = setUp();
    const before = [...buttons];
    expect(draw(flowState('booking', null), 'khalti')).to.deep.equal([
      [true, 'false', false],
      [false, 'true', false],
    ]);
    expect(draw(flowState('paid', null), 'khalti').map(([, , hidden]) => hidden)).to.deep.equal([true, true]);
    expect(buttons).to.deep.equal(before);
  });

  it("a kept booking's own wallet wins over the last press", () => {
    const { draw } = setUp();
    const booking = { booking_id: 'K1', settings: { wallet: 'esewa' } } as unknown as KeptBooking;
    expect(draw(flowState('verifying', booking), 'khalti')).to.deep.equal([
      [false, 'true', false],
      [true, 'false', false],
    ]);
  });

  it('a button the first module disabled stays disabled', () => {
    const { buttons } = setUp();
    for (const button of buttons) button.disabled = true;
    drawWallets(buttons, WALLETS, IDLE_STATE, undefined);
    expect(buttons.map((button) => button.disabled)).to.deep.equal([true, true]);
  });
});
