/**
 * A payment's attempts: which one a press runs (a kept booking is checked instead, a paid order shows
 * paid), its booking with its Idempotency-Key, and the strategy of its path, which the legs
 * (`legs.ts`) carry on from the booking's answer. The switches to a new attempt live here too: a new
 * hand-off code, and paying on the web instead of in the app.
 */
import { IDEMPOTENCY_CONFLICT, ORDER_ALREADY_PAID, isFinalStatus, type Channel } from '../../protocol/contract.js';
import type { PaymentSettings } from '../settings.js';
import { STRATEGIES, type BookedAttempt, type PaymentPath, type StrategyContext } from '../strategies.js';
import { bookedAttempt, hasCode, ids, isProcessed, nextAttempt, paidUrl, type Attempt } from './booking.js';
import { begin, clientFor, idleBooking, live, setState, type FlowContext } from './context.js';
import { followWebPayment, handOver, openApp, showCode } from './legs.js';
import { failRequest, finish } from './outcome.js';
import type { Run } from './runs.js';
import { verify } from './waiting.js';

/** Pays with `settings` on `path`: a kept booking is checked, else the attempt's strategy runs. */
export function pay(ctx: FlowContext, settings: PaymentSettings, pressed: boolean, path: PaymentPath = settings.environment): void {
  const { store } = ctx.deps;
  const kept = store.load(settings.storageKey, settings);
  // A booking is already in flight: asking again must not book twice.
  if (kept) return verify(ctx, kept, 0);
  // This tab paid this order already: say so instead of offering to pay again.
  const paid = store.paid(settings.storageKey);
  if (paid) return setState(ctx, 'paid', null, { paidUrl: paid.url });
  // A retry keeps the attempt (its key); a fresh press or another order may start a new one.
  const attempt = (ctx.attempt = nextAttempt(ctx.attempt, settings, path, pressed, ctx.deps));
  runAttempt(ctx, begin(ctx), attempt);
}

/** Runs `attempt`'s strategy in `run`. */
function runAttempt(ctx: FlowContext, run: Run, attempt: Attempt): void {
  void STRATEGIES[attempt.environment].start(strategyContext(ctx, run, attempt));
}

/** What a strategy may ask of the flow, for one attempt in one run. */
export function strategyContext(ctx: FlowContext, run: Run, attempt: Attempt): StrategyContext {
  return {
    book: (channel) => book(ctx, run, attempt, channel),
    followWebPayment: (booked) => followWebPayment(ctx, run, booked),
    openApp: (booked) => openApp(ctx, run, booked),
    showCode: (booked) => showCode(ctx, run, booked),
    handOver: () => handOver(ctx, attempt),
  };
}

/**
 * Books `attempt` on `channel`: resolves the booking to keep, or `null` when the run went stale or the
 * booking failed (the flow already shows why, or shows the order paid).
 */
export async function book(ctx: FlowContext, run: Run, attempt: Attempt, channel: Channel): Promise<BookedAttempt | null> {
  const { key, environment, settings } = attempt;
  const { deps } = ctx;
  deps.store.setAttempt(settings.storageKey, `${environment}:${key}`);
  setState(ctx, 'booking', null);
  try {
    const handoff = environment === 'handoff';
    const { order, wallet } = settings;
    const result = await clientFor(ctx, settings).book({ channel, order, ...(wallet && { wallet }), ...(handoff && { handoff }) }, key, run.signal, ctx.funnel.id);
    if (!live(ctx, run)) return null;
    const { event, ...booked } = bookedAttempt(attempt, channel, result, deps.clock.now(), ctx.funnel);
    deps.emit(event);
    return booked;
  } catch (error) {
    if (!live(ctx, run)) return null;
    // The key is bound to another body on the server (the order changed since it was kept): this
    // attempt cannot go on with it. A new key, once, without asking the shopper.
    if (hasCode(error, IDEMPOTENCY_CONFLICT) && !attempt.renewed) {
      ctx.attempt = { key: deps.newKey(), environment, settings, renewed: true };
      return book(ctx, run, ctx.attempt, channel);
    }
    if (hasCode(error, ORDER_ALREADY_PAID)) {
      // Paid already (in another tab, or before): nothing to book, nothing to retry.
      ctx.attempt = null;
      deps.store.setAttempt(settings.storageKey, null);
      const url = paidUrl(settings);
      deps.store.setPaid(settings.storageKey, { booking_id: '', url });
      setState(ctx, 'paid', null, { paidUrl: url });
      return null;
    }
    failRequest(ctx, error, () => pay(ctx, settings, false), null);
    return null;
  }
}

/** "Get a new code": the hand-off's booking expired unpaid; a new attempt (a new key) books again. */
export function newCode(ctx: FlowContext): void {
  const booking = ctx.state.name === 'handoff-expired' ? ctx.state.booking : null;
  if (!booking) return;
  ctx.deps.store.clear(booking.settings.storageKey);
  ctx.attempt = { key: ctx.deps.newKey(), environment: 'handoff', settings: booking.settings };
  runAttempt(ctx, begin(ctx), ctx.attempt);
}

/**
 * "Pay on the web instead": the app booking may already have been paid, so its status is asked
 * first; an open app booking is cancelled before a new web attempt, so the shopper cannot pay twice.
 */
export function payOnWeb(ctx: FlowContext): void {
  const booking = idleBooking(ctx);
  if (!booking) return;
  const run = begin(ctx, 'verifying', booking);
  const settings: PaymentSettings = { ...booking.settings, environment: 'desktop' };
  const client = clientFor(ctx, booking.settings);
  client
    .status(ids(booking), run.signal)
    .then(async (result) => {
      if (!live(ctx, run)) return;
      if (result.status === 'SUCCESS') return finish(ctx, booking, 'SUCCESS');
      if (!isFinalStatus(result.status)) {
        try {
          await client.cancel(ids(booking), run.signal);
        } catch (error) {
          if (live(ctx, run) && isProcessed(error)) return verify(ctx, booking, 0);
          throw error;
        }
      }
      if (!live(ctx, run)) return;
      ctx.deps.store.clear(settings.storageKey);
      ctx.attempt = { key: ctx.deps.newKey(), environment: 'desktop', settings };
      runAttempt(ctx, run, ctx.attempt);
    })
    .catch((error: unknown) => live(ctx, run) && failRequest(ctx, error, () => payOnWeb(ctx), booking));
}
