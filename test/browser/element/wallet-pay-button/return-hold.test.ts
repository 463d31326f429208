/**
 * The way back in another browser: the page is the return address (the kit's `booking_id`, or
 * Khalti's `pidx`, in its query) and the tab kept nothing. The pay buttons wait, hidden in their
 * place, while `/order` is asked: a paid order never shows one, not for a single frame; an unpaid
 * order, or a server that does not answer, shows them where they were held, so the status region
 * does not move. Watched on every animation frame from before the element is created.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../../src/define.js';
import type { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { FAST, reach, shadow, statusText } from '../../../support/element.js';
import { answer, recordingNavigator, scenario, type Scenario, type Step } from '../../../support/proxy.js';

const originalUrl = location.href;
/** `/order`'s answers, each held until the test has seen the hold and releases it (`s.release()`). */
const paid: Step = { body: { code: 'IP-201', message: 'Order status fetched', data: { paid: true } }, hold: true };
const unpaid: Step = { body: { code: 'IP-201', message: 'Order status fetched', data: { paid: false } }, hold: true };

afterEach(() => {
  history.replaceState(history.state, '', originalUrl);
  sessionStorage.clear();
});

/** This page becomes the return address `query` names (its parameters added to the page's own). */
function arriveAt(query: string): void {
  const url = new URL(location.href);
  for (const [name, value] of new URLSearchParams(query)) url.searchParams.set(name, value);
  history.replaceState(history.state, '', url.href);
}

/** Whether a button of the element's shadow root can be seen and pressed: shown, and not hidden in its place. */
const visible = (button: HTMLElement) => getComputedStyle(button).display !== 'none' && getComputedStyle(button).visibility !== 'hidden';

/** Records, on every animation frame until `stop()`, the pay buttons (and the phone offer) a shopper could see. */
function watchFrames(): { seen: string[]; frames: number; stop(): void } {
  const watch = { seen: [] as string[], frames: 0, stopped: false, stop: () => void (watch.stopped = true) };
  const tick = () => {
    if (watch.stopped) return;
    watch.frames++;
    for (const el of document.querySelectorAll('wallet-pay-button')) {
      for (const button of el.shadowRoot?.querySelectorAll<HTMLElement>('button.button, [part~="pay-on-phone"]') ?? []) {
        if (visible(button)) watch.seen.push(button.textContent!.trim());
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return watch;
}

/** An element on `s`'s endpoint for order A-1001 (`wallets` and `lang` when given). */
async function mountOn(s: Scenario, { wallets, lang, environment = 'desktop' }: { wallets?: string; lang?: string; environment?: string } = {}): Promise<WalletPayButton> {
  return fixture<WalletPayButton>(html`<wallet-pay-button
    endpoint=${s.endpoint}
    order-id="A-1001"
    environment=${environment}
    allowed-hosts="links.wallet.test pay.wallet.test"
    success-url="/shop/done"
    wallets=${wallets ?? (undefined as unknown as string)}
    lang=${lang ?? (undefined as unknown as string)}
    .navigation=${recordingNavigator()}
    .timings=${FAST}
    .clock=${new FakeClock(Date.now())}
  ></wallet-pay-button>`);
}

/** Two animation frames: what the last change drew has been painted. */
const painted = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));

describe('<wallet-pay-button> a paid order on its return address, in a tab that kept nothing', () => {
  for (const [name, query, wallets] of [
    ["the kit's return (booking_id, status)", '?booking_id=B9&status=SUCCESS', undefined],
    ["Khalti's return (pidx)", '?pidx=bZQLD9wRVWo4CdESSfuSsB&status=Completed&purchase_order_id=A-1001', undefined],
    ['two wallets', '?booking_id=B9&status=SUCCESS', 'esewa khalti'],
  ] as const) {
    it(`${name}: no pay button in any frame, "Checking your payment…" while /order is asked, then paid`, async () => {
      arriveAt(query);
      const s = await scenario({ order: [paid] });
      const watch = watchFrames();
      try {
        const el = await mountOn(s, { wallets });
        await waitUntil(() => statusText(el) === 'Checking your payment…', `the hold said nothing (status "${statusText(el)}")`, { timeout: 8000 });
        await painted();
        await s.release();
        await reach(el, 'paid');
        await painted();
        expect(statusText(el)).to.equal('Payment received, thank you.');
        await expect(el).to.be.accessible();
      } finally {
        watch.stop();
      }
      expect(watch.frames, 'frames were watched').to.be.greaterThan(2);
      expect(watch.seen, 'a pay button was visible').to.deep.equal([]);
      expect((await s.received()).book).to.have.length(0);
    });
  }

  it('says it in Nepali on a Nepali page', async () => {
    arriveAt('?booking_id=B9&status=SUCCESS');
    const s = await scenario({ order: [paid] });
    const el = await mountOn(s, { lang: 'ne' });
    await waitUntil(() => statusText(el) === 'तपाईंको भुक्तानी जाँच गर्दैछौं…', `no Nepali status (now "${statusText(el)}")`, { timeout: 8000 });
    await s.release();
    await reach(el, 'paid');
  });
});

describe('<wallet-pay-button> a return address whose order is not paid: the buttons show, never a dead end', () => {
  for (const [name, step] of [
    ['the order is not paid', unpaid],
    ['/order fails (503)', { ...answer.failure(503, 'IP-503', 'unavailable'), hold: true }],
    ['a server without /order (404)', { ...answer.failure(404, 'IP-404', 'No such endpoint'), hold: true }],
  ] as const) {
    it(`${name}: the buttons show where they were held, the status region does not move`, async () => {
      arriveAt('?booking_id=B9&status=PENDING');
      const s = await scenario({ order: [step] });
      const el = await mountOn(s, { wallets: 'esewa khalti' });
      const region = shadow(el).querySelector('[role="status"]')!;
      await waitUntil(() => statusText(el) === 'Checking your payment…', `the hold said nothing (status "${statusText(el)}")`, { timeout: 8000 });
      const held = region.getBoundingClientRect().y;
      const buttons = [...shadow(el).querySelectorAll<HTMLButtonElement>('button.button')].filter((button) => !button.hidden);
      expect(buttons.map(visible)).to.deep.equal([false, false]);
      await s.release();
      await waitUntil(() => buttons.every(visible), 'the buttons never showed', { timeout: 8000 });
      await painted();
      expect(statusText(el)).to.equal('');
      expect(region.getBoundingClientRect().y).to.equal(held);
      expect(el.paymentState.name).to.equal('idle');
      await expect(el).to.be.accessible();
    });
  }

  it('a lookalike parameter is no return address: the button shows from the first render', async () => {
    arriveAt('?not_booking_id=B9&xpidx=1&note=booking_id%3DB9');
    const s = await scenario({ order: [{ ...unpaid, hold: false }] });
    const el = await mountOn(s);
    expect(visible(shadow(el).querySelector<HTMLButtonElement>('button.button')!)).to.equal(true);
    expect(statusText(el)).to.equal('');
  });
});
