/**
 * The checker's clauses on results out of order and on reconciliation: a replayed SUCCESS after its
 * refund, a FAILED after a SUCCESS, and a SUCCESS whose callback never came.
 */
import { spawn } from 'node:child_process';
import { codeOf, clip, describe } from '../exchange.js';
import { ClauseSkipped, fail, type Steps } from '../steps.js';
import { callbackOf, sendCallback } from './callbacks.js';
import { freshBooking, intentRecord, pay, paidBooking } from './steps.js';

/** How long the proxy's reconciliation may run, and how much of its output is kept. */
const RECONCILE_TIMEOUT_MS = 60_000;
const RECONCILE_MAX_OUTPUT = 64 * 1024;

/** Waits until the sandbox has delivered (or given up on) a callback after the `seen` attempts so far. */
async function nextCallback(s: Steps, bookingId: string, seen: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const attempts = s.sandbox.callbackAttempts().filter((a) => a.booking_id === bookingId).slice(seen);
    const last = attempts.at(-1);
    if (last && (last.delivered || last.attempt >= 3)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A paid booking the proxy knows is paid: its callback delivered, and a status asked. */
async function settledPayment(s: Steps) {
  const booking = await paidBooking(s);
  await s.post('status', booking);
  return booking;
}

/** `success-replay-after-refund`: a captured SUCCESS sent again after the REVERTED pays nothing again. */
export async function successReplayAfterRefund(s: Steps): Promise<void> {
  const booking = await settledPayment(s);
  const captured = await callbackOf(s, booking.service, 'SUCCESS');
  const seen = s.sandbox.callbackAttempts().filter((a) => a.booking_id === booking.booking_id).length;
  s.sandbox.revert(booking.booking_id);
  await nextCallback(s, booking.booking_id, seen);
  await s.post('status', booking);
  const replay = await sendCallback(s, booking.service.callback_url, captured);
  const again = await s.book('app', booking.order, s.key());
  if (codeOf(again) === 'IP-412') {
    fail(
      `the order was refunded (REVERTED, delivered), then the captured SUCCESS callback replayed (answered ${replay.status || replay.error}) made it paid again: ` +
        `a final status never goes back, and a REVERTED is the last word; ${describe(again)}`,
    );
  }
}

/** `failed-after-success`: a signed FAILED for a paid booking does not unpay its order. */
export async function failedAfterSuccess(s: Steps): Promise<void> {
  s.relyOn('paid-order-refused', 'a paid order from the IP-412 of a new key');
  const booking = await settledPayment(s);
  const late = await sendCallback(s, booking.service.callback_url, await callbackOf(s, booking.service, 'FAILED'));
  const again = await s.book('app', booking.order, s.key());
  if (codeOf(again) !== 'IP-412') {
    fail(
      `after a SUCCESS, a signed FAILED callback for the same booking (answered ${late.status || late.error}) made the order payable again: ` +
        `only a REVERTED may follow a SUCCESS; expected IP-412 for a new key; ${describe(again)}`,
    );
  }
}

/** Runs the proxy's reconciliation once: the shell command (its whole process group, bounded), or the function given from code. */
function runReconcile(reconcile: string | (() => Promise<unknown>)): Promise<void> {
  if (typeof reconcile === 'function') return reconcile().then(() => undefined);
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', reconcile], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      if (output.length < RECONCILE_MAX_OUTPUT) output += chunk.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      kill();
    }, RECONCILE_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`--reconcile-command "${reconcile}" could not start: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever it left running in its group goes with it.
      kill();
      if (code === 0 && !killed) resolve();
      else reject(new Error(`--reconcile-command "${reconcile}" failed (${killed ? `killed after ${RECONCILE_TIMEOUT_MS} ms` : `exit ${String(code)}`}): ${clip(output, 300)}`));
    });
  });
}

/** `reconcile-asks-service`: a payment whose callback was lost is settled by the proxy's reconciliation. */
export async function reconcileAsksService(s: Steps): Promise<string> {
  const reconcile = s.options.reconcile;
  if (reconcile === false || reconcile === undefined) {
    throw new ClauseSkipped('the backend has no reconciliation (--no-reconcile): payments whose shopper never came back stay unsettled');
  }
  s.relyOn('paid-order-refused', 'a paid order from the IP-412 of a new key');
  const booking = await freshBooking(s);
  // The scenario loses the callback at the service; the checker's own hold stays, for a sandbox that would not.
  intentRecord(s).dropped.add(booking.booking_id);
  await pay(s, booking.booking_id, 'WPS-007');
  const mark = intentRecord(s).serviceLog.length;
  try {
    await runReconcile(reconcile);
  } catch (error) {
    fail((error as Error).message);
  }
  const asked = intentRecord(s).serviceLog.slice(mark).some((line) => line.startsWith(`status asked for booking ${JSON.stringify(booking.booking_id)}`));
  if (!asked) {
    fail(`the booking ${booking.booking_id} was paid and its SUCCESS callback lost, and the proxy's reconciliation did not ask the service for its status`);
  }
  const again = await s.book('app', booking.order, s.key());
  if (codeOf(again) !== 'IP-412') fail(`after the reconciliation asked for ${booking.booking_id} (SUCCESS), the order is not paid: a new key must be IP-412; ${describe(again)}`);
  return 'asked the service during the reconciliation';
}
