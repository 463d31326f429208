/**
 * A flow context over scripted parts, for the unit tests of the flow's parts (pure logic: the element
 * tests run the whole flow against the real proxy). The re-entries are recorded, not wired, so a
 * part's test sees where it hands back to the machine without running the part behind it.
 */
import type { BookingClient } from '../../../../src/core/booking-client.js';
import { flowContext, type FlowContext } from '../../../../src/core/flow/context.js';
import type { FlowDeps, FlowTimings } from '../../../../src/core/flow/deps.js';
import type { FlowEvent, FlowState } from '../../../../src/core/flow/state.js';
import type { KeptBooking } from '../../../../src/core/session-store.js';
import type { PaymentSettings } from '../../../../src/core/settings.js';
import type { BookRequest, BookResult, CancelResult, StatusRequest, StatusResult } from '../../../../src/protocol/contract.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { createMemoryBookingStore } from '../../../support/memory-store.js';
import { recordingNavigator } from '../../../support/proxy.js';
import { settingsOf } from '../../../support/settings.js';

/** One scripted answer: a function, so a rejection is made only when it is asked for. */
export type Answer<T> = () => Promise<T>;

export const answer = <T>(value: T): Answer<T> => () => Promise.resolve(value);
export const rejects = (error: unknown): Answer<never> => () => Promise.reject(error);
/** An answer that never comes (the request hangs until the test is over). */
export const hangs = <T>(): Answer<T> => () => new Promise<T>(() => undefined);

/** A client answering from queues (the last answer of a queue repeats), recording every request. */
export function scriptedClient() {
  const queues = { book: [] as Answer<BookResult>[], status: [] as Answer<StatusResult>[], cancel: [] as Answer<CancelResult>[] };
  const calls = { book: [] as { request: BookRequest; key: string; attemptId: string | undefined }[], status: [] as StatusRequest[], cancel: [] as StatusRequest[] };
  const signals: (AbortSignal | undefined)[] = [];
  const next = <T>(name: string, queue: Answer<T>[]): Promise<T> => {
    const scripted = queue.length > 1 ? queue.shift()! : queue[0];
    if (!scripted) throw new Error(`no scripted answer for ${name}`);
    return scripted();
  };
  const made: PaymentSettings[] = [];
  const client = (settings: PaymentSettings): BookingClient => {
    made.push(settings);
    return {
      book: (request, key, signal, attemptId) => (calls.book.push({ request, key, attemptId }), signals.push(signal), next('book', queues.book)),
      status: (request, signal) => (calls.status.push(request), signals.push(signal), next('status', queues.status)),
      cancel: (request, signal) => (calls.cancel.push(request), signals.push(signal), next('cancel', queues.cancel)),
      order: () => Promise.reject(new Error('the flow asked /order')),
    };
  };
  return { client, queues, calls, signals, made };
}

/** A context over scripted parts, with what it did recorded. */
export function contextFixture(overrides: Partial<PaymentSettings> = {}, timings: Partial<FlowTimings> = {}) {
  const clock = new FakeClock();
  const store = createMemoryBookingStore();
  const navigator = recordingNavigator();
  const scripted = scriptedClient();
  const events: FlowEvent[] = [];
  const states: FlowState[] = [];
  /** The state shown when each event was reported. */
  const shownAtEvent: FlowState[] = [];
  const host = { visible: true, preventNavigation: false, hostTakes: false, keys: 0 };
  const again = { verify: [] as { kept: KeptBooking; checkNumber: number; returning: boolean | undefined }[], pay: [] as { settings: PaymentSettings; pressed: boolean }[] };
  const deps: FlowDeps = {
    navigator: () => navigator,
    store,
    clock,
    client: scripted.client,
    isVisible: () => host.visible,
    newKey: () => `key-${++host.keys}`,
    timings: () => ({ fallbackDelayMs: 1500, pollDelaysMs: [2000, 4000], finalCheckAfterMs: 300_000, ...timings }),
    emit: (event) => {
      events.push(event);
      shownAtEvent.push(ctx.state);
      return !((event.type === 'navigate' && host.preventNavigation) || (event.type === 'webview' && host.hostTakes));
    },
    onChange: (state) => void states.push(state),
    funnel: { id: 'funnel-1', at: clock.now() },
  };
  // The host's emit reads the context's state: it is only called once the context exists.
  const ctx: FlowContext = flowContext(deps, {
    verify: (kept, checkNumber, returning) => void again.verify.push({ kept, checkNumber, returning }),
    pay: (settings, pressed) => void again.pay.push({ settings, pressed }),
  });
  const settings = settingsOf(overrides);
  /** A booking as the flow keeps it, made now, for these settings. */
  const kept = (booking: Partial<KeptBooking> = {}): KeptBooking => ({
    booking_id: 'B1',
    correlation_id: 'c-B1',
    channel: 'app',
    idempotency_key: 'k0',
    started_at: clock.now(),
    settings,
    attempt_id: 'funnel-1',
    attempt_at: clock.now(),
    ...booking,
  });
  const types = () => events.map((event) => event.type);
  const names = () => states.map((state) => state.name);
  return { ctx, deps, clock, store, navigator, scripted, events, states, shownAtEvent, host, again, settings, kept, types, names };
}
