/**
 * `renderWalletPayButton` in Node (no DOM): the tag with its attributes escaped, its first render as
 * Declarative Shadow DOM with the element's styles, the offer to pay on the phone by the element's own
 * rule, the language, the nonce and the early-press script. How a browser paints it and how the
 * element adopts it: test/browser/element/server-render.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderWalletPayButton } from '../../../src/index.js';
import { styles } from '../../../src/element/styles.js';

const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const WEBVIEW_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 7; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0 Mobile Safari/537.36';

test('writes the tag with escaped attributes and a declarative shadow root holding the styles, the button and the status line', () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  const html = renderWalletPayButton({ endpoint: '/api/pay', 'order-id': 'A-"1<2>&', 'allow-framed': true, disabled: false, 'booking-timeout': 3500, label: undefined });
  assert.match(html, /^<wallet-pay-button endpoint="\/api\/pay" order-id="A-&quot;1&lt;2&gt;&amp;" allow-framed booking-timeout="3500"><template shadowrootmode="open">/);
  assert.ok(html.includes(`<style>${styles.cssText}</style>`), 'the element\'s own styles');
  assert.match(html, /<button part="button" class="button" type="button" aria-busy="false" aria-describedby="status"><slot>Pay with wallet<\/slot><\/button>/);
  assert.match(html, /<div id="status" part="status" class="status" role="status"><\/div><\/template><\/wallet-pay-button><script>/);
  assert.doesNotMatch(html, / disabled/);
});

test('an attribute name that is not a lower-case HTML name is a TypeError naming it', () => {
  assert.throws(() => renderWalletPayButton({ orderId: 'A-1' }), { name: 'TypeError', message: /"orderId" is not an attribute of <wallet-pay-button>/ });
  assert.throws(() => renderWalletPayButton({ 'x" onclick="alert(1)': 'y' }), TypeError);
});

test('only the element\'s own attributes and a few global ones are written: on… handlers, style and unknown names are refused', () => {
  for (const name of ['onclick', 'onmouseover', 'style', 'srcdoc', 'formaction', 'href', 'order_id']) {
    assert.throws(() => renderWalletPayButton({ endpoint: '/api/pay', [name]: 'x' }), { name: 'TypeError', message: new RegExp(`"${name}" is not an attribute of <wallet-pay-button>`) }, name);
  }
  const html = renderWalletPayButton({ id: 'pay', class: 'wide', dir: 'ltr', title: 'Pay', 'data-sku': '7', 'aria-label': 'Pay now', 'success-url': '/ok' });
  assert.match(html, /^<wallet-pay-button id="pay" class="wide" dir="ltr" title="Pay" data-sku="7" aria-label="Pay now" success-url="\/ok">/);
});

test('the offer to pay on the phone is rendered when the element will show it: desktop, by environment or by user agent', () => {
  const offer = /part="action pay-on-phone"[^>]*>Pay with the app on your phone<\/button>/;
  assert.match(renderWalletPayButton({ environment: 'desktop' }), offer);
  assert.match(renderWalletPayButton({}, { userAgent: DESKTOP_UA }), offer);
  assert.match(renderWalletPayButton({ environment: 'auto' }, { userAgent: DESKTOP_UA }), offer);
  // A phone's user agent may be a tablet wider than 768 px, where the element offers the hand-off: the
  // offer is written and hidden on a narrow touch screen by the element's own width rule.
  const phone = renderWalletPayButton({}, { userAgent: PHONE_UA });
  assert.match(phone, offer);
  assert.match(phone, /<style>@media \(max-width: 768\.98px\) and \(any-pointer: coarse\)\{\[part~="pay-on-phone"\]\{display:none\}\}<\/style>/);
  assert.doesNotMatch(renderWalletPayButton({}, { userAgent: DESKTOP_UA }), /@media \(max-width: 768/);
  assert.doesNotMatch(renderWalletPayButton({}, { userAgent: WEBVIEW_UA }), offer);
  assert.doesNotMatch(renderWalletPayButton({}), offer, 'without a user agent, auto renders no offer');
  assert.doesNotMatch(renderWalletPayButton({ environment: 'mobile' }, { userAgent: DESKTOP_UA }), offer);
  assert.doesNotMatch(renderWalletPayButton({ environment: 'desktop', 'phone-handoff': 'off' }), offer);
  assert.match(renderWalletPayButton({ environment: 'desktop', disabled: true }), /class="button" type="button" disabled[^>]*>[\s\S]*class="action" type="button" disabled>/);
});

test('label and language pick the texts the element shows; an unknown label is the pay label', () => {
  assert.match(renderWalletPayButton({ label: 'donate' }), /<slot>Donate with wallet<\/slot>/);
  assert.match(renderWalletPayButton({ label: 'nonsense' }), /<slot>Pay with wallet<\/slot>/);
  assert.match(renderWalletPayButton({ lang: 'ne' }), /<slot>वालेटबाट भुक्तानी गर्नुहोस्<\/slot>/);
  assert.match(renderWalletPayButton({ environment: 'desktop' }, { lang: 'ne-NP' }), /<slot>वालेटबाट भुक्तानी गर्नुहोस्<\/slot>[\s\S]*>फोनको एपबाट भुक्तानी गर्नुहोस्</);
});

test('a nonce goes on the inline style and script; earlyPress: false leaves the script out', () => {
  const html = renderWalletPayButton({}, { nonce: 'n0"nce' });
  assert.match(html, /<style nonce="n0&quot;nce">/);
  assert.match(html, /<script nonce="n0&quot;nce">\(function\(d\)\{/);
  assert.match(html, /data-early-press/);
  assert.doesNotMatch(renderWalletPayButton({}, { earlyPress: false }), /<script/);
});

test("in someone else's in-app browser the button reads \"Pay on the web\", in either language, whatever its label", async () => {
  const { IN_APP_USER_AGENTS } = await import('../../fixtures/user-agents.js');
  const web = /<slot>Pay on the web<\/slot>/;
  for (const { app, platform, userAgent } of IN_APP_USER_AGENTS) {
    const html = renderWalletPayButton({ label: 'checkout' }, { userAgent });
    assert.match(html, web, `${app} on ${platform}`);
    assert.doesNotMatch(html, /part="action pay-on-phone"/, `${app} on ${platform}: no offer to pay on the phone`);
  }
  assert.match(renderWalletPayButton({ environment: 'inapp' }), web);
  assert.match(renderWalletPayButton({ environment: 'inapp', lang: 'ne' }), /<slot>वेबमा भुक्तानी गर्नुहोस्<\/slot>/);
  assert.match(renderWalletPayButton({}, { userAgent: IN_APP_USER_AGENTS[0]!.userAgent, lang: 'ne-NP' }), /<slot>वेबमा भुक्तानी गर्नुहोस्<\/slot>/);
  // The environment the page forces wins over the user agent, both ways.
  assert.match(renderWalletPayButton({ environment: 'mobile' }, { userAgent: IN_APP_USER_AGENTS[0]!.userAgent }), /<slot>Pay with wallet<\/slot>/);
  for (const userAgent of [PHONE_UA, WEBVIEW_UA, DESKTOP_UA]) assert.doesNotMatch(renderWalletPayButton({}, { userAgent }), web, userAgent);
});

test("on a provider's return address the buttons are written held (in place, invisible), as the element holds them until /order answers; elsewhere not", () => {
  const HELD = '.button,[part~="pay-on-phone"]{visibility:hidden}';
  const attributes = { endpoint: '/api/pay', 'order-id': 'A-1001', wallets: 'esewa khalti' };
  for (const url of ['/?checkout=c1&item=A-1001&booking_id=BK-1&status=SUCCESS', '/shop/return?pidx=HT6o6PEZRWFJ5ygavzHWd5&status=Completed', 'https://shop.example/?booking_id=BK-1']) {
    const html = renderWalletPayButton(attributes, { url, nonce: 'n0' });
    assert.ok(html.includes(`<style nonce="n0">${HELD}</style>`), `held at ${url}, under the page's nonce`);
    assert.equal((html.match(/part="button button-(esewa|khalti)"/g) ?? []).length, 2, 'the buttons are still written, in place');
  }
  for (const url of ['/?checkout=c1&item=A-1001', '/?status=SUCCESS', '/?note=booking_id', '/#booking_id=BK-1']) {
    assert.ok(!renderWalletPayButton(attributes, { url }).includes(HELD), `not held at ${url}`);
  }
  assert.ok(!renderWalletPayButton(attributes).includes(HELD), 'not held without the address');
});

test("the server's return address reading and the element's are the same", async () => {
  const { isReturnAddress } = await import('../../../src/element/server-render.js');
  const { isReturnPage } = await import('../../../src/core/kept.js');
  for (const search of ['', '?booking_id=B', '?pidx=P&status=Completed', '?bookingid=B', '?data=eyJ9', '?x=1&booking_id=', '?status=SUCCESS']) {
    const win = { location: { search } } as unknown as Window;
    assert.equal(isReturnAddress(`/${search}`), isReturnPage(win), search);
  }
});
