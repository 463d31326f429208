/**
 * A Nepali page whose payment code does not come: the words for the failed load come with the Nepali
 * texts' own chunk (not the first module), so they are Nepali when that chunk came, and English, with
 * the Nepali way forward, when it did not come either. Each page is a frame of its own (its own module
 * map) whose import map sends the chunks that must fail to a port nothing listens on.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { LABELS_EN, LABELS_NE, STRINGS_NE } from '../../../../src/element/i18n/index.js';
import type { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { openFrame } from '../../../support/frame-page.js';

afterEach(() => {
  for (const frame of document.querySelectorAll('iframe[data-nepali-failed-load]')) frame.remove();
});

/** Where a chunk goes that must not load: a refused connection, a dropped load in every engine. */
const NOWHERE = 'http://127.0.0.1:9/nowhere.js';

/** A Nepali page in a frame whose import map sends each of `failing` (paths under /src/element/, without extension) nowhere. */
async function nepaliPage(failing: readonly string[]): Promise<WalletPayButton> {
  const urls = failing.flatMap((path) => ['js', 'ts'].map((ext) => new URL(`/src/element/${path}.${ext}`, location.href).href));
  const map = { imports: Object.fromEntries(urls.map((url) => [url, NOWHERE])) };
  const frame = await openFrame(
    `<!doctype html><html lang="ne"><head><meta charset="utf-8">
<script type="importmap">${JSON.stringify(map)}</script>
<script type="module">await import('${new URL('/src/define.ts', location.href).href}'); window.__definedAt = 1;</script>
</head><body><wallet-pay-button endpoint="/api/pay" order-id="A-1001" environment="desktop" phone-handoff="off" allow-framed></wallet-pay-button></body></html>`,
    'nepaliFailedLoad',
    'width: 600px; height: 300px; border: 0',
  );
  const win = frame.contentWindow as Window & { __definedAt?: number };
  await waitUntil(() => win.__definedAt !== undefined, 'the element script never ran in the frame', { timeout: 6000 });
  const el = frame.contentDocument!.querySelector('wallet-pay-button') as WalletPayButton;
  await el.updateComplete;
  return el;
}

const status = (el: WalletPayButton) => el.shadowRoot!.querySelector('[part~="status"]')!.textContent!.trim();
const retry = (el: WalletPayButton) => el.shadowRoot!.querySelector('[part~="retry"]')?.textContent?.trim();

describe('<wallet-pay-button lang="ne"> whose payment code does not come', function () {
  this.timeout(15_000);

  it('says so in Nepali once the Nepali texts are in, with the Nepali "Try again"', async () => {
    const el = await nepaliPage(['payment']);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="button"]')!.click();
    await el.loadsSettled();
    expect(el.paymentState.error?.kind).to.equal('network');
    expect(status(el)).to.equal(STRINGS_NE['error.network']);
    expect(retry(el)).to.equal(LABELS_NE['action.retry']);
  });

  it('says so in English when the Nepali texts did not come either, with the Nepali "Try again"', async () => {
    const el = await nepaliPage(['payment', 'i18n/ne/texts']);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="button"]')!.click();
    await el.loadsSettled();
    expect(el.paymentState.error?.kind).to.equal('network');
    expect(status(el), 'English stands in rather than nothing').to.equal(LABELS_EN['error.network']);
    expect(retry(el), 'the way forward').to.equal(LABELS_NE['action.retry']);
    // The button stays Nepali: only the words for the failed load come with the Nepali chunk.
    expect(el.shadowRoot!.querySelector('[part="button"]')!.textContent!.trim()).to.equal(LABELS_NE['button.pay']);
  });
});
