/**
 * The panels' styles come with the payment code: its `draw` adds them to the element's shadow root
 * once, beside the element's own, before the first panel renders, so a panel's links are laid out as
 * its buttons are.
 */
import { expect } from '@open-wc/testing';
import { html } from 'lit/html.js';
import { css } from '@lit/reactive-element';
import { adoptPanelStyles, panelStyles } from '../../../src/element/panel-styles.js';
import { draw } from '../../../src/element/payment.js';

function shadowHost(): { host: HTMLDivElement; root: ShadowRoot } {
  const host = document.createElement('div');
  document.body.append(host);
  const root = host.attachShadow({ mode: 'open' });
  return { host, root };
}

afterEach(() => {
  for (const node of document.body.querySelectorAll(':scope > div')) node.remove();
});

describe('panel styles', () => {
  it('are added after the sheets the root already has', () => {
    const { root } = shadowHost();
    const own = css`.status { color: red; }`.styleSheet!;
    root.adoptedStyleSheets = [own];
    adoptPanelStyles(root);
    expect(root.adoptedStyleSheets).to.deep.equal([own, panelStyles.styleSheet]);
  });

  it("draw lays a panel's link out as a button (centred inline flex box, no underline)", () => {
    const { host, root } = shadowHost();
    const region = root.appendChild(document.createElement('div'));
    draw([[], html`<div class="panel"><a part="action open-app" class="action" href="#open">Open the app</a></div>`], root, region, { host });
    const link = root.querySelector('a')!;
    const style = getComputedStyle(link);
    expect(style.display).to.equal('inline-flex');
    expect(style.justifyContent).to.equal('center');
    expect(style.alignItems).to.equal('center');
    expect(style.textDecorationLine).to.equal('none');
    // Drawn again: the styles are not added a second time (they come at the first draw).
    draw([[], html`<a class="action" href="#open">Open the app</a>`], root, region, { host });
    expect(root.adoptedStyleSheets.filter((sheet) => sheet === panelStyles.styleSheet)).to.have.length(1);
  });

  it('a link drawn without them is an ordinary inline link (what the element would show without the payment code)', () => {
    const { root } = shadowHost();
    root.innerHTML = '<a class="action" href="#open">Open the app</a>';
    expect(getComputedStyle(root.querySelector('a')!).display).to.equal('inline');
  });
});
