/**
 * The wallet buttons' states once the payment code is in. With two wallets or more the element's
 * first module draws one button per wallet from its first render on (in the order `wallets.ts`
 * gives), in its one pay button's state, so a page offering two wallets paints as fast as one and a
 * press before the payment code is in is kept for its wallet. The payment code takes those same
 * buttons over here (it never replaces them: focus stays) for what only a payment tells: which wallet
 * a kept booking was made with, the other wallets while one is under way, a paid order. The server
 * render writes the same markup (server-render.ts).
 */
import type { FlowState } from '../core/flow/state.js';

/**
 * Sets the states of the wallet buttons `buttons` (the wallets `wallets`, in the same order; drawn
 * and set to the one pay button's state by the first module) for `state`, `pressed` being the wallet
 * of the last press taken: while busy, the button of the wallet under way (a kept booking's own, else
 * the pressed one) shows progress and the others are disabled; a paid order shows none.
 */
export function drawWallets(buttons: readonly HTMLButtonElement[], wallets: readonly string[], state: FlowState, pressed: string | undefined): void {
  const { busy, booking } = state;
  // A kept booking's own wallet wins: the way back shows progress on the button it was booked with.
  const wallet = booking?.settings.wallet ?? pressed;
  buttons.forEach((button, i) => {
    const other = busy && wallets[i] !== wallet;
    button.hidden = state.name === 'paid';
    button.disabled ||= other;
    button.setAttribute('aria-busy', String(busy && !other));
  });
}
