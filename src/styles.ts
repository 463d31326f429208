import { css } from 'lit';

/** The element's styles; `--wallet-pay-*` properties are public, `--_*` ones private. */
export const styles = css`
  :host {
    --_bg: var(--wallet-pay-background, #4a1f7a);
    --_fg: var(--wallet-pay-color, #ffffff);
    --_radius: var(--wallet-pay-radius, 8px);
    --_focus: var(--wallet-pay-focus-ring, #1a73e8);
    --_gap: var(--wallet-pay-gap, 0.5rem);
    --_height: var(--wallet-pay-min-height, 48px);
    --_text: var(--wallet-pay-status-color, inherit);
    display: inline-block;
    font: var(--wallet-pay-font, inherit);
  }
  :host([hidden]) {
    display: none;
  }
  .base {
    display: flex;
    flex-direction: column;
    gap: var(--_gap);
  }
  .button,
  .action {
    box-sizing: border-box;
    /* 44 px is the floor whatever the theme says (WCAG 2.5.5). */
    min-height: max(44px, var(--_height));
    min-width: 44px;
    padding: 0 1.25rem;
    border-radius: var(--_radius);
    font: inherit;
    font-weight: 600;
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    text-decoration: none;
  }
  .button {
    border: 0;
    background: var(--_bg);
    color: var(--_fg);
  }
  .button[aria-busy='true'] {
    cursor: progress;
    opacity: 0.85;
  }
  .button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  .action {
    border: 2px solid var(--_bg);
    background: transparent;
    color: var(--_bg);
  }
  .button:focus-visible,
  .action:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .status {
    color: var(--_text);
    min-height: 1lh;
  }
  .panel {
    display: flex;
    flex-direction: column;
    gap: var(--_gap);
  }
`;
