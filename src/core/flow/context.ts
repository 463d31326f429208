/**
 * What one payment flow holds, as an explicit context, and the small steps every part of the flow
 * takes over it: show a state, show a failure, start a run, report a funnel step, keep a booking.
 *
 * The machine (`machine.ts`) builds one context and hands it to the parts that do its jobs: the
 * attempts and their bookings (`attempts.ts`), the legs that leave the page (`legs.ts`), the wait for
 * a kept booking (`waiting.ts`), the cancel and abandon paths (`abandon.ts`) and the ends of a payment
 * (`outcome.ts`). Each part is plain functions over this context; none holds state of its own.
 */
import type { PaymentStatus } from '../../protocol/contract.js';
import type { BookingClient } from '../booking-client.js';
import type { KeptBooking } from '../session-store.js';
import type { PaymentSettings, SettingsResult } from '../settings.js';
import type { PaymentPath } from '../strategies.js';
import { failureReport, funnelStep, type Attempt, type FailureExtra, type Funnel } from './booking.js';
import type { FlowDeps } from './deps.js';
import { FlowRuns, type Run } from './runs.js';
import { IDLE_STATE, flowState, type FlowErrorKind, type FlowEvent, type FlowEventMap, type FlowState, type FlowStateName } from './state.js';

/**
 * The two ways back into the flow that its lower parts need (a retry books again, a failure checks
 * again), wired by the machine so that no part imports one that imports it.
 */
export interface FlowReentry {
  /** Checks `kept`'s status (`checkNumber` picks the backoff; `returning`: the shopper just came back). */
  verify(kept: KeptBooking, checkNumber: number, returning?: boolean): void;
  /** Pays with `settings` (a kept booking is checked first); `pressed`: the shopper acted again. */
  pay(settings: PaymentSettings, pressed: boolean, path?: PaymentPath): void;
}

/** One flow's state and what it was given: the parts read and change it, the machine owns it. */
export interface FlowContext {
  readonly deps: FlowDeps;
  /** The live action and its timer: a newer action makes older answers stale. */
  readonly runs: FlowRuns;
  readonly clients: WeakMap<PaymentSettings, BookingClient>;
  readonly again: FlowReentry;
  state: FlowState;
  attempt: Attempt | null;
  retry: (() => void) | null;
  /** The kept booking the shop's server answered `IP-404` for once: a second one ends it. */
  unconfirmed: string | null;
  /** The settings of the next action (the machine's `configure`). */
  read: SettingsResult | undefined;
  /** The funnel of the attempt under way (its steps share its id); `over` once it ended. */
  funnel: Funnel & { over?: boolean };
  /** A booking this page cancelled itself: its CANCELED is the shopper's "cancel", not the app's. */
  cancelledHere: string | null;
}

/** A new flow's context: idle, no attempt, the element's funnel (or a new one). */
export function flowContext(deps: FlowDeps, again: FlowReentry): FlowContext {
  return {
    deps,
    runs: new FlowRuns(deps),
    clients: new WeakMap(),
    again,
    state: IDLE_STATE,
    attempt: null,
    retry: null,
    unconfirmed: null,
    read: undefined,
    funnel: deps.funnel ?? { id: crypto.randomUUID(), at: deps.clock.now() },
    cancelledHere: null,
  };
}

/** Shows a state and tells the host. */
export function setState(ctx: FlowContext, name: FlowStateName, booking: KeptBooking | null, extra: Partial<Omit<FlowState, 'name' | 'busy' | 'booking'>> = {}): void {
  ctx.state = flowState(name, booking, extra);
  ctx.deps.onChange(ctx.state);
}

/** How a failure is shown, beside its kind and message. */
export interface FailOptions {
  /** The booking the state keeps (its panel stays usable). */
  booking?: KeptBooking | null;
  /** The error event's details (code, HTTP status, refusal reason). */
  extra?: FailureExtra;
  /** "Try again" is offered. */
  canRetry?: boolean;
  /** "Start again" (a new attempt, a new key) is offered. */
  canStartAgain?: boolean;
  /** The state shown (`error`, or `done` when the way back was refused). */
  name?: FlowStateName;
  /** The final status, when the payment ended. */
  outcome?: PaymentStatus | null;
}

/**
 * Shows a failure, then reports it: listeners of the error event see the element already showing it.
 * By default the state is `error`, with no booking, no way forward offered and no outcome.
 */
export function fail(ctx: FlowContext, kind: FlowErrorKind, message: string, options: FailOptions = {}): void {
  const { booking = null, extra = {}, canRetry = false, canStartAgain = false, name = 'error', outcome = null } = options;
  const { shown, event } = failureReport(kind, message, extra);
  setState(ctx, name, booking, { canRetry, canStartAgain, error: shown, outcome });
  ctx.deps.emit(event);
}

/** Starts a new action: the previous one's requests are aborted, its answers and timers dropped. */
export function begin(ctx: FlowContext, name?: FlowStateName, booking: KeptBooking | null = null): Run {
  const run = ctx.runs.next();
  if (name) setState(ctx, name, booking);
  return run;
}

/** True while no newer action started: an answer of a stale run is dropped. */
export function live(ctx: FlowContext, run: Run): boolean {
  return ctx.runs.live(run);
}

/** The booking client of `settings`, one per settings snapshot. */
export function clientFor(ctx: FlowContext, settings: PaymentSettings): BookingClient {
  let client = ctx.clients.get(settings);
  if (!client) ctx.clients.set(settings, (client = ctx.deps.client(settings)));
  return client;
}

/** The booking the panel acts on, when nothing is running. */
export function idleBooking(ctx: FlowContext): KeptBooking | null {
  return ctx.state.busy ? null : ctx.state.booking;
}

/** Reports a funnel step of the attempt under way (or of `kept`'s attempt, after a reload). */
export function step<K extends 'pressed' | 'left' | 'returned' | 'confirmed' | 'abandoned'>(
  ctx: FlowContext,
  type: K,
  detail: Omit<FlowEventMap[K], 'attempt_id' | 'elapsed_ms'>,
  kept?: KeptBooking,
): void {
  const funnel = kept?.attempt_id && kept.attempt_at !== undefined ? { id: kept.attempt_id, at: kept.attempt_at } : ctx.funnel;
  ctx.deps.emit({ type, ...funnelStep(funnel, ctx.deps.clock.now()), ...detail } as unknown as FlowEvent);
}

/** The funnel of `kept` ended: a later press starts a new one. */
export function funnelOver(ctx: FlowContext, kept: KeptBooking): void {
  if (!kept.attempt_id || kept.attempt_id === ctx.funnel.id) ctx.funnel.over = true;
}

/** Keeps a booking (the attempt that made it is done: its key is not used again). */
export function keep(ctx: FlowContext, kept: KeptBooking): void {
  ctx.attempt = null;
  ctx.deps.store.setAttempt(kept.settings.storageKey, null);
  ctx.deps.store.save(kept.settings.storageKey, kept);
}
