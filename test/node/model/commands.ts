/**
 * The steps a generated sequence is made of, as fast-check commands: books from two tabs on two
 * instances, each on a named wallet (wallet-steps.ts adds the switches, stale pages, lookups, expiry
 * and refunds of the wallet dimension), the shopper paying, failing or cancelling at the sandbox, a stale app screen's payment
 * that lands after the merchant's cancel (WPS-006), callbacks delivered late, twice, out of order or
 * never, status checks, cancels, reconcile passes, a total that grows or shrinks, restarts,
 * clocks that jump or drift apart, instances frozen inside a book or inside the hook, store faults and
 * a failing hook. Each step ends with the invariants (invariants.ts); a break fails the run. No step
 * has a precondition: one with nothing to act on yet (no booking handed out, no callback captured, no
 * frozen instance) does nothing, so a replayed seed and path runs the same steps, however long the
 * answers took on the machine that found it.
 */
import fc from 'fast-check';
import { INVARIANTS } from './invariants.js';
import { Instance, PAST_LEASES_MS, within, type FaultKind, type Model, type Run } from './world.js';
import { StoreUnavailableError } from '../../../src/server/index.js';
import { bookBody, VIAS, type Via } from './wallets.js';

/** Fails the run on any break, naming the circumstances it happened in. */
export function verdict(run: Run): void {
  const found = run.breaks.splice(0);
  if (found.length > 0) {
    const seen = [...run.circumstances].join(', ') || 'none';
    throw new Error(`Invariant broken (circumstances: ${seen}):\n${found.map((b) => `  - ${INVARIANTS[b.invariant]}: ${b.detail}`).join('\n')}`);
  }
}

export const INSTANCES = ['A', 'B'] as const;
export type Which = 0 | 1;
export const which = fc.constantFrom<Which>(0, 1);

export abstract class Step implements fc.AsyncCommand<Model, Run> {
  check(model: Readonly<Model>): boolean {
    void model;
    return true;
  }

  async run(model: Model, run: Run): Promise<void> {
    run.log(this.toString());
    await this.act(run);
    model.frozen = new Set(run.instances.filter((i) => i.isFrozen).map((i) => i.name));
    await run.refreshWallets();
    run.checkStep();
    verdict(run);
  }

  abstract act(run: Run): Promise<void>;
  abstract toString(): string;

  [fc.toStringMethod](): string {
    return this.toString();
  }
}

/** A tab books on a wallet; a key keeps its wallet (the kit refuses it on another), so a switch takes a new one. */
export class Book extends Step {
  constructor(
    readonly tab: 1 | 2,
    readonly on: Which,
    readonly freshKey: boolean,
    readonly freezeAfterServiceBook: boolean,
    /** With a new key: the tab's app screen takes the payment even after the merchant cancels (WPS-006). */
    readonly paidAfterCancel = false,
    readonly via: Via = 'esewa-app',
  ) {
    super();
  }
  async act(run: Run) {
    if (this.freshKey) run.keys[this.tab - 1] = run.newKey(this.tab);
    if (this.freshKey && this.paidAfterCancel) run.paidAfterCancelKeys.add(run.keys[this.tab - 1]!);
    const instance = run.instances[this.on]!;
    if (this.freezeAfterServiceBook) instance.trap = 'service-book';
    run.tabVia[this.tab - 1] = this.via;
    await run.send(instance, 'book', { ...bookBody(this.via), order: { id: run.orderId } }, run.keys[this.tab - 1]);
  }
  toString() {
    const stale = this.freshKey && this.paidAfterCancel ? ', paid after a cancel' : '';
    return `Book(tab${this.tab} on ${INSTANCES[this.on]} with ${this.via}${this.freshKey ? ', new key' : ''}${stale}${this.freezeAfterServiceBook ? ', freeze after the service books' : ''})`;
  }
}

/** The shopper acts on a booking it was handed. */
class AtService extends Step {
  constructor(
    readonly booking: number,
    readonly action: 'pay' | 'fail' | 'cancel',
  ) {
    super();
  }
  async act(run: Run) {
    const booking = run.received[this.booking % run.received.length];
    if (!booking) return;
    await run.atService(booking.booking_id, this.action);
  }
  toString() {
    return `AtService(booking #${this.booking}, ${this.action})`;
  }
}

/** A captured callback delivered to an instance, once or twice; the ones never delivered are lost. */
class Callback extends Step {
  constructor(
    readonly callback: number,
    readonly on: Which,
    readonly twice: boolean,
  ) {
    super();
  }
  async act(run: Run) {
    const body = run.callbacks[this.callback % run.callbacks.length];
    if (body === undefined) return;
    const instance = run.instances[this.on]!;
    await Promise.all((this.twice ? [1, 2] : [1]).map(() => run.send(instance, 'callback', body)));
  }
  toString() {
    return `Callback(#${this.callback} to ${INSTANCES[this.on]}${this.twice ? ', twice at once' : ''})`;
  }
}

/** The element's `/status` or `/cancel` for a booking the tab holds. */
class Ask extends Step {
  constructor(
    readonly route: 'status' | 'cancel',
    readonly booking: number,
    readonly on: Which,
  ) {
    super();
  }
  async act(run: Run) {
    const held = run.received[this.booking % run.received.length];
    if (!held) return;
    const { booking_id, correlation_id } = held;
    await run.send(run.instances[this.on]!, this.route, { booking_id, correlation_id });
  }
  toString() {
    return `${this.route === 'status' ? 'Status' : 'Cancel'}(booking #${this.booking} on ${INSTANCES[this.on]})`;
  }
}

/**
 * A reconcile pass. `healthy`: every instance thawed, faults cleared, the clocks past the leases first,
 * and then every payment at the service must have reached the hook.
 */
class Reconcile extends Step {
  constructor(
    readonly on: Which,
    readonly healthy: boolean,
  ) {
    super();
  }
  async act(run: Run) {
    const instance = run.instances[this.on]!;
    // A pass on a frozen process would only wait with it.
    if (!this.healthy && instance.isFrozen) return;
    if (this.healthy) await run.reconcileAndCheck(instance);
    else {
      // A pass that meets a store outage rejects with StoreUnavailableError (the merchant's timer tries again): not a break.
      const pass = instance.handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }).then(
        () => {},
        (error: unknown) => {
          // A pass of a process killed meanwhile ends with it; an outage is the merchant's timer's to retry.
          if (!(error instanceof StoreUnavailableError) && !instance.killed) throw error;
        },
      );
      await run.track(pass);
    }
  }
  toString() {
    return `Reconcile(on ${INSTANCES[this.on]}${this.healthy ? ', healthy, then check' : ''})`;
  }
}

/** The order's total grows or shrinks (an item added or removed), from 500 to 2000: lookupOrder answers it and the balance still owed. */
class ChangeTotal extends Step {
  constructor(readonly by: number) {
    super();
  }
  async act(run: Run) {
    const total = run.total + this.by;
    if (total >= 500 && total <= 2000) run.total = total;
  }
  toString() {
    return `ChangeTotal(${this.by > 0 ? '+' : ''}${this.by})`;
  }
}

/**
 * The service's clock moves 30 s: a payment a stale app screen took (PENDING) lands, after the
 * merchant's cancel too (WPS-006), and its callback, as the service retries it until answered, reaches
 * an instance.
 */
class LateLanding extends Step {
  constructor(readonly on: Which) {
    super();
  }
  async act(run: Run) {
    await lateLanding(run, run.instances[this.on]!);
  }
  toString() {
    return `LateLanding(+30 s at the service, callbacks to ${INSTANCES[this.on]})`;
  }
}

/** The process dies (whatever it was doing stops) and a new one starts on the same store. */
class Restart extends Step {
  constructor(readonly on: Which) {
    super();
  }
  async act(run: Run) {
    run.instances[this.on]!.kill();
    run.instances[this.on] = new Instance(INSTANCES[this.on], run);
  }
  toString() {
    return `Restart(${INSTANCES[this.on]})`;
  }
}

/** Every clock moves on (a pause of the whole world as seen by the leases). */
class Advance extends Step {
  constructor(readonly ms: number) {
    super();
  }
  async act(run: Run) {
    await run.advance(this.ms);
  }
  toString() {
    return `Advance(${this.ms} ms)`;
  }
}

/** One instance's clock drifts from the other's. */
class Skew extends Step {
  constructor(
    readonly on: Which,
    readonly ms: number,
  ) {
    super();
  }
  async act(run: Run) {
    run.instances[this.on]!.skew = this.ms;
    if (this.ms !== 0) run.circumstances.add('skew');
  }
  toString() {
    return `Skew(${INSTANCES[this.on]} by ${this.ms} ms)`;
  }
}

/** A frozen instance goes on (SIGCONT): what it was doing resumes, however stale. */
class Thaw extends Step {
  constructor(readonly on: Which) {
    super();
  }
  async act(run: Run) {
    if (!run.instances[this.on]!.isFrozen) return;
    run.instances[this.on]!.thaw();
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
  toString() {
    return `Thaw(${INSTANCES[this.on]})`;
  }
}

/** The next call of the hook on this instance freezes the process inside it. */
class FreezeInHook extends Step {
  constructor(readonly on: Which) {
    super();
  }
  async act(run: Run) {
    run.instances[this.on]!.trap = 'hook';
  }
  toString() {
    return `FreezeInHook(${INSTANCES[this.on]})`;
  }
}

/** The next store call(s) of this instance naming `method` fail: refused, or done with the answer lost. */
class StoreFault extends Step {
  constructor(
    readonly on: Which,
    readonly kind: FaultKind,
    readonly method: string,
    readonly count: number,
  ) {
    super();
  }
  async act(run: Run) {
    const instance = run.instances[this.on]!;
    for (let i = 0; i < this.count; i++) instance.faults.push({ kind: this.kind, method: this.method });
    run.circumstances.add('store-fault');
  }
  toString() {
    return `StoreFault(${INSTANCES[this.on]}, ${this.kind} ${this.method === '*' ? 'any call' : `"${this.method}"`} x${this.count})`;
  }
}

/** The merchant's hook throws once on this instance (the kit delivers again later, as documented). */
class HookThrows extends Step {
  constructor(readonly on: Which) {
    super();
  }
  async act(run: Run) {
    run.instances[this.on]!.hookThrows++;
  }
  toString() {
    return `HookThrows(${INSTANCES[this.on]})`;
  }
}

/** This instance's store calls get slow, as on a loaded machine: its requests outlast the step that sent them. */
class Slow extends Step {
  constructor(
    readonly on: Which,
    readonly ms: number,
  ) {
    super();
  }
  async act(run: Run) {
    run.instances[this.on]!.slowMs = this.ms;
  }
  toString() {
    return `Slow(${INSTANCES[this.on]}, ${this.ms} ms per store call)`;
  }
}

/** Two steps at once (a book on one instance while a result is delivered on the other, say). */
class Together extends Step {
  constructor(
    readonly first: Step,
    readonly second: Step,
  ) {
    super();
  }
  async act(run: Run) {
    await Promise.all([this.first.act(run), this.second.act(run)]);
  }
  toString() {
    return `Together(${this.first.toString()}, ${this.second.toString()})`;
  }
}

/** The service's clock moves 30 s, and the callbacks that sends go to `instance` (see {@link LateLanding}). */
export async function lateLanding(run: Run, instance: Instance): Promise<void> {
  const before = run.callbacks.length;
  await run.stage.sandbox.clock.advance('30s');
  await within(run.stage.sandbox.whenCallbacksSettled(), 5_000, "the sandbox's callbacks after its clock moved");
  run.model.callbacks = run.callbacks.length;
  await Promise.all(run.callbacks.slice(before).map((body) => run.send(instance, 'callback', body)));
}

/** Every step, with weights that keep sequences about money: books, payments and results first. */
export function modelCommands(maxCommands: number, more: ReadonlyArray<fc.Arbitrary<Step>> = []): fc.Arbitrary<Step[]> {
  const index = fc.nat({ max: 7 });
  const book = fc
    .record({ tab: fc.constantFrom<1 | 2>(1, 2), on: which, fresh: fc.boolean(), freeze: fc.integer({ min: 0, max: 3 }), stale: fc.boolean(), via: fc.constantFrom(...VIAS) })
    .map(({ tab, on, fresh, freeze, stale, via }) => new Book(tab, on, fresh, freeze === 0, stale, via));
  const atService = fc.tuple(index, fc.constantFrom<'pay' | 'fail' | 'cancel'>('pay', 'pay', 'pay', 'fail', 'cancel')).map(([b, action]) => new AtService(b, action));
  const callback = fc.tuple(index, which, fc.boolean()).map(([c, on, twice]) => new Callback(c, on, twice));
  const reconcileArb = fc.tuple(which, fc.boolean()).map(([on, healthy]) => new Reconcile(on, healthy));
  // A healthy reconcile heals every instance and then checks: never at the same time as another step.
  const passArb = which.map((on) => new Reconcile(on, false));
  const ask = fc.tuple(fc.constantFrom<'status' | 'cancel'>('status', 'status', 'cancel'), index, which).map(([route, b, on]) => new Ask(route, b, on));
  const steps: Array<fc.Arbitrary<Step>> = [
      // The money steps, three times as likely as the rest.
      book,
      book,
      book,
      atService,
      atService,
      atService,
      callback,
      callback,
      ask,
      ask,
      reconcileArb,
      // A total that grows or shrinks, and a stale screen's payment landing after the merchant's cancel.
      fc.constantFrom(500, -500).map((by) => new ChangeTotal(by)),
      fc.constantFrom(500, -500).map((by) => new ChangeTotal(by)),
      which.map((on) => new LateLanding(on)),
      which.map((on) => new LateLanding(on)),
      which.map((on) => new Restart(on)),
      fc.constantFrom(1_000, 5_000, PAST_LEASES_MS).map((ms) => new Advance(ms)),
      fc.constantFrom(1_000, 5_000, PAST_LEASES_MS).map((ms) => new Advance(ms)),
      fc.tuple(which, fc.constantFrom(-10_000, 10_000, 60_000)).map(([on, ms]) => new Skew(on, ms)),
      which.map((on) => new Thaw(on)),
      which.map((on) => new Thaw(on)),
      which.map((on) => new FreezeInHook(on)),
      fc
        .tuple(which, fc.constantFrom<FaultKind>('refuse', 'lost-answer'), fc.constantFrom('*', 'insert', 'begin', 'claim', 'complete', 'lease', 'release'), fc.integer({ min: 1, max: 2 }))
        .map(([on, kind, method, count]) => new StoreFault(on, kind, method, count)),
      which.map((on) => new HookThrows(on)),
      fc.tuple(which, fc.constantFrom(0, 150)).map(([on, ms]) => new Slow(on, ms)),
      fc.tuple(fc.oneof(book, ask, callback), fc.oneof(book, ask, callback, passArb)).map(([first, second]) => new Together(first, second)),
      fc.tuple(fc.oneof(book, ask, callback), fc.oneof(book, ask, callback, passArb)).map(([first, second]) => new Together(first, second)),
      ...more,
  ];
  // A plain array (not fc.commands) so every sequence has at least a few steps; it shrinks the same way.
  return fc.array(fc.oneof(...steps), { minLength: Math.min(6, maxCommands), maxLength: maxCommands });
}
