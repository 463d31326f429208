import { css } from '@lit/reactive-element';

/**
 * The element's styles. `--wallet-pay-*` properties are public, `--_*` ones private: each variant
 * sets the private defaults and the public properties win over them. The build minifies this text.
 *
 * - 44px is the floor of every control whatever the theme says (WCAG 2.5.5).
 * - `--wallet-pay-background` also draws the secondary actions unless `--wallet-pay-accent` is set
 *   (it did before the accent existed).
 * - Buttons keep the native button layout, which already centres their label; only the links are
 *   inline flex boxes (panel-styles.ts: only the payment code draws links). An inline-flex button is a second flex layout per element (render ~6% slower).
 */
export const styles = css`
  :host {
    --_bg: #4a1f7a;
    --_fg: #fff;
    --_bd: #4a1f7a;
    --_ring: #1a73e8;
    display: inline-flex;
    flex-direction: column;
    gap: var(--wallet-pay-gap, .5rem);
    font: var(--wallet-pay-font, inherit);
  }

  :host([variant=light]) {
    --_bg: #fff;
    --_fg: #4a1f7a;
    --_bd: #fff;
    --_ring: #8ab4f8;
  }

  :host([variant=outline]) {
    --_bg: transparent;
    --_fg: #4a1f7a;
  }

  @media (prefers-color-scheme: dark) {
    :host([variant=auto]) {
      --_bg: #fff;
      --_fg: #4a1f7a;
      --_bd: #fff;
      --_ring: #8ab4f8;
    }
  }

  :host([hidden]) {
    display: none;
  }

  :host([full-width]) {
    display: flex;
  }

  .panel {
    display: flex;
    flex-direction: column;
    gap: var(--wallet-pay-gap, .5rem);
  }

  .button,
  .action {
    box-sizing: border-box;
    min-height: max(44px, var(--wallet-pay-min-height, 48px));
    min-width: 44px;
    padding: 0 1.25rem;
    border: 2px solid var(--wallet-pay-border-color, var(--_bd));
    border-radius: var(--wallet-pay-radius, 8px);
    font: inherit;
    font-weight: 600;
    cursor: pointer;
    transition:
      filter .15s,
      opacity .15s;
  }

  .button {
    background: var(--wallet-pay-background, var(--_bg));
    color: var(--wallet-pay-color, var(--_fg));
  }

  .button:hover {
    filter: brightness(1.1);
  }

  .button[aria-busy=true] {
    cursor: progress;
    opacity: .85;
  }

  .button:disabled {
    cursor: not-allowed;
    opacity: .6;
  }

  .action {
    --_action: var(--wallet-pay-accent, var(--wallet-pay-background, var(--_bd)));
    background: transparent;
    border-color: var(--_action);
    color: var(--_action);
  }

  :focus-visible {
    outline: 3px solid var(--wallet-pay-focus-ring, var(--_ring));
    outline-offset: 2px;
  }

  .status {
    color: var(--wallet-pay-status-color, inherit);
    min-height: 1lh;
  }

  @media (prefers-reduced-motion: reduce) {
    .button,
    .action {
      transition: none;
    }
  }
`;
