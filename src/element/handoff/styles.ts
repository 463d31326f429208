import { adoptStyles, css } from '@lit/reactive-element';

/**
 * The hand-off panel's styles, on top of the element's (which already draw `.panel`, `.action` and
 * `.status`). One rule per line, as the element's: the build does not minify CSS in templates.
 *
 * The code's rules are `!important` on purpose: inside a shadow tree they beat a page's `::part(qr)`
 * rules, so no theme, filter or forced-colours mode can make the code light-on-dark, see-through or
 * smaller than a camera needs. Its colours live in the SVG's own attributes, not in custom properties.
 */
export const handoffStyles = css`
.handoff p{margin:0}
.handoff .title{font-weight:600}
.qr{display:block;flex:none;align-self:flex-start;min-width:200px!important;min-height:200px!important;background:#fff!important;filter:none!important;opacity:1!important;mix-blend-mode:normal!important;forced-color-adjust:none!important;transform:none!important}
`;

// Roots given a <style> (browsers without adoptable sheets), so a second call adds none.
const styled = new WeakSet<ShadowRoot>();

/**
 * Adds the hand-off's styles to a shadow root that already has the element's, once. Call it when the
 * panel first renders into that root (`adoptHandoffStyles(this.renderRoot as ShadowRoot)`): appends
 * the constructed sheet where the browser adopts sheets, else lets Lit add a `<style>` (with
 * `window.litNonce` for a strict CSP).
 */
export function adoptHandoffStyles(root: ShadowRoot): void {
  const sheet = handoffStyles.styleSheet;
  if (sheet) {
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else if (!styled.has(root)) {
    styled.add(root);
    adoptStyles(root, [handoffStyles]);
  }
}
