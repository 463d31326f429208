/**
 * One handler process of the generated interleavings' shop (see world.ts): its handler on the run's
 * store and the sandbox, a gate every call of it passes (frozen as a long GC pause or a stopped VM,
 * or killed), the faults armed on its store calls, and its hook, which records every call.
 */
import { createPaymentHandler, DuplicatePaymentError, StoreUnavailableError, type PaymentHandler, type PaymentStore } from '../../../src/server/index.js';
import { OverpaymentError } from '../../../src/server/delivery.js';
import type { DeliveredResult } from '../../../src/server/delivery-terms.js';
import type { PaymentProvider } from '../../../src/server/provider.js';
import type { HookCall } from './invariants.js';
import { webProviders } from './wallets.js';
import type { Run } from './world.js';

export const PRODUCT = 'MODEL01';
export const ACCESS_KEY = 'model-access-key';
/** How long a result claim holds (the kit's `leaseMs`). */
export const CLAIM_LEASE_MS = 10_000;
/** An advance of the clocks past every lease: the order's (4 s) and a result claim's. */
export const PAST_LEASES_MS = CLAIM_LEASE_MS + 5_000;
/** Rejects with a message naming `what` when a promise takes longer than `ms` (the model's files take it from here). */
export { within } from '../../support/within.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where an instance freezes next, on its own: after the service answered a book, or inside the hook. */
export type Trap = 'service-book' | 'hook';

/** Refuse a store call (nothing done), or do it and lose the answer (a timeout after the write). */
export type FaultKind = 'refuse' | 'lost-answer';

/** What happened in a run, named in a break's report. */
export type Circumstance = 'freeze-in-book' | 'freeze-in-hook' | 'pause' | 'skew' | 'store-fault';

/** One handler process of the shop. */
export class Instance {
  handler: PaymentHandler;
  skew = 0;
  trap: Trap | undefined;
  hookThrows = 0;
  faults: Array<{ kind: FaultKind; method: string }> = [];
  faultsFired = 0;
  /** Each store call of this process takes this much longer, as on a loaded machine. */
  slowMs = 0;
  killed = false;
  /** The time limit's signal of the provider call this process stopped in after the service booked (its `service-book` trap). */
  trappedSignal: AbortSignal | undefined;
  private frozen: { promise: Promise<void>; open(): void; kill(error: Error): void } | undefined;

  constructor(
    readonly name: string,
    private readonly run: Run,
  ) {
    this.handler = this.start();
  }

  get isFrozen(): boolean {
    return this.frozen !== undefined;
  }

  /** Every call of the process passes here: it waits while the process is frozen and fails once it is killed. */
  async gate(): Promise<void> {
    if (this.killed) throw new Error(`instance ${this.name} was killed`);
    if (this.frozen) await this.frozen.promise;
  }

  freeze(where: 'freeze-in-book' | 'freeze-in-hook'): void {
    if (this.frozen) return;
    this.run.circumstances.add(where);
    let open!: () => void;
    let kill!: (error: Error) => void;
    const promise = new Promise<void>((resolve, reject) => {
      open = resolve;
      kill = reject;
    });
    promise.catch(() => {});
    this.frozen = { promise, open, kill };
  }

  thaw(): void {
    this.frozen?.open();
    this.frozen = undefined;
  }

  /** The process dies: whatever it was doing stops, and nothing it does from now reaches the store or the service. */
  kill(): void {
    this.killed = true;
    this.frozen?.kill(new Error(`instance ${this.name} was killed`));
    this.frozen = undefined;
  }

  private start(): PaymentHandler {
    const run = this.run;
    const store = this.faulty(run.store);
    const serviceFetch: typeof fetch = async (input, init) => {
      await this.gate();
      const url = String(input instanceof Request ? input.url : input);
      const asked = Date.now();
      let response: Response;
      try {
        response = await fetch(input, init);
      } catch (error) {
        run.log(`${this.name} service ${new URL(url).pathname} threw after ${Date.now() - asked} ms: ${String(error).slice(0, 80)}`);
        throw error;
      }
      run.log(`${this.name} service ${new URL(url).pathname} -> ${response.status} in ${Date.now() - asked} ms`);
      // The service's bookings of this run, learned from its answers: the invariants read these, not the whole sandbox.
      if (url.endsWith('/book')) {
        const answer = (await response.clone().json().catch(() => ({}))) as { data?: { booking_id?: unknown } };
        const id = answer.data?.booking_id;
        if (typeof id === 'string' && !run.serviceIds.has(id)) {
          run.bookingTotals.set(id, run.pricedNow());
          run.serviceIds.add(id);
        }
      }
      // The intent service's book, or Khalti's: the booking exists at the provider, the kit has not saved it.
      if (this.trap === 'service-book' && (url.endsWith('/book') || url.endsWith('/epayment/initiate/'))) {
        this.trap = undefined;
        this.trappedSignal = init?.signal ?? undefined;
        this.freeze('freeze-in-book');
      }
      await this.gate();
      return response;
    };
    return createPaymentHandler({
      providers: webProviders(run.stage.sandbox, serviceFetch, run.serviceTimeoutMs).map((provider) => this.recording(provider)),
      serviceUrl: run.stage.sandbox.baseUrl,
      productCode: PRODUCT,
      accessKey: ACCESS_KEY,
      callbackUrl: `${run.stage.relayUrl}/cb/${run.id}`,
      redirectUrl: 'http://shop.test/return',
      store,
      fetch: serviceFetch,
      now: () => Date.now() + run.shift + this.skew,
      leaseMs: CLAIM_LEASE_MS,
      resultTimeoutMs: 300,
      timeoutMs: run.serviceTimeoutMs,
      lookupOrder: (order, context) => {
        if (order.id !== run.orderId) return undefined;
        run.pricedAt.set(context.request, run.total);
        run.pricing.add(context.request);
        // As docs/server.md says: the order's total, and what the merchant's records say is still owed of it.
        const balance = Math.round(run.total * 100) - Math.round(run.merchantPaid() * 100);
        // A key of a tab whose app screen will pay after the merchant's cancel: its bookings get the sandbox's WPS-006.
        const stale = run.paidAfterCancelKeys.has(context.request.headers.get('idempotency-key') ?? '');
        const properties = stale ? { properties: { sandbox_scenario: 'WPS-006' } } : {};
        return balance <= 0 ? { paid: true } : { id: run.orderId, amount: run.total, balance: balance / 100, ...properties };
      },
      onPaymentResult: async (result) => {
        const { overpayment } = result as DeliveredResult;
        const call: HookCall = { correlation_id: result.correlation_id, status: result.status, amount: result.amount, returned: false, duplicate: result.duplicate === true, overpayment };
        run.hookCalls.push(call);
        if (this.trap === 'hook') {
          this.trap = undefined;
          this.freeze('freeze-in-hook');
          // A process frozen inside the hook past its claim: the kit promises at least once here.
          run.atLeastOnce.add(`${call.correlation_id} ${call.status}`);
        }
        await this.gate();
        if (this.hookThrows > 0) {
          this.hookThrows--;
          run.log(`${this.name} hook ${result.status} ${result.correlation_id.slice(0, 8)} (${result.source}) threw, as armed`);
          throw new Error('injected failure of onPaymentResult');
        }
        call.returned = true;
        const marks = `${result.duplicate ? ' duplicate' : ''}${overpayment ? ` overpaid ${overpayment}` : ''}`;
        run.log(`${this.name} hook ${result.status} ${result.correlation_id.slice(0, 8)} (${result.source}) ${result.amount}${marks} returned`);
        // A duplicate is money received twice, to refund: it pays nothing of the order (docs/server.md).
        if (result.status === 'SUCCESS' && result.duplicate !== true) run.paidByCorrelation.set(result.correlation_id, result.amount ?? 0);
        if (result.status === 'REVERTED') {
          run.paidByCorrelation.delete(result.correlation_id);
          run.successClaims.push({ correlation_id: result.correlation_id, total: run.latestTotal(), reverted: true });
        }
      },
      onError: (error) => {
        if (error instanceof DuplicatePaymentError) run.toldDuplicates.add(error.result.correlation_id);
        if (error instanceof OverpaymentError) run.toldOverpayments.add(error.result.correlation_id);
      },
    });
  }

  /**
   * A web checkout whose bookings the run learns as the provider makes them (the intent service's are
   * learned from its answers, above): the invariants read each at its provider.
   */
  private recording(provider: PaymentProvider): PaymentProvider {
    const run = this.run;
    const book: PaymentProvider['book'] = async (input) => {
      const made = await provider.book(input);
      if (!run.serviceIds.has(made.booking_id)) {
        run.bookingTotals.set(made.booking_id, run.pricedNow());
        run.webBookings.set(made.booking_id, { booking_id: made.booking_id, correlation_id: made.correlation_id, amount: input.amount, wallet: provider.wallet, provider: provider.name });
        run.serviceIds.add(made.booking_id);
      }
      return made;
    };
    return { ...provider, book };
  }

  /**
   * A result claim of this process, from the moment it is asked (the store's lease starts no earlier)
   * until its delivery is marked or given back: the world's clocks moved past the claim's lease in
   * between (a slow machine leaves a hook in flight across steps) is a pause inside the hook as the
   * lease sees it, and the kit promises at least once there (docs/server.md).
   */
  private claimOf(property: string, args: unknown[]): string | undefined {
    if (property !== 'claimResult') return undefined;
    const claim = `${this.name} ${resultOf(args)}`;
    if (!this.run.claims.has(claim)) this.run.claims.set(claim, this.run.worldNow());
    return claim;
  }

  /** Ends the claim a store call settles: a claim not taken, or a delivery marked or given back. */
  private settleClaim(claim: string | undefined, property: string, args: unknown[], result: unknown): void {
    const claimed = (result as { claim?: unknown } | undefined)?.claim === 'claimed';
    if (claim !== undefined && !claimed) this.run.claims.delete(claim);
    // The order the store grants SUCCESS claims in is the order the kit judges them in.
    const [asked] = args as Array<{ correlationId?: string; status?: string }>;
    if (claim !== undefined && claimed && asked?.status === 'SUCCESS' && asked.correlationId !== undefined) {
      this.run.successClaims.push({ correlation_id: asked.correlationId, total: this.run.latestTotal() });
    }
    if (property === 'completeResult' || property === 'releaseResult') this.run.claims.delete(`${this.name} ${resultOf(args)}`);
  }

  /** The store of this process: every call passes the gate, and the armed faults fire on the calls they name. */
  private faulty(store: PaymentStore): PaymentStore {
    return new Proxy(store, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return async (...args: unknown[]) => {
          await this.gate();
          if (this.slowMs > 0) await sleep(this.slowMs);
          const at = this.faults.findIndex((fault) => fault.method === '*' || property.toLowerCase().includes(fault.method));
          const fault = at >= 0 ? this.faults.splice(at, 1)[0] : undefined;
          if (fault) {
            this.faultsFired++;
            // A result whose hook returned but whose delivery was not recorded: as a process killed after
            // the hook, it is delivered again, at least once as documented.
            if (property.toLowerCase().includes('complete')) this.run.atLeastOnce.add(resultOf(args));
          }
          if (fault?.kind === 'refuse') throw new StoreUnavailableError('unreachable', `injected: ${property} refused`);
          const claim = this.claimOf(property, args);
          let result: unknown;
          try {
            result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            this.run.log(`${this.name} store.${property}(${brief(args)}) -> ${brief(result)}`);
          } catch (error) {
            this.run.log(`${this.name} store.${property}(${brief(args)}) threw ${String(error).slice(0, 120)}`);
            throw error;
          } finally {
            this.settleClaim(claim, property, args, result);
          }
          if (fault?.kind === 'lost-answer') throw new StoreUnavailableError('deadline', `injected: ${property} done, answer lost`);
          await this.gate();
          return result;
        };
      },
    });
  }
}

/** A store call's arguments or answer in one short line, ids cut to 8 characters, for the trace. */
function brief(value: unknown): string {
  const text = JSON.stringify(value, (_, v: unknown) => (typeof v === 'string' && v.length > 12 && /^[\w-]+$/.test(v) ? v.slice(0, 8) : v)) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** `correlation_id status` of a result a store call names, whether it takes positional arguments or one object. */
function resultOf(args: unknown[]): string {
  const [first, second] = args;
  if (typeof first === 'string') return `${first} ${String(second)}`;
  const named = (first ?? {}) as Record<string, unknown>;
  return `${String(named.correlationId ?? named.correlation_id)} ${String(named.status)}`;
}
