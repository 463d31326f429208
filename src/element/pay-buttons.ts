/**
 * One button per wallet, where the checkout offers two or more (the `wallets` attribute, in the order
 * `wallets.ts` gives): drawn by the payment code with DOM calls, before the first module's own pay
 * button, which then hides. The first module costs nothing more than the call, and a page with one
 * wallet (or none) never runs this. The server render writes the same markup (server-render.ts).
 */
import type { FlowState } from '../core/flow/state.js';
import { actionButton } from './chunk.js';
import type { StringKey, StringTable } from './i18n/index.js';
import { orderWallets } from './wallets.js';

/** What the wallet buttons read of their element. */
export interface WalletsHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly ownerDocument: Document;
  readonly disabled: boolean;
  readonly paymentState: FlowState;
  wallets?: string | undefined;
  walletOrder?: string | undefined;
}

/** One element's wallet buttons: the wallet of each, and the wallet of the last press taken. */
interface Drawn {
  wallets: string[];
  buttons: HTMLButtonElement[];
  pressed?: string;
}

const drawn = new WeakMap<WalletsHost, Drawn>();

/**
 * Draws `host`'s wallet buttons before `anchor` (the first module's pay button) in the state `state`
 * and `t`'s words; returns whether there are any (two wallets or more). Each is a native button (part
 * `button button-<wallet>`, class `button`) with a `logo-<wallet>` slot before the wallet's name;
 * a press runs `press` with its wallet. While busy, the pressed wallet's button shows progress and the
 * others are disabled; a paid order shows none, and while `anchor` is held hidden, they are too.
 */
export function drawWallets(host: WalletsHost, anchor: HTMLElement, state: FlowState, t: StringTable, press: (wallet: string) => void): boolean {
  const wallets = orderWallets(host.wallets, host.walletOrder);
  let mine = drawn.get(host);
  if (!mine || String(mine.wallets) !== String(wallets)) {
    for (const button of mine?.buttons ?? []) button.remove();
    const record: Drawn = { wallets, buttons: [] };
    // Fewer than two is no choice: the first module's one pay button books the server's first.
    if (wallets.length > 1) {
      record.buttons = wallets.map((wallet) =>
        walletButton(host.ownerDocument, wallet, () => {
          // A press the flow takes (it ignores one while busy) shows on its wallet's button.
          if (!host.paymentState.busy) record.pressed = wallet;
          press(wallet);
        }),
      );
      anchor.before(...record.buttons);
    }
    drawn.set(host, (mine = record));
  }
  if (!mine.buttons.length) return false;
  const { busy, name, booking } = state;
  // A kept booking's own wallet wins: the way back shows progress on the button it was booked with.
  const pressed = booking?.settings.wallet ?? mine.pressed;
  mine.buttons.forEach((button, i) => {
    const wallet = wallets[i]!;
    const other = busy && wallet !== pressed;
    button.hidden = name === 'paid';
    // Held in place as the first module's button is (a return address waiting for `/order`).
    button.style.visibility = anchor.style.visibility;
    button.disabled = host.disabled || button.hidden || other;
    button.setAttribute('aria-busy', String(busy && !other));
    const label = t[`wallet.${wallet}` as StringKey];
    if (button.lastChild!.textContent !== label) button.lastChild!.textContent = label;
  });
  return true;
}

/** A wallet's button, its name to be written after its logo's slot. */
function walletButton(doc: Document, wallet: string, run: () => void): HTMLButtonElement {
  const button = actionButton(doc, `button button-${wallet}`, run);
  button.className = 'button';
  button.setAttribute('aria-describedby', 'status');
  button.appendChild(doc.createElement('slot')).name = `logo-${wallet}`;
  button.append('');
  return button;
}
