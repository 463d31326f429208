/**
 * `update()` only turns state into markup, as `LitElement.update()` does: no event is dispatched and
 * no load is started from it (the `shown` event follows the first render, in `firstUpdated`; a
 * language that became Nepali loads its texts in `willUpdate`). And a settled element (its payment
 * code in) draws nothing again when the shopper hovers, focuses or touches it.
 *
 * Spies wrap the element's `update()`, `dispatchEvent` and `Load.ask` (every chunk's load goes through
 * it) on their prototypes, and note what happens while an `update()` runs.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../../src/define.js';
import { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import { Load } from '../../../../src/element/load.js';
import { STRINGS_NE } from '../../../../src/element/i18n/index.js';
import { FAST, reach, shadow } from '../../../support/element.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { answer, recordingNavigator, scenario } from '../../../support/proxy.js';

type Updating = { update(changed: Map<PropertyKey, unknown>): void };
const proto = WalletPayButton.prototype as unknown as Updating;
const realUpdate = proto.update;
const realDispatch = EventTarget.prototype.dispatchEvent;
const realAsk = Load.prototype.ask;

/** What the spies saw: updates run, and events and loads inside and outside them. */
const seen = { updates: 0, depth: 0, eventsInUpdate: [] as string[], events: [] as string[], loadsInUpdate: 0, loads: 0 };

beforeEach(() => {
  Object.assign(seen, { updates: 0, depth: 0, eventsInUpdate: [], events: [], loadsInUpdate: 0, loads: 0 });
  proto.update = function (this: Updating, changed) {
    seen.updates++;
    seen.depth++;
    try {
      realUpdate.call(this, changed);
    } finally {
      seen.depth--;
    }
  };
  EventTarget.prototype.dispatchEvent = function (this: EventTarget, event: Event) {
    if (event.type.startsWith('wallet-pay-')) (seen.depth ? seen.eventsInUpdate : seen.events).push(event.type);
    return realDispatch.call(this, event);
  };
  Load.prototype.ask = function <T>(this: Load<T>, load: () => Promise<T>) {
    if (seen.depth) seen.loadsInUpdate++;
    else seen.loads++;
    return realAsk.call(this, load) as Promise<T>;
  };
});

afterEach(() => {
  proto.update = realUpdate;
  EventTarget.prototype.dispatchEvent = realDispatch;
  Load.prototype.ask = realAsk;
  sessionStorage.clear();
});

/** Two animation frames: anything an event scheduled has had its chance to update. */
const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));

describe('<wallet-pay-button> update()', () => {
  it('dispatches no event and starts no load through a whole web payment; shown comes after the first render', async () => {
    const s = await scenario({ book: [answer.bookWeb('U1', { url: 'https://pay.wallet.test/form', method: 'GET' })] });
    const nav = recordingNavigator();
    const shown = new Promise<Event>((resolve) => document.addEventListener('wallet-pay-shown', resolve, { once: true }));
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button
      endpoint=${s.endpoint}
      order-id="A-1001"
      environment="inapp"
      allowed-hosts="pay.wallet.test"
      .navigation=${nav}
      .timings=${FAST}
      .clock=${new FakeClock(Date.now())}
    ></wallet-pay-button>`);
    await shown;
    shadow(el).querySelector<HTMLButtonElement>('button.button')!.click();
    await reach(el, 'redirecting');
    await el.loadsSettled();
    expect(seen.eventsInUpdate, 'events dispatched from update()').to.deep.equal([]);
    expect(seen.loadsInUpdate, 'loads started from update()').to.equal(0);
    expect(seen.updates, 'the element updated').to.be.greaterThan(2);
    expect(seen.events, 'the spy sees the events').to.include.members(['wallet-pay-shown', 'wallet-pay-pressed', 'wallet-pay-booked', 'wallet-pay-left']);
    expect(seen.loads, 'the spy sees the loads').to.be.greaterThan(0);
  });

  it('a language that became Nepali after the payment was built loads its texts outside update()', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button environment="webview" order-id="A-1"></wallet-pay-button>`);
    const webview = oneEvent(el, 'wallet-pay-webview');
    shadow(el).querySelector<HTMLButtonElement>('button.button')!.click();
    await webview;
    await el.loadsSettled();
    expect(shadow(el).querySelector('[role="status"]')!.textContent!.trim(), 'an English status first').to.not.equal('');
    const before = seen.loads;
    el.lang = 'ne';
    await el.loadsSettled();
    const status = () => shadow(el).querySelector('[role="status"]')!.textContent!.trim();
    await waitUntil(() => (Object.values(STRINGS_NE) as string[]).includes(status()), `the status never turned Nepali: ${status()}`, { timeout: 5000 });
    expect(seen.loadsInUpdate, 'loads started from update()').to.equal(0);
    expect(seen.eventsInUpdate, 'events dispatched from update()').to.deep.equal([]);
    expect(seen.loads, 'the Nepali texts were asked for').to.be.greaterThan(before);
  });
});

describe('<wallet-pay-button> settled', () => {
  for (const lang of ['en', 'ne']) {
    it(`draws nothing again when hovered, focused or touched once its code is in (${lang})`, async () => {
      const el = await fixture<WalletPayButton>(
        html`<wallet-pay-button lang=${lang} environment="desktop" order-id="A-1" endpoint="/api/pay" wallets="esewa khalti"></wallet-pay-button>`,
      );
      const intent = () => {
        el.dispatchEvent(new Event('pointerenter'));
        shadow(el).querySelector<HTMLButtonElement>('[part~="button-khalti"]')!.focus();
        el.dispatchEvent(new Event('touchstart'));
      };
      expect(seen.updates, 'the counter sees the first render').to.be.greaterThan(0);
      // The first intent brings the code (and, on a Nepali page, its texts), unless an earlier element did.
      intent();
      await el.loadsSettled();
      shadow(el).querySelector<HTMLButtonElement>('[part~="button-khalti"]')!.blur();
      await el.loadsSettled();
      await frames();
      const settled = seen.updates;
      for (let round = 0; round < 3; round++) {
        intent();
        shadow(el).querySelector<HTMLButtonElement>('[part~="button-khalti"]')!.blur();
        el.dispatchEvent(new Event('pointerleave'));
      }
      await el.loadsSettled();
      await frames();
      expect(seen.updates - settled, 'updates after hover, focus and touch of a settled element').to.equal(0);
      expect(el.isUpdatePending).to.equal(false);
    });
  }
});
