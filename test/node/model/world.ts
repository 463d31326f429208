/**
 * The real system the generated sequences drive: the sandbox on loopback, a relay that captures its
 * callbacks (so a sequence can deliver them late, twice, out of order or never), one store shared by
 * two handler instances, each with its own clock, a fault-injecting wrapper around the store, and
 * gates that freeze an instance (its store calls, its service calls, its hook) as a long GC pause or a
 * stopped VM does. Nothing here is a mock: the wrappers pass every call to the real store and the real
 * sandbox, and only delay it, refuse it, or lose its answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { startPostgres, type ThrowawayPostgres } from '../../../scripts/postgres.mjs';
import { startSandbox, type Sandbox, type SandboxBooking } from '../../../src/sandbox/index.js';
import { createMemoryStore, createPaymentHandler, DuplicatePaymentError, StoreUnavailableError, type PaymentHandler, type PaymentStore } from '../../../src/server/index.js';
import { createPostgresStore } from '../../../src/server/postgres.js';
import { bodyOf, listen, type Loopback } from '../server/helpers.js';
import { deliveredOnce, neverCalledPaid, oneSuccess, onePayable, reconciled, storeFault503, type Answer, type Break, type HookCall } from './invariants.js';

export const PRODUCT = 'MODEL01';
export const ACCESS_KEY = 'model-access-key';
/** How long a result claim holds (the kit's `leaseMs`). */
export const CLAIM_LEASE_MS = 10_000;
/** An advance of the clocks past every lease: the order's (4 s) and a result claim's. */
export const PAST_LEASES_MS = CLAIM_LEASE_MS + 5_000;
/** The order lease of today's kit (booking.ts): a holder that has not renewed it for this long loses it. */
const ORDER_LEASE_MS = 4_000;
/** How long a heal lets requests in flight finish before it moves the clocks past the leases. */
const SETTLE_MS = 250;
/** How long a step waits for an answer before it leaves the request in flight (blocked on a frozen instance or a lease). */
const ANSWER_WAIT_MS = 80;
/** The longest wait for in-flight requests once every instance is healed: past it the run fails with a message. */
const DRAIN_LIMIT_MS = 30_000;

/** Rejects with a message naming `what` when `promise` takes longer than `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where the store lives: a fresh store per sequence, on one backend per test file. */
export interface Backend {
  name: string;
  /** The server's connection string, for a PostgreSQL server. */
  url?: string;
  /** A store with nothing in it; `clock` is the world's time (the shifts of the sequence), for a store that keeps its own. */
  fresh(clock: () => number): Promise<PaymentStore>;
  /** Moves the database's clock to the world's time: `ms` ahead of the real one. */
  shift?(ms: number): Promise<void>;
  close(): Promise<void>;
}

export function memoryBackend(): Backend {
  return {
    name: 'memory',
    // A store that times leases by its own clock (`now`) gets the world's; one that reads the handlers' ignores it.
    fresh: async (clock) => {
      const options: Parameters<typeof createMemoryStore>[0] & { now?: () => number } = { now: clock };
      return createMemoryStore(options);
    },
    close: async () => {},
  };
}

/**
 * The database's clock moved with the world's: a `clock_timestamp()` of our own, ahead of
 * `pg_catalog`'s on the search path, adds the sequence's shift, as a clock jump of the database's host
 * would. (A store that times leases by the database's clock then sees the same pauses as the memory
 * store; one that reads the handlers' clocks never calls it.)
 */
const SHIFTED_CLOCK = [
  'CREATE SCHEMA IF NOT EXISTS model_clock',
  'CREATE TABLE IF NOT EXISTS model_clock.shift (ms bigint NOT NULL)',
  'INSERT INTO model_clock.shift SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM model_clock.shift)',
  `CREATE OR REPLACE FUNCTION model_clock.clock_timestamp() RETURNS timestamptz LANGUAGE sql VOLATILE AS
     $$ SELECT pg_catalog.clock_timestamp() + (SELECT ms FROM model_clock.shift) * interval '1 millisecond' $$`,
];
const SEARCH_PATH = 'public, model_clock, pg_catalog';

/** A throwaway PostgreSQL server; each sequence starts from empty tables (emptied, which is cheaper than a new database). */
export async function postgresBackend(): Promise<Backend> {
  const server: ThrowawayPostgres = await startPostgres();
  const setup = new pg.Client({ connectionString: server.url });
  await setup.connect();
  for (const statement of SHIFTED_CLOCK) await setup.query(statement);
  await setup.end();
  const pool = new pg.Pool({ connectionString: server.url, max: 8, options: `-c search_path=${SEARCH_PATH.replace(/ /g, '')}` });
  pool.on('error', () => {});
  const store = createPostgresStore(pool);
  await store.ready();
  const { rows } = await pool.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE tablename LIKE 'wpb\\_%' AND tablename <> 'wpb_meta'");
  // DELETE, not TRUNCATE: on a few rows it is much cheaper than TRUNCATE's new files and exclusive locks.
  const empty = [...rows.map((row) => `DELETE FROM ${row.tablename}`), 'UPDATE model_clock.shift SET ms = 0'].join('; ');
  return {
    name: 'postgres',
    url: server.url,
    fresh: async () => {
      await pool.query(empty);
      return store;
    },
    shift: async (ms) => {
      await pool.query('UPDATE model_clock.shift SET ms = $1', [ms]);
    },
    close: async () => {
      await pool.end();
      await server.stop();
    },
  };
}

/** PGlite in memory: the PostgreSQL store on one in-process database (one connection, so no parallel statements). */
export async function pgliteBackend(): Promise<Backend> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite();
  await db.exec(`${SHIFTED_CLOCK.join(';\n')};\nSET search_path = ${SEARCH_PATH};`);
  const store = createPostgresStore(db);
  await store.ready();
  const { rows } = await db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE tablename LIKE 'wpb\\_%' AND tablename <> 'wpb_meta'");
  const empty = [...rows.map((row) => `DELETE FROM ${row.tablename};`), 'UPDATE model_clock.shift SET ms = 0;'].join(' ');
  return {
    name: 'pglite',
    fresh: async () => {
      await db.exec(empty);
      return store;
    },
    shift: async (ms) => {
      await db.query('UPDATE model_clock.shift SET ms = $1', [ms]);
    },
    close: () => db.close(),
  };
}

/** The sandbox and the callback relay, shared by every sequence of a test file. */
export interface Stage {
  sandbox: Sandbox;
  backend: Backend;
  relayUrl: string;
  /** A run of one order; `instances` handler processes (two unless told). */
  newRun(options?: { instances?: number }): Promise<Run>;
  close(): Promise<void>;
}

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
    async newRun({ instances = 2 } = {}) {
      const id = `${++runs}-${crypto.randomUUID().slice(0, 8)}`;
      const inbox: string[] = [];
      inboxes.set(`/cb/${id}`, inbox);
      const made: { run?: Run } = {};
      const store = await backend.fresh(() => Date.now() + (made.run?.shift ?? 0));
      const run = new Run(stage, id, store, inbox, instances);
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
        if (typeof answer.data?.booking_id === 'string') run.serviceIds.add(answer.data.booking_id);
      }
      if (this.trap === 'service-book' && url.endsWith('/book')) {
        this.trap = undefined;
        this.freeze('freeze-in-book');
      }
      await this.gate();
      return response;
    };
    return createPaymentHandler({
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
      timeoutMs: 2_000,
      lookupOrder: (order, context) => {
        if (order.id !== run.orderId) return undefined;
        run.pricedAt.set(context.request, run.total);
        // As docs/server.md says: the order's total, and what the merchant's records say is still owed of it.
        const balance = Math.round(run.total * 100) - Math.round(run.merchantPaid() * 100);
        return balance <= 0 ? { paid: true } : { id: run.orderId, amount: run.total, balance: balance / 100 };
      },
      onPaymentResult: async (result) => {
        const call: HookCall = { correlation_id: result.correlation_id, status: result.status, amount: result.amount, returned: false, duplicate: result.duplicate === true };
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
        run.log(`${this.name} hook ${result.status} ${result.correlation_id.slice(0, 8)} (${result.source})${result.duplicate ? ' duplicate' : ''} returned`);
        // A duplicate is money received twice, to refund: it pays nothing of the order (docs/server.md).
        if (result.status === 'SUCCESS' && result.duplicate !== true) run.paidByCorrelation.set(result.correlation_id, result.amount ?? 0);
        if (result.status === 'REVERTED') run.paidByCorrelation.delete(result.correlation_id);
      },
      onError: (error) => {
        if (error instanceof DuplicatePaymentError) run.toldDuplicates.add(error.result.correlation_id);
      },
    });
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
    if (claim !== undefined && result !== 'claimed') this.run.claims.delete(claim);
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

/** fast-check's model: counts the real run keeps up to date, for a step to log (no step's precondition reads them). */
export interface Model {
  received: number;
  callbacks: number;
  frozen: Set<string>;
}

/** One generated sequence against the stage: one order, two tabs, two instances. */
export class Run {
  readonly orderId: string;
  total = 1000;
  shift = 0;
  readonly keys: [string, string];
  readonly handedOut = new Set<string>();
  /** Every booking the service made for this run. */
  readonly serviceIds = new Set<string>();
  readonly received: Array<{ booking_id: string; correlation_id: string }> = [];
  readonly hookCalls: HookCall[] = [];
  /** Results whose hook was frozen past its claim: delivered at least once, not once. */
  readonly atLeastOnce = new Set<string>();
  /** The order's total each request's lookup answered (the total only grows). */
  readonly pricedAt = new WeakMap<Request, number>();
  /** `instance correlation_id status` of each result claim asked and not yet settled, with the world's time it was asked at. */
  readonly claims = new Map<string, number>();
  readonly paidByCorrelation = new Map<string, number>();
  /** Correlation ids onError was told a DuplicatePaymentError of. */
  readonly toldDuplicates = new Set<string>();
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

  merchantPaid(): number {
    let sum = 0;
    for (const amount of this.paidByCorrelation.values()) sum += amount;
    return sum;
  }

  /** The order's bookings at the service (every booking of the run is of its one order). */
  serviceBookings(): SandboxBooking[] {
    return [...this.serviceIds].map((id) => this.stage.sandbox.getBooking(id)).filter((b): b is SandboxBooking => b !== undefined);
  }

  /** Sends a request to an instance; waits a moment for its answer, else leaves it in flight (checked when it comes). */
  async send(instance: Instance, route: string, body: unknown, key?: string): Promise<void> {
    const firedBefore = instance.faultsFired;
    const request = new Request(`http://shop.test/pay/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const flight = (async () => {
      const response = await instance.handler(request);
      const json = (await response.json()) as { code: string; data?: Record<string, unknown> };
      // A killed process's answers never reach anyone.
      if (instance.killed) return;
      this.observe({ route, http: response.status, code: json.code, data: json.data, underFault: instance.faultsFired > firedBefore }, key, this.pricedAt.get(request));
    })();
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
  private observe(answer: Answer, key: string | undefined, pricedTotal: number | undefined): void {
    this.log(`${answer.route}${key ? ` (${key.slice(0, 12)})` : ''} -> ${answer.http} ${answer.code} ${answer.data ? JSON.stringify(answer.data).slice(0, 120) : ''}`);
    this.answers.push(answer);
    const bookings = this.serviceBookings();
    this.breaks.push(...neverCalledPaid(answer, bookings, pricedTotal ?? this.total), ...storeFault503(answer));
    if (answer.route === 'book' && typeof answer.data?.booking_id === 'string' && typeof answer.data.correlation_id === 'string') {
      if (!this.handedOut.has(answer.data.booking_id)) {
        this.handedOut.add(answer.data.booking_id);
        this.received.push({ booking_id: answer.data.booking_id, correlation_id: answer.data.correlation_id });
        this.model.received = this.received.length;
      }
    }
  }

  /** The shopper pays, fails or cancels at the sandbox's wallet page; the callback lands at the relay. */
  async atService(bookingId: string, action: 'pay' | 'fail' | 'cancel'): Promise<void> {
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
    const reported = new Set(returned.filter((call) => call.duplicate && this.toldDuplicates.has(call.correlation_id)).map((call) => call.correlation_id));
    const delivered = new Set(returned.map((call) => call.correlation_id));
    this.breaks.push(...onePayable(bookings, this.handedOut), ...oneSuccess(bookings, this.total, reported, delivered));
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
    this.log(`${instance.name} reconcile() -> ${JSON.stringify(report)}; at the service: ${this.serviceBookings().map((b) => `${b.correlation_id.slice(0, 8)} ${b.status}`).join(', ')}`);
    this.breaks.push(...reconciled(this.serviceBookings(), this.hookCalls));
    this.checkStep();
  }

  /** The end of a sequence: heal, let the clocks pass the leases, reconcile once, check everything. */
  async finish(): Promise<void> {
    await this.heal();
    this.checkStep();
    await this.reconcileAndCheck(this.instances[0]!);
  }

  close(): void {
    for (const instance of this.instances) instance.kill();
    this.onClose();
  }
}
