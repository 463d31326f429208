/**
 * The element's whole shadow root as Lit templates, once the payment code is in: the pay button (one
 * per wallet, with two wallets or more), the offer to pay on the phone, the way forward after a
 * failed load, and the payment's panel, around the status region, which the element keeps from its
 * first render on. Before that, the first module draws the same markup with a few DOM calls (its
 * bytes forbid a template engine), and the server render writes it as HTML (server-render.ts; tests
 * hold the three equal). The templates replace the first module's parts but the region once, at
 * their first draw (`draw`), and keep focus on the button the shopper had.
 */
import { html, nothing, render, type RenderOptions } from 'lit/html.js';
import type { FlowState } from '../core/flow/state.js';
import { reload } from './chunk.js';
import type { PaymentElement } from './host.js';
import type { StringTable, TextKey } from './i18n/index.js';
import { action } from './action.js';
import { adoptPanelStyles } from './panel-styles.js';
import type { PaymentLink } from './payment.js';

/** What the template reads of the element besides {@link PaymentElement}: its attributes that shape the buttons. */
export interface ViewHost extends PaymentElement {
  disabled: boolean;
}

/**
 * What both renderers draw, decided once by the element (wallet-pay-button.ts, `update`): the
 * wallets offered (one button each with two or more), the pay button's words, whether the offer to
 * pay on the phone may show (its setting and the environment), the status region's text, the way
 * forward after a failed load, and whether the pay buttons are held (hidden in their place) on a
 * return address.
 */
export type Scene = [wallets: string[], label: string, offer: boolean, status: string, way: 'retry' | 'reload' | undefined, hold: boolean | undefined];

/**
 * The template of `host`'s shadow root around its status region: `scene` in `state`, in `t`'s words,
 * as the parts before the region (the pay buttons, the offer) and after it (the way forward, the
 * payment's `panel`). The region itself is the element's, kept from its first render on and said
 * in place (an assistive technology follows a live region it already knows, not a new one). What only
 * a payment tells is decided here: which wallet's button shows progress (a kept booking's own, else
 * the pressed one; the others are disabled while one is under way), a paid order (no pay button),
 * and the offer only while nothing is booked. Draws nothing itself.
 */
export function view(host: ViewHost, link: PaymentLink, state: FlowState, t: StringTable, [wallets, label, offer, , way, hold]: Scene, panel: unknown): [unknown[], unknown[]] {
  const { busy, booking, name } = state;
  const { payment, press } = link;
  const paid = name === 'paid';
  const disabled = host.disabled || paid;
  // Held by visibility, so nothing moves when they show (the style property, which a strict CSP allows).
  const visibility = hold ? 'visibility:hidden' : '';
  // A kept booking's own wallet wins: the way back shows progress on the button it was booked with.
  const busyWallet = booking?.settings.wallet ?? link.pressed;
  const many = wallets[1];
  const button = (part: string, content: unknown, busyHere: boolean, off: boolean, run: () => void, hidden: unknown = paid) =>
    html`<button part=${part} class="button" type="button" ?hidden=${hidden} ?disabled=${off} aria-busy=${busyHere} aria-describedby="status" .style=${visibility} @click=${run}>${content}</button>`;
  return [
    [
      many &&
        wallets.map((wallet) => {
          const other = busy && wallet !== busyWallet;
          return button(`button button-${wallet}`, html`<slot name="logo-${wallet}"></slot>${t[`wallet.${wallet}` as TextKey]}`, busy && !other, disabled || other, () => press(false, wallet));
        }),
      button('button', html`<slot>${label}</slot>`, busy, disabled, () => press(), paid || many),
      // Only while nothing is under way: a shopper never holds two open bookings.
      offer && !booking && (name === 'idle' || name === 'error' || (name === 'done' && state.outcome !== 'SUCCESS'))
        ? html`<button part="action pay-on-phone" class="action" type="button" ?disabled=${host.disabled} .style=${visibility} @click=${() => press(true)}>${t['handoff.offer']}</button>`
        : nothing,
    ],
    [way && action(way, t[`action.${way}`], way === 'retry' ? () => (payment ? payment.retry() : press()) : () => reload(host)), panel],
  ];
}

/**
 * Draws `value` (the two parts of {@link view}) with Lit's `render` into the element's shadow root,
 * before and after its status `region`, after the panels' styles, which come with this module. The
 * first draw replaces what was there but the region (the first module's parts, or the server's),
 * once: Lit adds its parts beside a container's nodes and adopts none, so the same markup is drawn
 * afresh in the same task (nothing paints in between) and focus moves from the button the shopper
 * had to its replacement. While one of those parts is held down, it draws nothing: the next draw,
 * which the press itself brings, replaces them.
 */
export function draw([before, after]: [unknown, unknown], root: ShadowRoot, region: Element, options: RenderOptions): void {
  let focused;
  if (!(root as { _$litPart$?: unknown })._$litPart$) {
    // A button held down (`:active`: a mouse button, Chromium's space bar) is not replaced under the
    // press, whose click would reach neither node: the first module's button takes it, and the press
    // draws again.
    if (root.querySelector(':active')) return;
    focused = root.activeElement?.getAttribute('part');
    adoptPanelStyles(root);
    for (const node of [...root.childNodes]) if (node !== region) node.remove();
  }
  render(before, root, { ...options, renderBefore: region });
  render(after, root, options);
  if (focused) root.querySelector<HTMLElement>(`[part="${focused}"]`)?.focus();
}
