/**
 * The real system the generated sequences drive: the sandbox on loopback, a relay that captures its
 * callbacks (so a sequence can deliver them late, twice, out of order or never), one store shared by
 * two handler instances, each with its own clock, a fault-injecting wrapper around the store, and
 * gates that freeze an instance (its store calls, its service calls, its hook) as a long GC pause or a
 * stopped VM does. Nothing here is a mock: the wrappers pass every call to the real store and the real
 * sandbox, and only delay it, refuse it, or lose its answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import type { PaymentStore } from '../../../src/server/index.js';
import type { Backend } from './backends.js';
import { ACCESS_KEY, CLAIM_LEASE_MS, Instance, PAST_LEASES_MS, PRODUCT, sleep, within, type Circumstance } from './instance.js';
import { bodyOf, listen, type Loopback } from '../server/helpers.js';
import { deliveredOnce, neverCalledPaid, oneSuccess, onePayable, paidAtService, paidInFull, reconciled, storeFault503, type Answer, type Break, type HookCall, type ServiceBooking, type SuccessClaim } from './invariants.js';
import { atWebPage, readWebBooking, type Held, type Via, type WebBooking } from './wallets.js';

/** The order lease of today's kit (booking.ts): a holder that has not renewed it for this long loses it. */
const ORDER_LEASE_MS = 4_000;
/** How long a heal lets requests in flight finish before it moves the clocks past the leases. */
const SETTLE_MS = 250;
/** How long a step waits for an answer before it leaves the request in flight (blocked on a frozen instance or a lease). */
const ANSWER_WAIT_MS = 80;
/** A web booking's statuses that never change again (a SUCCESS may still be refunded). */
const FINAL = new Set(['CANCELED', 'FAILED', 'REVERTED']);
/** The longest wait for in-flight requests once every instance is healed: past it the run fails with a message. */
const DRAIN_LIMIT_MS = 30_000;

export { memoryBackend, pgliteBackend, postgresBackend, type Backend } from './backends.js';
export { ACCESS_KEY, CLAIM_LEASE_MS, Instance, PAST_LEASES_MS, PRODUCT, within, type Circumstance, type FaultKind, type Trap } from './instance.js';

/** The sandbox and the callback relay, shared by every sequence of a test file. */
export interface Stage {
  sandbox: Sandbox;
  backend: Backend;
  relayUrl: string;
  /** A run of one order; `instances` handler processes (two unless told). */
  newRun(options?: RunOptions): Promise<Run>;
  close(): Promise<void>;
}

/** What a run of one order may change. */
export interface RunOptions {
  /** Handler processes; two unless told. */
  instances?: number;
  /** The providers' time limit (`timeoutMs`) of every instance; {@link SERVICE_TIMEOUT_MS} unless told. */
  serviceTimeoutMs?: number;
}

/** The providers' time limit of the instances: far longer than a call takes, unless an instance stops in it. */
export const SERVICE_TIMEOUT_MS = 2_000;

export async function startStage(backend: Backend): Promise<Stage> {
  const sandbox = await startSandbox({ accessKey: ACCESS_KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
  const inboxes = new Map<string, string[]>();
  const relay: Loopback = await listen((request: IncomingMessage, response: ServerResponse) => {
    void bodyOf(request).then((body) => {
      inboxes.get(request.url ?? '')?.push(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"code":"IP-200"}');
    });
  });
  let runs = 0;
  const stage: Stage = {
    sandbox,
    backend,
    relayUrl: relay.url,
    async newRun({ instances = 2, serviceTimeoutMs = SERVICE_TIMEOUT_MS } = {}) {
      const id = `${++runs}-${crypto.randomUUID().slice(0, 8)}`;
      const inbox: string[] = [];
      inboxes.set(`/cb/${id}`, inbox);
      const made: { run?: Run } = {};
      const store = await backend.fresh(() => Date.now() + (made.run?.shift ?? 0));
      const run = new Run(stage, id, store, inbox, instances, serviceTimeoutMs);
      made.run = run;
      run.onClose = () => inboxes.delete(`/cb/${id}`);
      return run;
    },
    async close() {
      await relay.close();
      await sandbox.close();
      await backend.close();
    },
  };
  return stage;
}

/** fast-check's model: counts the real run keeps up to date, for a step to log (no step's precondition reads them). */
export interface Model {
  received: number;
  callbacks: number;
  frozen: Set<string>;
}

/** One generated sequence against the stage: one order, two tabs, two instances. */
export class Run {
  readonly orderId: string;
  private current = 1000;
  /** The largest total the order had: a payment booked before it fell may exceed the total now. */
  maxTotal = 1000;
  shift = 0;
  readonly keys: [string, string];
  /** The way each tab booked last (its wallet and channel): a switch books the other. */
  readonly tabVia: [Via, Via] = ['esewa-app', 'esewa-app'];
  readonly handedOut = new Set<string>();
  /** Every booking the service made for this run, in the order it answered them. */
  readonly serviceIds = new Set<string>();
  /** Each booking's total as its book priced it, at most what the order had while the book ran (see {@link pricedNow}). */
  readonly bookingTotals = new Map<string, number>();
  /** The requests priced by a lookup and not answered yet. */
  readonly pricing = new Set<Request>();
  /** Keys whose bookings a stale app screen pays after the merchant's cancel (the sandbox's WPS-006). */
  readonly paidAfterCancelKeys = new Set<string>();
  /** The SUCCESS claims the store granted, in order, with the order's total then. */
  readonly successClaims: SuccessClaim[] = [];
  readonly received: Held[] = [];
  /** The web checkouts' bookings of the order (ePay, Khalti), as their providers made them. */
  readonly webBookings = new Map<string, WebBooking>();
  /** Each web booking's record at its provider, as last read ({@link refreshWallets}). */
  private readonly webRecords = new Map<string, ServiceBooking>();
  /** The most the providers held paid (paise) while each request was in flight: a refund may come after its answer was decided. */
  private readonly paidWhileAsked = new Map<Request, number>();
  readonly hookCalls: HookCall[] = [];
  /** Results whose hook was frozen past its claim: delivered at least once, not once. */
  readonly atLeastOnce = new Set<string>();
  /** The order's total each request's lookup answered. */
  readonly pricedAt = new WeakMap<Request, number>();
  /** `instance correlation_id status` of each result claim asked and not yet settled, with the world's time it was asked at. */
  readonly claims = new Map<string, number>();
  readonly paidByCorrelation = new Map<string, number>();
  /** Correlation ids onError was told a DuplicatePaymentError of. */
  readonly toldDuplicates = new Set<string>();
  /** Correlation ids onError was told an OverpaymentError of. */
  readonly toldOverpayments = new Set<string>();
  readonly breaks: Break[] = [];
  /** Every answer that reached a tab, the service or the model, in the order they came. */
  readonly answers: Answer[] = [];
  readonly circumstances = new Set<Circumstance>();
  /** What the run did, step by step, with each store, service and hook call: printed when the run breaks (run.ts). */
  readonly trace: string[] = [];
  /** When the run began, on the real clock: the trace's times count from it. */
  private readonly began = Date.now();
  readonly instances: Instance[];
  readonly model: Model = { received: 0, callbacks: 0, frozen: new Set() };
  onClose: () => void = () => {};
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    readonly stage: Stage,
    readonly id: string,
    readonly store: PaymentStore,
    readonly callbacks: string[],
    instances = 2,
    /** The providers' time limit of every instance. */
    readonly serviceTimeoutMs = SERVICE_TIMEOUT_MS,
  ) {
    this.orderId = `M-${id}`;
    this.keys = [this.newKey(1), this.newKey(2)];
    this.instances = Array.from({ length: instances }, (_, n) => new Instance(String.fromCharCode(65 + n), this));
  }

  newKey(tab: number): string {
    return `tab${tab}-${crypto.randomUUID()}`;
  }

  /** The world's time: the real clock moved by the sequence's shifts (what the stores' clocks read). */
  worldNow(): number {
    return Date.now() + this.shift;
  }

  /**
   * The total a booking the service makes now was priced at, or more: the largest of the total now and
   * the totals the lookups of the requests in flight answered (one of them made it).
   */
  pricedNow(): number {
    return Math.max(this.total, ...[...this.pricing].map((request) => this.pricedAt.get(request) ?? 0));
  }

  /** The order's total as its latest booking was priced at (before any booking, the total now). */
  latestTotal(): number {
    return this.bookingTotals.get([...this.serviceIds].at(-1) ?? '') ?? this.total;
  }

  /** The order's total: set, it changes (an item added or removed), and lookupOrder answers it from now on. */
  get total(): number {
    return this.current;
  }

  set total(total: number) {
    this.current = total;
    this.maxTotal = Math.max(this.maxTotal, total);
  }

  merchantPaid(): number {
    let sum = 0;
    for (const amount of this.paidByCorrelation.values()) sum += amount;
    return sum;
  }

  /**
   * The order's bookings at their providers (every booking of the run is of its one order): the intent
   * service's as it holds them now, the web checkouts' as last read. A refund the kit has not delivered
   * the `REVERTED` of yet is still a payment: the merchant refunded it outside the kit (eSewa's portal),
   * and the kit learns it from a status check alone.
   */
  serviceBookings(): ServiceBooking[] {
    const reverted = new Set(this.hookCalls.filter((call) => call.returned && call.status === 'REVERTED').map((call) => call.correlation_id));
    return [...this.serviceIds].flatMap((id): ServiceBooking[] => {
      const intent = this.stage.sandbox.getBooking(id);
      const web = this.webBookings.get(id);
      const found = intent ? { ...intent, wallet: 'esewa (esewa-intent)' } : (this.webRecords.get(id) ?? (web && { ...web, status: 'BOOKED', wallet: `${web.wallet} (${web.provider})` }));
      if (!found) return [];
      return [found.status === 'REVERTED' && !reverted.has(found.correlation_id) ? { ...found, status: 'SUCCESS' } : found];
    });
  }

  /** Reads each web booking's record at its provider again, but one that can change no more (cancelled, failed, refunded). */
  async refreshWallets(): Promise<void> {
    const changing = [...this.webBookings.values()].filter((made) => !FINAL.has(this.webRecords.get(made.booking_id)?.status ?? ''));
    const read = await Promise.all(changing.map((made) => readWebBooking(this.stage.sandbox, made)));
    for (const record of read) this.webRecords.set(record.booking_id, record);
    const paid = paidAtService(this.serviceBookings());
    for (const [request, most] of this.paidWhileAsked) this.paidWhileAsked.set(request, Math.max(most, paid));
  }

  /**
   * The bookings handed out that a shopper may still pay as the order's one booking: a web checkout's
   * booking that a later booking of the order superseded is left out, as it cannot be cancelled: it
   * stays payable at its provider until it expires, and its payment after the order was paid is a
   * duplicate (`paidInFull`, `oneSuccess`), as docs/server.md says.
   */
  stillCurrent(): Set<string> {
    const made = [...this.serviceIds];
    return new Set(
      [...this.handedOut].filter((id) => {
        if (!this.webBookings.has(id)) return true;
        return made.indexOf(id) === made.length - 1;
      }),
    );
  }

  /** Sends a request to an instance; waits a moment for its answer, else leaves it in flight (checked when it comes). */
  async send(instance: Instance, route: string, body: unknown, key?: string): Promise<void> {
    const firedBefore = instance.faultsFired;
    const request = new Request(`http://shop.test/pay/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    this.paidWhileAsked.set(request, paidAtService(this.serviceBookings()));
    const flight = (async () => {
      const response = await instance.handler(request).finally(() => this.pricing.delete(request));
      const json = (await response.json()) as { code: string; data?: Record<string, unknown> };
      // A killed process's answers never reach anyone.
      if (instance.killed) return;
      // Told "paid": judged against the providers' records as they are now.
      if (json.code === 'IP-412' || json.data?.paid === true) await this.refreshWallets();
      this.observe({ route, http: response.status, code: json.code, data: json.data, underFault: instance.faultsFired > firedBefore }, key, this.pricedAt.get(request), this.paidWhileAsked.get(request));
    })().finally(() => this.paidWhileAsked.delete(request));
    await this.track(flight);
  }

  /** Runs `work` (a reconcile pass) as a request is run: in flight while it waits on a frozen instance. */
  async track(flight: Promise<void>): Promise<void> {
    const tracked = flight.catch((error: unknown) => {
      this.breaks.push({ invariant: 'storeFault503', detail: `a request threw instead of answering: ${String(error)}` });
    });
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
    await Promise.race([tracked, sleep(ANSWER_WAIT_MS)]);
  }

  /** `MODEL_LOG=1` prints each step and answer, to follow a replayed sequence. */
  log(line: string): void {
    const stamped = `[${this.id.slice(0, 8)} +${this.shift} ms, at ${Date.now() - this.began} ms] ${line}`;
    this.trace.push(stamped);
    if (process.env.MODEL_LOG === '1') console.log(stamped);
  }

  /**
   * `pricedTotal`: the total the request's own lookup answered. A book is judged by the order it
   * priced: one left in flight (a slow machine) may be answered after the total grew since.
   */
  private observe(answer: Answer, key: string | undefined, pricedTotal: number | undefined, paidWhileAsked: number | undefined): void {
    const wallet = typeof answer.data?.wallet === 'string' ? ` [${answer.data.wallet} ${String(answer.data.channel)}]` : '';
    this.log(`${answer.route}${key ? ` (${key.slice(0, 12)})` : ''} -> ${answer.http} ${answer.code}${wallet} ${answer.data ? JSON.stringify(answer.data).slice(0, 120) : ''}`);
    this.answers.push(answer);
    const bookings = this.serviceBookings();
    this.breaks.push(...neverCalledPaid(answer, bookings, pricedTotal ?? this.total, paidWhileAsked), ...storeFault503(answer));
    if (answer.route === 'book' && typeof answer.data?.booking_id === 'string' && typeof answer.data.correlation_id === 'string') {
      if (!this.handedOut.has(answer.data.booking_id)) {
        this.handedOut.add(answer.data.booking_id);
        const { booking_id, correlation_id } = answer.data;
        const web = this.webBookings.get(booking_id);
        const payment = answer.data.web_payment as Held['web_payment'];
        this.received.push({ booking_id, correlation_id, wallet: web?.wallet ?? 'esewa', provider: web?.provider ?? 'esewa-intent', ...(payment ? { web_payment: payment } : {}) });
        this.model.received = this.received.length;
      }
    }
  }

  /**
   * The shopper pays, fails or cancels at the booking's wallet page: the intent service's callback lands
   * at the relay; a web checkout sends none (the kit asks it).
   */
  async atService(bookingId: string, action: 'pay' | 'fail' | 'cancel'): Promise<void> {
    const held = this.received.find((booking) => booking.booking_id === bookingId);
    if (held && held.provider !== 'esewa-intent') {
      const refused = await atWebPage(held, this.stage.sandbox, action);
      this.log(`${held.provider} page ${action} ${bookingId.slice(0, 8)} -> ${refused ?? 'done'}`);
      return;
    }
    const path = action === 'cancel' ? 'cancel' : 'confirm';
    const form = action === 'cancel' ? '' : new URLSearchParams({ mpin: action === 'pay' ? '1234' : '0000', method: 'wallet_balance' }).toString();
    const response = await fetch(`${this.stage.sandbox.linksUrl}/pay/${encodeURIComponent(bookingId)}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
      signal: AbortSignal.timeout(5_000),
    });
    await response.arrayBuffer();
    await within(this.stage.sandbox.whenCallbacksSettled(), 5_000, "the sandbox's callback to the relay");
    this.model.callbacks = this.callbacks.length;
  }

  /** The invariants that hold after every step. */
  checkStep(): void {
    const bookings = this.serviceBookings();
    const returned = this.hookCalls.filter((call) => call.returned && call.status === 'SUCCESS');
    // What the kit reported of each payment: a duplicate whole, an overpayment's excess.
    const reported = new Map<string, number>();
    for (const call of returned) {
      if (call.duplicate && this.toldDuplicates.has(call.correlation_id)) reported.set(call.correlation_id, call.amount ?? 0);
      else if (call.overpayment && this.toldOverpayments.has(call.correlation_id)) reported.set(call.correlation_id, call.overpayment);
    }
    const delivered = new Set(returned.map((call) => call.correlation_id));
    this.breaks.push(...onePayable(bookings, this.stillCurrent()), ...oneSuccess(bookings, this.maxTotal, reported, delivered));
    this.breaks.push(...paidInFull(this.successClaims, this.hookCalls));
    this.breaks.push(...deliveredOnce(this.hookCalls.filter((call) => !this.atLeastOnce.has(`${call.correlation_id} ${call.status}`))));
  }

  /**
   * Every instance thawed, every fault and trap cleared, the clocks past every lease (so a request that
   * waits on a lease of a frozen or killed instance goes on), and every request in flight answered.
   */
  async heal(): Promise<void> {
    for (const instance of this.instances) {
      instance.faults = [];
      instance.trap = undefined;
      instance.hookThrows = 0;
      instance.slowMs = 0;
      instance.thaw();
    }
    this.model.frozen.clear();
    // What can finish on its own does; what still waits (on the lease of a killed instance) gets the clocks moved on.
    await Promise.race([Promise.all([...this.inFlight]), sleep(SETTLE_MS)]);
    await this.advance(PAST_LEASES_MS);
    await within(Promise.all([...this.inFlight]), DRAIN_LIMIT_MS, 'the requests in flight once every instance was healed');
  }

  /**
   * Moves every clock on. Past the order's lease while requests are in flight, that is a pause of
   * their process as the leases see it (a holder that did not renew in time).
   */
  async advance(ms: number): Promise<void> {
    if (ms >= ORDER_LEASE_MS && this.inFlight.size > 0) this.circumstances.add('pause');
    this.shift += ms;
    for (const [claim, askedAt] of this.claims) {
      if (this.worldNow() - askedAt < CLAIM_LEASE_MS) continue;
      // Its holder is still inside the hook or marking it delivered: another instance may deliver it again.
      this.atLeastOnce.add(claim.slice(claim.indexOf(' ') + 1));
      this.circumstances.add('pause');
    }
    await this.stage.backend.shift?.(this.shift);
  }

  /** One healthy reconcile() past every lease, then: every payment at the service has reached the hook. */
  async reconcileAndCheck(instance: Instance): Promise<void> {
    await this.heal();
    const report = await within(instance.handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), DRAIN_LIMIT_MS, 'reconcile()');
    await this.refreshWallets();
    this.log(`${instance.name} reconcile() -> ${JSON.stringify(report)}; at the service: ${this.serviceBookings().map((b) => `${b.correlation_id.slice(0, 8)} ${b.wallet ?? ''} ${b.status}`).join(', ')}`);
    this.breaks.push(...reconciled(this.serviceBookings(), this.hookCalls));
    this.checkStep();
  }

  /** The end of a sequence: heal, let the clocks pass the leases, reconcile once, check everything. */
  async finish(): Promise<void> {
    await this.heal();
    await this.refreshWallets();
    this.checkStep();
    await this.reconcileAndCheck(this.instances[0]!);
  }

  close(): void {
    for (const instance of this.instances) instance.kill();
    this.onClose();
  }
}
