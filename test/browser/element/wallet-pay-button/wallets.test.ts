/**
 * Two wallets in one element: the server's list (`wallets`) in its order, `wallet-order` first, one
 * native button per wallet with its own part and logo slot, in English and Nepali. A press books
 * with its wallet (the request the proxy received says so), the kept booking remembers it, and while
 * busy the pressed wallet's button shows progress and the others are disabled. One wallet is the one
 * pay button of today.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../../src/define.js';
import type { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import type { KeptBooking } from '../../../../src/core/session-store.js';
import { bookingKey } from '../../../../src/core/settings.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { FAST, part, reach, shadow, statusText } from '../../../support/element.js';
import { answer, recordingNavigator, scenario, type Scenario } from '../../../support/proxy.js';

afterEach(() => sessionStorage.clear());

const WEB = { url: 'https://pay.wallet.test/form', method: 'GET' };

/** An element offering `wallets` (and `order`, when given) on `s`'s endpoint. */
async function mountWallets(s: Scenario, wallets: string | undefined, { order, lang, environment = 'desktop' }: { order?: string; lang?: string; environment?: string } = {}) {
  const nav = recordingNavigator();
  const el = await fixture<WalletPayButton>(html`<wallet-pay-button
    endpoint=${s.endpoint}
    order-id="A-1001"
    environment=${environment}
    phone-handoff="off"
    allowed-hosts="links.wallet.test pay.wallet.test"
    wallets=${wallets ?? (undefined as unknown as string)}
    wallet-order=${order ?? (undefined as unknown as string)}
    lang=${lang ?? (undefined as unknown as string)}
    .navigation=${nav}
    .timings=${FAST}
    .clock=${new FakeClock(Date.now())}
  ><img slot="logo-khalti" alt="" width="20" height="20" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></wallet-pay-button>`);
  withoutTransitions(el);
  return { el, nav };
}

/** The buttons a shopper sees, with their part and name. */
function shown(el: WalletPayButton): Array<[string, string]> {
  return [...shadow(el).querySelectorAll<HTMLButtonElement>('button.button')].filter((button) => !button.hidden).map((button) => [button.getAttribute('part')!, button.textContent!.trim()]);
}

const wallet = (el: WalletPayButton, name: string) => part<HTMLButtonElement>(el, `button-${name}`)!;

/** Accessible in the state shown (the buttons' colour transitions are off: a colour mid-way is no state). */
async function accessible(el: WalletPayButton): Promise<void> {
  await el.updateComplete;
  await expect(el).to.be.accessible();
}

/** The buttons' busy and disabled looks apply at once, as with `prefers-reduced-motion`. */
function withoutTransitions(el: WalletPayButton): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('.button { transition: none }');
  shadow(el).adoptedStyleSheets = [...shadow(el).adoptedStyleSheets, sheet];
}

/**
 * Brings the payment code in now, as the shopper's intent to press does, and waits for its set-up
 * check: the element renders without waiting for it, and loads it at idle otherwise.
 */
async function codeIn(el: WalletPayButton): Promise<void> {
  el.dispatchEvent(new Event('pointerenter'));
  await el.loadsSettled();
}

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

describe('<wallet-pay-button wallets>', () => {
  it("two wallets: one native, named button each, in the server's order, with a logo slot; accessible", async () => {
    const { el } = await mountWallets(await scenario({}), 'esewa khalti');
    expect(shown(el)).to.deep.equal([
      ['button button-esewa', 'Pay with eSewa'],
      ['button button-khalti', 'Pay with Khalti'],
    ]);
    for (const name of ['esewa', 'khalti']) {
      const button = wallet(el, name);
      expect([button.localName, button.type, button.getAttribute('aria-busy'), button.disabled]).to.deep.equal(['button', 'button', 'false', false]);
      expect(button.getBoundingClientRect().height).to.be.at.least(44);
      expect(button.querySelector('slot')!.name).to.equal(`logo-${name}`);
    }
    // The merchant's licensed logo goes where its slot is: in Khalti's button, before the name.
    expect(wallet(el, 'khalti').querySelector('slot')!.assignedElements().map((node) => node.localName)).to.deep.equal(['img']);
    expect(wallet(el, 'esewa').querySelector('slot')!.assignedElements()).to.deep.equal([]);
    await accessible(el);
  });

  it('wallet-order="khalti" puts Khalti first, the rest in the server order', async () => {
    const { el } = await mountWallets(await scenario({}), 'esewa khalti', { order: 'khalti' });
    expect(shown(el).map(([p]) => p)).to.deep.equal(['button button-khalti', 'button button-esewa']);
    el.walletOrder = 'esewa';
    await el.updateComplete;
    expect(shown(el).map(([p]) => p)).to.deep.equal(['button button-esewa', 'button button-khalti']);
    await accessible(el);
  });

  it('a wallet-order name the server does not offer is ignored, with one console warning naming it and the wallets offered', async () => {
    const warnings = watchWarnings();
    try {
      const { el } = await mountWallets(await scenario({}), 'esewa khalti', { order: 'paypal khalti' });
      await codeIn(el);
      expect(shown(el).map(([p]) => p)).to.deep.equal(['button button-khalti', 'button button-esewa']);
      // Another setting read again: the same mistake is not said twice.
      el.setAttribute('failure-url', '/shop/failed');
      await el.updateComplete;
      await el.loadsSettled();
      expect(warnings).to.deep.equal(['<wallet-pay-button>: wallet-order names "paypal", which is not among the wallets offered (esewa, khalti): it is ignored.']);
    } finally {
      warnings.restore();
    }
  });

  it('a wallet the element has no words for is left out, with one console warning naming the wallets it knows', async () => {
    const warnings = watchWarnings();
    try {
      const { el } = await mountWallets(await scenario({}), 'paypal khalti esewa');
      await codeIn(el);
      expect(shown(el).map(([p]) => p)).to.deep.equal(['button button-khalti', 'button button-esewa']);
      expect(warnings).to.deep.equal(['<wallet-pay-button>: wallets names "paypal", which is not a wallet the element knows (esewa, khalti): it is ignored.']);
    } finally {
      warnings.restore();
    }
  });

  it('a press on Khalti books with wallet "khalti": its button shows progress, eSewa\'s is disabled, the kept booking remembers the wallet', async () => {
    const s = await scenario({ book: [{ ...answer.bookWeb('K1', WEB), hold: true }] });
    const { el, nav } = await mountWallets(s, 'esewa khalti');
    wallet(el, 'khalti').click();
    await waitUntil(() => el.paymentState.name === 'booking', `the press did not book (now ${el.paymentState.name})`, { timeout: 4000 });
    await el.updateComplete;
    expect(wallet(el, 'khalti').getAttribute('aria-busy')).to.equal('true');
    expect(wallet(el, 'khalti').disabled).to.equal(false);
    expect(wallet(el, 'esewa').disabled).to.equal(true);
    expect(wallet(el, 'esewa').getAttribute('aria-busy')).to.equal('false');
    expect(statusText(el)).to.equal('Preparing your payment…');
    await accessible(el);
    // A press on the other wallet meanwhile is not a second booking.
    wallet(el, 'esewa').click();
    await s.release();
    await reach(el, 'redirecting');
    expect((await s.received()).book.map((request) => request.body)).to.deep.equal([{ channel: 'web', order: { id: 'A-1001' }, wallet: 'khalti' }]);
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: WEB.url }]);
    const key = bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-1001' });
    expect((JSON.parse(sessionStorage.getItem(key)!) as KeptBooking).settings.wallet).to.equal('khalti');
    await accessible(el);
  });

  it("back with a kept Khalti booking: Khalti's button shows the check under way, eSewa's is disabled; the panel then works as today", async () => {
    const s = await scenario({ status: [{ ...answer.status('K1', 'PENDING'), hold: true }] });
    const key = bookingKey(new URL(s.endpoint, location.href).href, { id: 'A-1001' });
    const { el: first } = await mountWallets(s, 'esewa khalti');
    const settings = { endpoint: new URL(s.endpoint, location.href).href, order: { id: 'A-1001' }, environment: 'desktop', successUrl: null, failureUrl: null, pageUrl: location.href, baseUrl: document.baseURI, allowedHosts: ['links.wallet.test', 'pay.wallet.test'], returnOrigins: [], bookTimeoutMs: 3500, storageKey: key, wallet: 'khalti' };
    first.remove();
    const kept: KeptBooking = { booking_id: 'K1', correlation_id: 'c-K1', channel: 'web', idempotency_key: 'k-1', started_at: Date.now(), web_payment: { url: WEB.url, method: 'GET' }, settings: settings as KeptBooking['settings'] };
    sessionStorage.setItem(key, JSON.stringify(kept));
    const { el } = await mountWallets(s, 'esewa khalti');
    await waitUntil(() => el.paymentState.name === 'verifying', `the kept booking was not checked (now ${el.paymentState.name})`, { timeout: 4000 });
    await el.updateComplete;
    expect([wallet(el, 'khalti').getAttribute('aria-busy'), wallet(el, 'esewa').disabled]).to.deep.equal(['true', true]);
    await accessible(el);
    await s.release();
    await reach(el, 'pending');
    expect([wallet(el, 'khalti').getAttribute('aria-busy'), wallet(el, 'esewa').disabled, wallet(el, 'khalti').disabled]).to.deep.equal(['false', false, false]);
    expect(part(el, 'cancel')).to.not.equal(null);
    await accessible(el);
  });

  it('a refused booking: the error shows with its way forward, and both buttons are ready again', async () => {
    const s = await scenario({ book: [answer.failure(503, 'IP-503', 'unavailable')] });
    const { el } = await mountWallets(s, 'esewa khalti');
    wallet(el, 'esewa').click();
    await reach(el, 'error');
    expect((await s.received()).book[0]!.body).to.deep.equal({ channel: 'web', order: { id: 'A-1001' }, wallet: 'esewa' });
    expect([wallet(el, 'esewa').disabled, wallet(el, 'khalti').disabled, wallet(el, 'esewa').getAttribute('aria-busy')]).to.deep.equal([false, false, 'false']);
    expect(statusText(el)).to.not.equal('');
    await accessible(el);
  });

  it('one wallet is the one pay button of today, and its press names no wallet', async () => {
    const s = await scenario({ book: [answer.failure(422, 'IP-424', 'unknown order')] });
    const { el } = await mountWallets(s, 'esewa');
    const { el: today } = await mountWallets(await scenario({}), undefined);
    expect(shadow(el).innerHTML).to.equal(shadow(today).innerHTML);
    expect(shown(el)).to.deep.equal([['button', 'Pay with wallet']]);
    part<HTMLButtonElement>(el, 'button')!.click();
    await reach(el, 'error');
    expect((await s.received()).book.map((request) => request.body)).to.deep.equal([{ channel: 'web', order: { id: 'A-1001' } }]);
    await accessible(el);
  });

  it('speaks Nepali on a Nepali page', async () => {
    const { el } = await mountWallets(await scenario({}), 'esewa khalti', { lang: 'ne' });
    expect(shown(el).map(([, name]) => name)).to.deep.equal(['इसेवाबाट भुक्तानी गर्नुहोस्', 'खल्तीबाट भुक्तानी गर्नुहोस्']);
    el.lang = 'en';
    await el.updateComplete;
    expect(shown(el).map(([, name]) => name)).to.deep.equal(['Pay with eSewa', 'Pay with Khalti']);
    await accessible(el);
  });

  it('the wallets attribute removed: the one pay button again', async () => {
    const { el } = await mountWallets(await scenario({}), 'esewa khalti');
    el.removeAttribute('wallets');
    await el.updateComplete;
    expect(shown(el)).to.deep.equal([['button', 'Pay with wallet']]);
    expect(shadow(el).querySelectorAll('button.button').length).to.equal(1);
  });
});
