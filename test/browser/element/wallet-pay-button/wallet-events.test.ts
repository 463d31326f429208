/**
 * The funnel and outcome events name the wallet: the one pressed (two wallets or more), else the one
 * the shop's server answered in the booking, which the kept booking carries to the way back.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../../src/define.js';
import type { WalletPayButton } from '../../../../src/element/wallet-pay-button.js';
import type { WalletPayEvent } from '../../../../src/element/events.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { FAST, part, reach, toFallback } from '../../../support/element.js';
import { answer, recordingNavigator, scenario, type Scenario, type Step } from '../../../support/proxy.js';

afterEach(() => sessionStorage.clear());

/** A booking answered with the wallet the server chose (one wallet offered, none pressed). */
const bookAppWith = (bookingId: string, wallet: string): Step => {
  const step = answer.bookApp(bookingId);
  const body = step.body as { data: Record<string, unknown> };
  return { ...step, body: { ...body, data: { ...body.data, wallet } } };
};

/** An element on `s`'s endpoint (`wallets` when given) that records every event it fires. */
async function mountRecording(s: Scenario, wallets?: string) {
  const clock = new FakeClock(Date.now());
  const nav = recordingNavigator();
  const el = await fixture<WalletPayButton>(html`<wallet-pay-button
    endpoint=${s.endpoint}
    order-id="A-1001"
    environment="mobile"
    allowed-hosts="links.wallet.test pay.wallet.test"
    wallets=${wallets ?? (undefined as unknown as string)}
    .navigation=${nav}
    .timings=${FAST}
    .clock=${clock}
  ></wallet-pay-button>`);
  const events: Array<[string, Record<string, unknown>]> = [];
  for (const type of ['pressed', 'booked', 'success', 'failure', 'cancel']) {
    el.addEventListener(`wallet-pay-${type}`, (event) => events.push([type, (event as WalletPayEvent).detail as Record<string, unknown>]));
  }
  return { el, nav, clock, events, wallet: (type: string) => events.find(([name]) => name === type)?.[1].wallet };
}

describe('<wallet-pay-button> events name the wallet', () => {
  it('a press on Khalti of two wallets: pressed and booked carry wallet "khalti"', async () => {
    const s = await scenario({ book: [answer.bookApp('K1')] });
    const m = await mountRecording(s, 'esewa khalti');
    part<HTMLButtonElement>(m.el, 'button-khalti')!.click();
    await reach(m.el, 'opening-app');
    expect(m.events.map(([type]) => type)).to.deep.equal(['pressed', 'booked']);
    expect([m.wallet('pressed'), m.wallet('booked')]).to.deep.equal(['khalti', 'khalti']);
  });

  it("one wallet: pressed names none, booked and the outcome on the way back name the server's", async () => {
    const s = await scenario({ book: [bookAppWith('E1', 'esewa')], status: [answer.status('E1', 'SUCCESS')] });
    const first = await mountRecording(s);
    part<HTMLButtonElement>(first.el, 'button')!.click();
    await reach(first.el, 'opening-app');
    expect(first.events.find(([type]) => type === 'pressed')![1]).to.not.have.property('wallet');
    expect(first.wallet('booked')).to.equal('esewa');
    first.el.remove();
    // Back from the app in a page of its own: the kept booking names the wallet of the success.
    const back = await mountRecording(s);
    await reach(back.el, 'done');
    expect(back.events.map(([type]) => type)).to.deep.equal(['success']);
    expect(back.wallet('success')).to.equal('esewa');
  });

  it('a payment cancelled here: the cancel and failure events carry the pressed wallet', async () => {
    const s = await scenario({ book: [answer.bookApp('K2')], cancel: [answer.cancelled('K2')] });
    const m = await mountRecording(s, 'esewa khalti');
    part<HTMLButtonElement>(m.el, 'button-esewa')!.click();
    await toFallback(m);
    const cancelled = oneEvent(m.el, 'wallet-pay-failure');
    part<HTMLButtonElement>(m.el, 'cancel')!.click();
    await cancelled;
    await waitUntil(() => m.events.some(([type]) => type === 'cancel'), 'no cancel event', { timeout: 8000 });
    expect([m.wallet('cancel'), m.wallet('failure')]).to.deep.equal(['esewa', 'esewa']);
  });
});
