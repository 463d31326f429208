import { adoptStyles, css } from '@lit/reactive-element';

/**
 * The panels' styles, on top of the element's (styles.ts): the links among a panel's actions, laid
 * out as the buttons are. Only the payment code draws a link, so they come with it, not with the first
 * module every visitor waits for; the server's first render (server-render.ts) has none. (`.panel`
 * stays with the element's styles: there it repeats the host's column and costs the entry less than
 * it would cost here.)
 */
export const panelStyles = css`
  a.action {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    text-decoration: none;
  }
`;

/**
 * Adds the panels' styles to a shadow root that has the element's: appends the constructed sheet
 * where the browser adopts sheets, else lets Lit add a `<style>` (with `window.litNonce` for a strict
 * CSP). Called once per root, at the first draw of the payment code's templates (view.ts `draw`),
 * before anything renders, so that `<style>` goes before what renders.
 */
export function adoptPanelStyles(root: ShadowRoot): void {
  const sheet = panelStyles.styleSheet;
  if (sheet) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  else adoptStyles(root, [panelStyles]);
}
