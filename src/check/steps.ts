/**
 * The steps the checker's clauses are made of: requests to the proxy (recorded), fresh orders and keys,
 * the service's record of a booking, paying at the sandbox (the signed and forged callbacks are
 * esewa-intent/callbacks.ts's).
 */
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../sandbox/index.js';
import { ATTEMPT_HEADER, IDEMPOTENCY_HEADER, type StatusRequest } from '../protocol/contract.js';
import { codeOf, dataOf, describe, printable, Recorder, type Exchange } from './exchange.js';
import type { StepOptions } from './options.js';

/** Thrown inside a clause: the proxy broke it. */
export class ClauseFailure extends Error {}

/** Thrown inside a clause that cannot run here (no callback may go where the proxy points); says why. */
export class ClauseSkipped extends Error {}

/** What a clause does with the run's steps: it passes when it returns (a note, maybe) and fails when it throws. */
export type ClauseBody = (steps: Steps) => Promise<string | void>;

/** Fails the clause with what was sent and what came back. */
export const fail = (message: string): never => {
  throw new ClauseFailure(message);
};

/**
 * What the element keeps of a booking and sends back with `/status` and `/cancel`: the ids, the order
 * the booking was made for, and the book answer's receipt when it gave one.
 */
export interface HeldBooking {
  booking_id: string;
  correlation_id: string;
  order: unknown;
  receipt?: string | undefined;
}

/** One run's state and steps: the recorder, the order counter, the sandbox. */
export class Steps {
  readonly http: Recorder;
  readonly endpoint: string;
  readonly runId = randomUUID().slice(0, 8);
  orderCount = 0;
  attemptCount = 0;
  /** The origins callbacks may go to: the endpoint's and those named by `callbackOrigins`. */
  readonly callbackOrigins: ReadonlySet<string>;
  sandbox!: Sandbox;
  /** Clauses failed so far: a clause that observes through another's rule is not judged when that one failed. */
  readonly failedClauses = new Set<string>();
  /** The sandbox scenarios (`WPS-…`) the running clause drove, in order; emptied before each clause. */
  driven: string[] = [];

  constructor(readonly options: StepOptions) {
    this.endpoint = options.endpoint.replace(/\/+$/, '');
    this.http = new Recorder(options.requestTimeoutMs);
    this.callbackOrigins = new Set([new URL(options.endpoint).origin, ...(options.callbackOrigins ?? []).map((o) => new URL(o).origin)]);
  }

  /** Whether the checker (and its sandbox) may send a callback to `url`. */
  callbackAllowed(url: string): boolean {
    try {
      return this.callbackOrigins.has(new URL(url).origin);
    } catch {
      return false;
    }
  }

  /** Skips the clause when it observes through `clause`'s rule and that clause failed (it names the fault). */
  relyOn(clause: string, what: string): void {
    if (this.failedClauses.has(clause)) throw new ClauseSkipped(`not judged: it reads ${what}, and ${clause} failed`);
  }


  // ---- the steps clauses are made of ----

  order(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { id: `${this.options.orderPrefix}${this.runId}-${++this.orderCount}`, ...extra };
  }

  key(): string {
    return `check-${randomUUID()}`;
  }

  url(route: string): string {
    return `${this.endpoint}/${route}`;
  }

  /** A book request as the element sends it: its headers (the key, when given, and an attempt id) and body. */
  book(channel: string, order: unknown, key: string | undefined, extra: Record<string, unknown> = {}): Promise<Exchange> {
    const attempt = `check-${this.runId}-${++this.attemptCount}`;
    return this.http.send(this.url('book'), {
      headers: { accept: 'application/json', [ATTEMPT_HEADER]: attempt, ...(key === undefined ? {} : { [IDEMPOTENCY_HEADER]: key }) },
      body: { channel, order, ...extra },
    });
  }

  /**
   * A status or cancel request as the element sends it (the body of the booking client's `ids()`), for
   * `held`; `ids` replaces its ids (a clause that asks with ids that do not belong together).
   */
  post(route: 'status' | 'cancel', held: HeldBooking, ids: Partial<Pick<HeldBooking, 'booking_id' | 'correlation_id'>> = {}): Promise<Exchange> {
    const body: StatusRequest = {
      booking_id: ids.booking_id ?? held.booking_id,
      correlation_id: ids.correlation_id ?? held.correlation_id,
      order: held.order as StatusRequest['order'],
      ...(held.receipt === undefined ? {} : { receipt: held.receipt }),
    };
    return this.http.send(this.url(route), { headers: { accept: 'application/json' }, body });
  }

  bookingCount(): number {
    return this.sandbox.listBookings().length;
  }

  /** A successful book answer's ids; fails the clause otherwise. */
  booked(exchange: Exchange, what = 'a booking'): { booking_id: string; correlation_id: string; data: Record<string, unknown> } {
    if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') fail(`expected 200 IP-201 for ${what}; ${describe(exchange)}`);
    const data = dataOf(exchange);
    const { booking_id: bookingId, correlation_id: correlationId } = data;
    if (typeof bookingId !== 'string' || typeof correlationId !== 'string' || !bookingId || !correlationId) {
      fail(`data.booking_id and data.correlation_id must be non-empty strings; ${describe(exchange)}`);
    }
    return { booking_id: bookingId as string, correlation_id: correlationId as string, data };
  }

  expectCode(exchange: Exchange, status: number, code: string, why: string): void {
    if (exchange.status !== status || codeOf(exchange) !== code) fail(`${why}: expected ${status} ${code}; ${describe(exchange)}`);
  }

}

/** The shopper's browser arriving at a return address: its HTTP status (a redirect is not followed). */
export async function visit(s: Steps, url: string): Promise<number> {
  if (!s.callbackAllowed(url)) fail(`the return address ${printable(url)} is not on --endpoint's origin (PUBLIC_URL must be the proxy's own)`);
  const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  await response.body?.cancel();
  return response.status;
}

/** Whether the proxy calls the order paid (`/order`); fails the clause when it cannot say. */
export async function orderIsPaid(s: Steps, order: Record<string, unknown>): Promise<boolean> {
  const exchange = await s.http.send(s.url('order'), { headers: { accept: 'application/json' }, body: { order } });
  if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') fail(`/order: expected 200 IP-201; ${describe(exchange)}`);
  return dataOf(exchange).paid === true;
}

/** The proxy's `/status` of a booking; fails the clause unless it answers one. */
export async function statusOf(s: Steps, booking: HeldBooking): Promise<string> {
  const exchange = await s.post('status', booking);
  if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') fail(`/status: expected 200 IP-201; ${describe(exchange)}`);
  return String(dataOf(exchange).status);
}
