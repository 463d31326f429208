/**
 * The payment code's one template (view.ts) writes what the server render writes
 * (`renderWalletPayButton`) for every state the server can write: one wallet, two wallets, Nepali,
 * the in-app wording, the desktop offer (real elements, once their code is in and the template drew
 * them), and the buttons held on a return address (the template itself). Lit's comment markers, the
 * server's `<style>` and `<script>` and the order of attributes are left out of the comparison. And
 * the template's first draw replaces what the first module drew once, but its status region, keeping
 * focus.
 */
import { expect, fixture, html as litHtml, waitUntil } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { html, render } from 'lit/html.js';
import '../../../src/define.js';
import { renderWalletPayButton } from '../../../src/element/server-render.js';
import { view, draw, type ViewHost } from '../../../src/element/view.js';
import type { PaymentLink } from '../../../src/element/payment.js';
import type { WalletPayButton } from '../../../src/element/wallet-pay-button.js';
import { IDLE_STATE } from '../../../src/core/flow/idle.js';
import { LABELS_EN } from '../../../src/element/i18n/en/labels.js';
import type { StringTable } from '../../../src/element/i18n/index.js';

/**
 * `nodes` as markup with sorted attributes, no comments, no `<style>` or `<script>`, and no `style`
 * attribute (a hold is inline visibility in the element, a rule in the server's HTML: checked apart).
 */
function normal(nodes: Iterable<Node>): string {
  let out = '';
  for (const node of nodes) {
    if (node.nodeType === Node.TEXT_NODE) out += node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const el = node as Element;
    if (el.localName === 'style' || el.localName === 'script') continue;
    const attributes = [...el.attributes]
      .filter((attribute) => attribute.name !== 'style')
      .map((attribute) => ` ${attribute.name}="${attribute.value}"`)
      .sort()
      .join('');
    out += `<${el.localName}${attributes}>${normal(el.childNodes)}</${el.localName}>`;
  }
  return out;
}

/** The shadow root the server writes for `attributes`, normalised. */
function served(attributes: Record<string, string>): string {
  const holder = document.createElement('div');
  holder.innerHTML = renderWalletPayButton(attributes, { earlyPress: false });
  return normal(holder.querySelector('template')!.content.childNodes);
}

afterEach(() => {
  document.documentElement.lang = 'en';
});

describe('view (the payment code\'s template)', () => {
  const cases: [string, Record<string, string>][] = [
    ['one wallet', { environment: 'mobile', 'order-id': 'A-1' }],
    ['two wallets', { environment: 'mobile', 'order-id': 'A-1', wallets: 'esewa khalti', 'wallet-order': 'khalti' }],
    ['Nepali', { environment: 'mobile', 'order-id': 'A-1', lang: 'ne', wallets: 'esewa khalti' }],
    ['the in-app wording', { environment: 'inapp', 'order-id': 'A-1' }],
    ['the desktop offer', { environment: 'desktop', 'order-id': 'A-1', label: 'checkout' }],
    ['disabled, on the desktop', { environment: 'desktop', 'order-id': 'A-1', disabled: '' }],
  ];
  for (const [name, attributes] of cases) {
    it(`draws what the server writes: ${name}`, async () => {
      const el = await fixture<WalletPayButton>(litHtml`<wallet-pay-button></wallet-pay-button>`);
      for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
      // The intent brings the payment code; the template then draws the whole shadow root.
      el.dispatchEvent(new Event('pointerenter'));
      await el.loadsSettled();
      expect('_$litPart$' in el.shadowRoot!, 'the template drew the shadow root').to.equal(true);
      expect(normal(el.shadowRoot!.childNodes)).to.equal(served(attributes));
    });
  }

  it('draws the buttons held on a return address in their place, hidden, as the server writes them', () => {
    const host = { disabled: false, ownerDocument: document } as unknown as ViewHost;
    const link = { settings: { environment: 'desktop' }, press: () => {} } as unknown as PaymentLink;
    const t = LABELS_EN as unknown as StringTable;
    const root = document.createElement('div');
    const region = statusRegion(root);
    const [before, after] = view(host, link, IDLE_STATE, t, [['esewa', 'khalti'], t['button.pay'], true, t['status.verifying'] ?? '', undefined, true], undefined);
    render(before, root, { renderBefore: region });
    render(after, root);
    const buttons = [...root.querySelectorAll<HTMLElement>('button')];
    expect(buttons.map((button) => button.style.visibility)).to.deep.equal(['hidden', 'hidden', 'hidden', 'hidden']);
    const attributes = { environment: 'desktop', 'order-id': 'A-1', wallets: 'esewa khalti' };
    const holder = document.createElement('div');
    holder.innerHTML = renderWalletPayButton(attributes, { url: '/checkout?booking_id=B1', earlyPress: false });
    expect(holder.querySelector('template')!.content.querySelector('style:not(:first-child)')?.textContent).to.contain('visibility:hidden');
    // The same markup but the status: the server cannot know the words the element says while it waits.
    expect(normal(root.childNodes).replace(/>[^<]*<\/div>/, '></div>')).to.equal(served(attributes));
  });

  it('replaces the first module\'s parts but the status region once, at its first draw, and moves focus to the replacement of the focused button', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    try {
      const root = host.attachShadow({ mode: 'open' });
      root.innerHTML = '<button part="button button-khalti">old</button><div role="status">said</div><button part="action retry">old</button>';
      const region = root.querySelector('[role="status"]')!;
      root.querySelector('button')!.focus();
      draw([litHtmlTemplate('new'), []], root, region, {});
      expect(root.querySelectorAll('button').length, 'the old parts are gone').to.equal(1);
      const button = root.querySelector('button')!;
      expect(button.textContent).to.equal('new');
      expect(root.activeElement, 'focus moved to the replacement').to.equal(button);
      expect(root.querySelector('[role="status"]'), 'the status region is kept, in its place').to.equal(region);
      expect(region.textContent).to.equal('said');
      expect(button.nextElementSibling).to.equal(region);
      draw([litHtmlTemplate('again'), litHtmlTemplate('after')], root, region, {});
      expect(root.querySelector('button'), 'later draws keep the nodes').to.equal(button);
      expect(region.nextElementSibling?.textContent, 'what comes after the region is drawn after it').to.equal('after');
      await waitUntil(() => root.activeElement === button, 'focus stays', { timeout: 1000 });
    } finally {
      host.remove();
    }
  });

  it("draws nothing while a first module's button is held down, whose click then reaches it; the next draw replaces it", async () => {
    const host = document.createElement('div');
    document.body.append(host);
    try {
      const root = host.attachShadow({ mode: 'open' });
      root.innerHTML = '<button part="button button-khalti" style="position:fixed;left:10px;top:10px;width:120px;height:44px">old</button><div role="status">said</div>';
      const region = root.querySelector('[role="status"]')!;
      const old = root.querySelector('button')!;
      let clicks = 0;
      old.addEventListener('click', () => (clicks += 1));
      try {
        await sendMouse({ type: 'move', position: [50, 30] });
        await sendMouse({ type: 'down' });
        await waitUntil(() => root.querySelector(':active') === old, 'the held button is :active', { timeout: 1000 });
        draw([litHtmlTemplate('new'), []], root, region, {});
        expect(root.querySelector('button'), 'the held button is kept').to.equal(old);
        await sendMouse({ type: 'up' });
      } finally {
        await resetMouse();
      }
      expect(clicks, 'the press reached the button it went down on').to.equal(1);
      draw([litHtmlTemplate('new'), []], root, region, {});
      expect(root.querySelector('button')?.textContent, 'released, the next draw replaces it').to.equal('new');
    } finally {
      host.remove();
    }
  });
});

/** The element's status region, as its first render draws it, in `root`. */
function statusRegion(root: Element): Element {
  const region = root.appendChild(document.createElement('div'));
  region.id = region.className = 'status';
  region.setAttribute('part', 'status');
  region.setAttribute('role', 'status');
  return region;
}

/** A template of one button named `button-khalti`, saying `words`. */
function litHtmlTemplate(words: string) {
  return html`<button part="button button-khalti">${words}</button>`;
}
