import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import '../../../../src/define.js';
import type { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { STRINGS_EN, STRINGS_NE, isNepali } from '../../../../src/element/i18n/index.js';
import { mount, part, payButton, reach, statusText, toFallback } from '../../../support/element.js';
import { answer, scenario } from '../../../support/proxy.js';

// The app around these WebView pages takes the payment (a shop's own app calls preventDefault()).
document.addEventListener('wallet-pay-webview', (event) => event.preventDefault());

afterEach(async () => {
  sessionStorage.clear();
  document.documentElement.lang = 'en';
  await emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
});

/** Records the element's console warnings until `restore()`. */
function watchWarnings(): string[] & { restore(): void } {
  const original = console.warn;
  const seen = Object.assign([] as string[], { restore: () => void (console.warn = original) });
  console.warn = (...args: unknown[]) => {
    if (String(args[0]).startsWith('<wallet-pay-button>')) seen.push(String(args[0]));
    else original.apply(console, args);
  };
  return seen;
}

function label(el: WalletPayButton): string {
  return part(el, 'button')!.querySelector('slot')!.textContent!.trim();
}

/** WCAG relative luminance of a computed `rgb(...)` colour. */
function luminance(color: string): number {
  const [r, g, b] = color.match(/[\d.]+/g)!.slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Mounts an element that webview-hands over on click (no proxy needed), inside `wrapper` markup. */
async function webviewElement(attrs: { lang?: string; variant?: string } = {}): Promise<WalletPayButton> {
  const el = await fixture<WalletPayButton>(html`<wallet-pay-button environment="webview" order-id="A-1"></wallet-pay-button>`);
  if (attrs.lang) el.setAttribute('lang', attrs.lang);
  if (attrs.variant) el.setAttribute('variant', attrs.variant);
  await el.updateComplete;
  return el;
}

describe('<wallet-pay-button> language', () => {
  it('keeps each Nepali text under its own key (a reordered table would move them)', () => {
    expect(STRINGS_NE['button.pay']).to.equal('वालेटबाट भुक्तानी गर्नुहोस्');
    expect(STRINGS_NE['button.donate']).to.equal('वालेटबाट दान गर्नुहोस्');
    expect(STRINGS_NE['status.cancelled']).to.equal('भुक्तानी रद्द गरियो।');
    expect(STRINGS_NE['action.cancel']).to.equal('भुक्तानी रद्द गर्नुहोस्');
    expect(STRINGS_NE['action.retry']).to.equal('फेरि प्रयास गर्नुहोस्');
    expect(STRINGS_NE['action.check-again']).to.equal('फेरि जाँच गर्नुहोस्');
    expect(STRINGS_NE['error.offline']).to.equal('तपाईं अफलाइन हुनुहुन्छ। इन्टरनेटमा जोडिएर फेरि प्रयास गर्नुहोस्।');
    expect(STRINGS_NE['error.config']).to.equal('यो भुक्तानी बटन ठीकसँग मिलाइएको छैन। कृपया पसललाई सम्पर्क गर्नुहोस्।');
  });

  it('has a Nepali text for every English key, and none left in English', () => {
    expect(Object.keys(STRINGS_NE).sort()).to.deep.equal(Object.keys(STRINGS_EN).sort());
    for (const [key, value] of Object.entries(STRINGS_NE)) {
      expect(value, key).to.match(/[\u0900-\u097F]/);
      expect(value, key).to.not.equal(STRINGS_EN[key as keyof typeof STRINGS_EN]);
    }
  });

  it('picks Nepali for ne and ne-NP, English for anything else', () => {
    expect(isNepali('ne')).to.equal(true);
    expect(isNepali('NE-np')).to.equal(true);
    expect(isNepali('new')).to.equal(false);
    expect(isNepali('fr')).to.equal(false);
    expect(isNepali('')).to.equal(false);
    expect(isNepali(null)).to.equal(false);
  });

  it('follows lang on the element, for the label and the status', async () => {
    const el = await webviewElement({ lang: 'ne' });
    expect(label(el)).to.equal('वालेटबाट भुक्तानी गर्नुहोस्');
    const webview = oneEvent(el, 'wallet-pay-webview');
    payButton(el).click();
    await webview;
    await el.updateComplete;
    expect(statusText(el)).to.equal(STRINGS_NE['status.webview']);
    await expect(el).to.be.accessible();
  });

  it('follows the nearest ancestor with lang, and the element\'s own lang wins over it', async () => {
    const wrapper = await fixture<HTMLElement>(html`<div lang="ne-NP">
      <section><wallet-pay-button id="inherits" environment="webview" order-id="A-1"></wallet-pay-button></section>
      <div lang="en"><wallet-pay-button id="nearer" environment="webview" order-id="A-1"></wallet-pay-button></div>
      <wallet-pay-button id="own" lang="en" environment="webview" order-id="A-1"></wallet-pay-button>
    </div>`);
    const [inherits, nearer, own] = ['inherits', 'nearer', 'own'].map((id) => wrapper.querySelector<WalletPayButton>(`#${id}`)!);
    expect(label(inherits!)).to.equal(STRINGS_NE['button.pay']);
    expect(label(nearer!)).to.equal(STRINGS_EN['button.pay']);
    expect(label(own!)).to.equal(STRINGS_EN['button.pay']);
  });

  it('follows a lang outside the shadow root it sits in (an app built of web components)', async () => {
    const app = await fixture<HTMLElement>(html`<div lang="ne"></div>`);
    const inner = document.createElement('section');
    inner.attachShadow({ mode: 'open' }).innerHTML = '<wallet-pay-button environment="webview" order-id="A-1"></wallet-pay-button>';
    app.attachShadow({ mode: 'open' }).append(inner);
    const el = inner.shadowRoot!.querySelector<WalletPayButton>('wallet-pay-button')!;
    await el.updateComplete;
    expect(label(el)).to.equal(STRINGS_NE['button.pay']);
    inner.lang = 'en';
    el.requestUpdate();
    await el.updateComplete;
    expect(label(el)).to.equal(STRINGS_EN['button.pay']);
  });

  it('follows the document\'s lang when nothing nearer has one', async () => {
    document.documentElement.lang = 'ne';
    const el = await webviewElement();
    expect(label(el)).to.equal(STRINGS_NE['button.pay']);
  });

  it('falls back to English for a language it does not have', async () => {
    const el = await webviewElement({ lang: 'fr-CA' });
    expect(label(el)).to.equal('Pay with wallet');
    const webview = oneEvent(el, 'wallet-pay-webview');
    payButton(el).click();
    await webview;
    await el.updateComplete;
    expect(statusText(el)).to.equal('Continue the payment in the app.');
  });

  it('re-renders when its own lang changes', async () => {
    const el = await webviewElement();
    expect(label(el)).to.equal(STRINGS_EN['button.pay']);
    el.lang = 'ne';
    await el.updateComplete;
    expect(label(el)).to.equal(STRINGS_NE['button.pay']);
  });

  it('takes a partial table over the language\'s own texts', async () => {
    const el = await webviewElement({ lang: 'ne' });
    el.strings = { 'button.pay': 'अहिले तिर्नुहोस्', 'status.webview': 'Continue in the Shop app.' };
    await el.updateComplete;
    expect(label(el)).to.equal('अहिले तिर्नुहोस्');
    const webview = oneEvent(el, 'wallet-pay-webview');
    payButton(el).click();
    await webview;
    await el.updateComplete;
    expect(statusText(el)).to.equal('Continue in the Shop app.');
    el.strings = null;
    await el.updateComplete;
    expect(statusText(el)).to.equal(STRINGS_NE['status.webview']);
  });

  it('shows the fallback panel in Nepali and passes the accessibility audit', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const m = await mount(s, { environment: 'mobile' });
    const { el } = m;
    el.lang = 'ne';
    payButton(el).click();
    await toFallback(m);
    expect(statusText(el)).to.equal(STRINGS_NE['status.app-fallback']);
    expect(part(el, 'panel')!.getAttribute('aria-label')).to.equal(STRINGS_NE['panel.label']);
    expect(part(el, 'open-app')!.textContent!.trim()).to.equal(STRINGS_NE['action.open-app']);
    expect(part(el, 'pay-on-web')!.textContent!.trim()).to.equal(STRINGS_NE['action.pay-on-web']);
    expect(part(el, 'cancel')!.textContent!.trim()).to.equal(STRINGS_NE['action.cancel']);
    await expect(el).to.be.accessible();
  });

  it('shows a request failure and its retry in Nepali, accessibly', async () => {
    const s = await scenario({ book: [{ status: 503, body: { code: 'IP-502', error_message: 'down' } }] });
    const m = await mount(s, { environment: 'desktop' });
    const { el } = m;
    el.lang = 'ne';
    const error = oneEvent(el, 'wallet-pay-error');
    payButton(el).click();
    await error;
    await reach(el, 'error');
    expect(statusText(el)).to.equal(STRINGS_NE['error.http']);
    expect(part(el, 'retry')!.textContent!.trim()).to.equal(STRINGS_NE['action.retry']);
    await expect(el).to.be.accessible();
  });
});

describe('<wallet-pay-button> label variants', () => {
  for (const [name, en, ne] of [
    ['pay', 'Pay with wallet', STRINGS_NE['button.pay']],
    ['checkout', 'Check out with wallet', STRINGS_NE['button.checkout']],
    ['buy', 'Buy with wallet', STRINGS_NE['button.buy']],
    ['donate', 'Donate with wallet', STRINGS_NE['button.donate']],
  ] as const) {
    it(`label="${name}" reads "${en}" in English and its Nepali text in Nepali`, async () => {
      const el = await fixture<WalletPayButton>(html`<wallet-pay-button label=${name}></wallet-pay-button>`);
      expect(label(el)).to.equal(en);
      el.lang = 'ne';
      await el.updateComplete;
      expect(label(el)).to.equal(ne);
    });
  }

  it('a slotted label still wins', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button label="donate">Give ₹500</wallet-pay-button>`);
    expect(payButton(el).querySelector('slot')!.assignedNodes()[0]!.textContent).to.equal('Give ₹500');
  });

  it('a slotted label with inline markup keeps its spaces and stays centred', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button full-width>Pay <b>now</b></wallet-pay-button>`);
    const text = el.firstChild as Text;
    const bold = el.querySelector('b')!;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, 3);
    // The space between "Pay" and "now" is laid out (a flex button would drop it: "Paynow").
    expect(bold.getBoundingClientRect().left - range.getBoundingClientRect().right).to.be.greaterThan(2);
    // The label is centred in a full-width button, both ways.
    const button = payButton(el).getBoundingClientRect();
    const left = range.getBoundingClientRect().left - button.left;
    const right = button.right - bold.getBoundingClientRect().right;
    expect(Math.abs(left - right)).to.be.lessThan(2);
    const middle = (bold.getBoundingClientRect().top + bold.getBoundingClientRect().bottom) / 2;
    expect(Math.abs(middle - (button.top + button.bottom) / 2)).to.be.lessThan(2);
  });

  it('a label it does not know shows the pay text, warns in the console, and never blocks the payment', async () => {
    const warnings = watchWarnings();
    try {
      const el = await fixture<WalletPayButton>(html`<wallet-pay-button label="subscribe" environment="webview"></wallet-pay-button>`);
      // The set-up check comes with the payment code, its sentence with the set-up messages.
      el.dispatchEvent(new Event('pointerenter'));
      await el.loadsSettled();
      expect(label(el)).to.equal('Pay with wallet');
      expect(warnings).to.deep.equal(['<wallet-pay-button>: label="subscribe" is not one of: pay, checkout, buy, donate; the default (pay) is used.']);
      const webview = oneEvent(el, 'wallet-pay-webview');
      payButton(el).click();
      await webview;
    } finally {
      warnings.restore();
    }
  });
});

describe('<wallet-pay-button> look', () => {
  const PAGE_WHITE = 'rgb(255, 255, 255)';

  it('defaults to the dark variant, styled without writing an attribute', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button></wallet-pay-button>`);
    expect(el.variant).to.equal('dark');
    expect(el.hasAttribute('variant')).to.equal(false);
    expect(getComputedStyle(payButton(el)).backgroundColor).to.equal('rgb(74, 31, 122)');
  });

  for (const [variant, page] of [
    ['dark', PAGE_WHITE],
    ['light', 'rgb(17, 17, 17)'],
    ['outline', PAGE_WHITE],
    ['auto', PAGE_WHITE],
  ] as const) {
    it(`variant="${variant}" keeps AA contrast, a 44px height, a visible focus ring, and passes the audit`, async () => {
      const wrapper = await fixture<HTMLElement>(html`<div style="background:${page};padding:8px">
        <wallet-pay-button variant=${variant} environment="webview" order-id="A-1"></wallet-pay-button>
      </div>`);
      const el = wrapper.querySelector('wallet-pay-button')!;
      await el.updateComplete;
      const button = payButton(el);
      const style = getComputedStyle(button);
      const background = style.backgroundColor === 'rgba(0, 0, 0, 0)' ? page : style.backgroundColor;
      expect(contrast(style.color, background)).to.be.at.least(4.5);
      expect(button.getBoundingClientRect().height).to.be.at.least(44);
      // Keyboard focus, as a shopper tabbing to the button: :focus-visible matches.
      await sendKeys({ press: 'Tab' });
      expect(el.shadowRoot!.activeElement).to.equal(button);
      expect(button.matches(':focus-visible')).to.equal(true);
      expect(style.outlineStyle).to.equal('solid');
      expect(parseFloat(style.outlineWidth)).to.be.at.least(2);
      expect(contrast(style.outlineColor, page)).to.be.at.least(3);
      await expect(el).to.be.accessible();
    });
  }

  it('the outline variant draws a border and no fill', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button variant="outline"></wallet-pay-button>`);
    const style = getComputedStyle(payButton(el));
    expect(style.backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    expect(style.borderTopColor).to.equal('rgb(74, 31, 122)');
    expect(style.color).to.equal('rgb(74, 31, 122)');
  });

  it('variant="auto" follows the colour scheme', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button variant="auto"></wallet-pay-button>`);
    expect(getComputedStyle(payButton(el)).backgroundColor).to.equal('rgb(74, 31, 122)');
    await emulateMedia({ colorScheme: 'dark' });
    expect(getComputedStyle(payButton(el)).backgroundColor).to.equal('rgb(255, 255, 255)');
    expect(getComputedStyle(payButton(el)).color).to.equal('rgb(74, 31, 122)');
  });

  it('the light variant keeps its panel actions readable on a dark page', async () => {
    const s = await scenario({ book: [answer.bookApp('B1')] });
    const m = await mount(s, { environment: 'mobile' });
    const { el } = m;
    el.variant = 'light';
    expect(el.getAttribute('variant')).to.equal('light');
    // A dark page sets its own text colour too; the status region inherits it.
    el.parentElement!.style.cssText = 'background: rgb(17, 17, 17); color: #eee';
    payButton(el).click();
    await toFallback(m);
    for (const action of el.shadowRoot!.querySelectorAll('[part~="action"]')) {
      expect(contrast(getComputedStyle(action).color, 'rgb(17, 17, 17)')).to.be.at.least(4.5);
    }
    await expect(el).to.be.accessible();
  });

  it('full-width fills its container', async () => {
    const wrapper = await fixture<HTMLElement>(html`<div style="width:320px"><wallet-pay-button full-width></wallet-pay-button></div>`);
    const el = wrapper.querySelector('wallet-pay-button')!;
    expect(payButton(el).getBoundingClientRect().width).to.equal(320);
    el.fullWidth = false;
    await el.updateComplete;
    expect(el.hasAttribute('full-width')).to.equal(false);
    expect(payButton(el).getBoundingClientRect().width).to.be.below(320);
  });

  it('takes --wallet-pay-* custom properties and ::part() styling', async () => {
    const wrapper = await fixture<HTMLElement>(html`<div>
      <style>
        .themed::part(button) { text-transform: uppercase; }
      </style>
      <wallet-pay-button class="themed" style="--wallet-pay-background:#005a2b;--wallet-pay-color:#fffdf0;--wallet-pay-radius:2px;--wallet-pay-border-color:#003016"></wallet-pay-button>
    </div>`);
    const style = getComputedStyle(payButton(wrapper.querySelector('wallet-pay-button')!));
    expect(style.backgroundColor).to.equal('rgb(0, 90, 43)');
    expect(style.color).to.equal('rgb(255, 253, 240)');
    expect(style.borderTopLeftRadius).to.equal('2px');
    expect(style.borderTopColor).to.equal('rgb(0, 48, 22)');
    expect(style.textTransform).to.equal('uppercase');
  });

  it('animates only when the shopper has not asked for reduced motion', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button></wallet-pay-button>`);
    expect(getComputedStyle(payButton(el)).transitionDuration).to.not.match(/^0s(, 0s)*$/);
    await emulateMedia({ reducedMotion: 'reduce' });
    expect(getComputedStyle(payButton(el)).transitionDuration).to.match(/^0s(, 0s)*$/);
  });

  it('a variant it does not know keeps the default look, warns in the console, and never blocks the payment', async () => {
    const warnings = watchWarnings();
    try {
      const el = await fixture<WalletPayButton>(html`<wallet-pay-button variant="drak" environment="webview"></wallet-pay-button>`);
      // The set-up check comes with the payment code, its sentence with the set-up messages.
      el.dispatchEvent(new Event('pointerenter'));
      await el.loadsSettled();
      expect(getComputedStyle(payButton(el)).backgroundColor).to.equal('rgb(74, 31, 122)');
      expect(warnings).to.deep.equal(['<wallet-pay-button>: variant="drak" is not one of: dark, light, outline, auto; the default (dark) is used.']);
      const webview = oneEvent(el, 'wallet-pay-webview');
      payButton(el).click();
      await webview;
      await el.updateComplete;
      expect(statusText(el)).to.equal(STRINGS_EN['status.webview']);
    } finally {
      warnings.restore();
    }
  });
});
