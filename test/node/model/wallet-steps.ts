/**
 * The steps of the wallet dimension (wallets.ts): a tab switching its order to another wallet, a stale
 * page's payment of a booking a switch superseded, a fresh tab's lookup (`/order`), the bookings'
 * lifetimes running out on the sandbox's clock, and refunds (Khalti's through `handler.refund`, eSewa's
 * in its portal, the sandbox's control). Like every step, one with nothing to act on does nothing.
 */
import fc from 'fast-check';
import { Book, INSTANCES, Step, which, type Which } from './commands.js';
import { refundAtEsewa, VIAS } from './wallets.js';
import { within, type Run } from './world.js';

/** How far the sandbox's clock moves to expire every booking: past Khalti's link and ePay's form (30 min), the intent service's (15 min). */
const PAST_LIFETIMES = '31m';

/** The tab books its order again on the next wallet, with a new key, as the element does when the shopper switches. */
class Switch extends Book {
  constructor(tab: 1 | 2, on: Which) {
    super(tab, on, true, false, false);
  }
  override async act(run: Run) {
    const last = run.tabVia[this.tab - 1]!;
    const next = VIAS[(VIAS.indexOf(last) + 1) % VIAS.length]!;
    await new Book(this.tab, this.on, true, false, false, next).act(run);
  }
  override toString() {
    return `Switch(tab${this.tab} on ${INSTANCES[this.on]} to the next wallet)`;
  }
}

/**
 * A stale page pays (or cancels) a booking handed out before the latest one: a web checkout's stays
 * payable after a switch. `afterLatest`: the latest is paid first, so the stale payment comes after the
 * order was paid.
 */
class StalePay extends Step {
  constructor(
    readonly booking: number,
    readonly action: 'pay' | 'cancel',
    readonly afterLatest: boolean,
  ) {
    super();
  }
  async act(run: Run) {
    const latest = run.received.at(-1);
    const stale = run.received.slice(0, -1);
    const held = stale[this.booking % Math.max(1, stale.length)];
    if (!held || !latest) return;
    if (this.afterLatest) await run.atService(latest.booking_id, 'pay');
    run.log(`stale page of ${held.booking_id.slice(0, 8)} on ${held.wallet} (${held.provider})`);
    await run.atService(held.booking_id, this.action);
  }
  toString() {
    return `StalePay(superseded booking #${this.booking}, ${this.action}${this.afterLatest ? ', after the latest was paid' : ''})`;
  }
}

/** A fresh tab asks whether the order is paid (`/order`). */
class Lookup extends Step {
  constructor(readonly on: Which) {
    super();
  }
  async act(run: Run) {
    await run.send(run.instances[this.on]!, 'order', { order: { id: run.orderId } });
  }
  toString() {
    return `Lookup(/order on ${INSTANCES[this.on]})`;
  }
}

/** The sandbox's clock moves past every booking's lifetime: what was not paid expires at its provider. */
class Expire extends Step {
  async act(run: Run) {
    await run.stage.sandbox.clock.advance(PAST_LIFETIMES);
    await within(run.stage.sandbox.whenCallbacksSettled(), 5_000, "the sandbox's callbacks after its clock moved");
    run.model.callbacks = run.callbacks.length;
  }
  toString() {
    return `Expire(+${PAST_LIFETIMES} at the sandbox)`;
  }
}

/** The merchant refunds a payment in full: Khalti's through `handler.refund` on an instance, eSewa's web payment in its portal. */
class Refund extends Step {
  constructor(
    readonly booking: number,
    readonly on: Which,
  ) {
    super();
  }
  async act(run: Run) {
    await run.refreshWallets();
    const paid = run.serviceBookings().filter((b) => b.status === 'SUCCESS' && run.webBookings.has(b.booking_id));
    const target = paid[this.booking % Math.max(1, paid.length)];
    if (!target) return;
    const made = run.webBookings.get(target.booking_id)!;
    if (made.provider === 'esewa-epay') {
      run.log(`eSewa portal refund of ${made.booking_id.slice(0, 8)} -> ${await refundAtEsewa(run.stage.sandbox, made.booking_id)}`);
      return;
    }
    const instance = run.instances[this.on]!;
    // A refusal (a store fault, a booking the store lost, a frozen instance killed) is the merchant's to retry: logged, not a break.
    const refund = instance.handler.refund({ booking_id: made.booking_id }).then(
      (report) => run.log(`${instance.name} refund ${made.booking_id.slice(0, 8)} -> ${JSON.stringify(report)}`),
      (error: unknown) => run.log(`${instance.name} refund ${made.booking_id.slice(0, 8)} refused: ${String(error).slice(0, 160)}`),
    );
    await run.track(refund);
  }
  toString() {
    return `Refund(paid web booking #${this.booking} on ${INSTANCES[this.on]})`;
  }
}

/** The wallet dimension's steps, to add to the others. */
export function walletSteps(): Array<fc.Arbitrary<Step>> {
  const index = fc.nat({ max: 7 });
  const tab = fc.constantFrom<1 | 2>(1, 2);
  const switchArb = fc.tuple(tab, which).map(([t, on]) => new Switch(t, on));
  const stale = fc.tuple(index, fc.constantFrom<'pay' | 'cancel'>('pay', 'pay', 'cancel'), fc.boolean()).map(([b, action, after]) => new StalePay(b, action, after));
  const refund = fc.tuple(index, which).map(([b, on]) => new Refund(b, on));
  // A second payment and a refund need a payment first: their steps come more often than the others.
  return [switchArb, switchArb, stale, stale, stale, which.map((on) => new Lookup(on)), fc.constant(new Expire()), refund, refund];
}
