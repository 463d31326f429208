/**
 * A secondary action of the panels in Lit's template (part `action <name>`, class `action`): one
 * template for the payment's, the in-app browser's and the hand-off's buttons.
 */
import { html, type TemplateResult } from 'lit/html.js';

/** The button of `part`, saying `text`, that runs `run` when pressed. */
export const action = (part: string, text: string, run: () => void): TemplateResult =>
  html`<button part="action ${part}" class="action" type="button" @click=${() => run()}>${text}</button>`;
