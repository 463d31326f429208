/**
 * The baseline: the least a Lit button element can be (a styled native button and a slot). The
 * render benchmark bundles it beside the element; the checkout benchmark builds it on its own like a
 * CDN file, the page a shopper with the thinnest possible Lit button would load.
 */
import { LitElement, css, html, type TemplateResult } from 'lit';

export class BenchMinimalButton extends LitElement {
  static override styles = css`
    :host { display: inline-block; }
    button { font: inherit; min-height: 44px; }
  `;

  override render(): TemplateResult {
    return html`<button part="button" type="button"><slot>Pay</slot></button>`;
  }
}

if (!customElements.get('bench-minimal-button')) customElements.define('bench-minimal-button', BenchMinimalButton);
