/**
 * The checker's steps on the intent service's side, against the kit on loopback and a real sandbox: a
 * fresh app booking comes with the service's record, paying it on the wallet page settles it and its
 * callback, and each step fails, naming why, for a booking the service never made.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { atService, callbackOutcome, callbackTarget, deeplinkOf, freshBooking, intentRecord, noteServiceLine, paidBooking, pay, willSend } from '../../../../src/check/esewa-intent/steps.js';
import type { Exchange } from '../../../../src/check/exchange.js';
import { ClauseFailure, ClauseSkipped, Steps } from '../../../../src/check/steps.js';
import { startSandbox, type Sandbox, type SandboxBooking } from '../../../../src/sandbox/index.js';
import { AMOUNT, PREFIX, startKitProxy } from '../support.js';

let sandbox: Sandbox;
let proxy: Awaited<ReturnType<typeof startKitProxy>>;
before(async () => {
  sandbox = await startSandbox({ callbackRetry: { attempts: 1, baseDelayMs: 10 } });
  proxy = await startKitProxy(Number(new URL(sandbox.baseUrl).port));
});
after(async () => {
  await proxy?.close();
  await sandbox?.close();
});

function steps(): Steps {
  const made = new Steps({ endpoint: proxy.endpoint, sandboxPort: 1, orderPrefix: PREFIX, amount: AMOUNT });
  made.sandbox = sandbox;
  return made;
}

/** An exchange as the recorder would keep it. */
const answered = (json: unknown): Exchange => ({ method: 'POST', url: `${proxy.endpoint}/book`, headers: {}, body: '{}', status: 200, answerHeaders: new Headers(), text: JSON.stringify(json), json });

test("a fresh booking comes with the service's record; paying it on the wallet page settles it and its callback", async () => {
  const s = steps();
  const booking = await freshBooking(s);
  assert.equal(booking.service.booking_id, booking.booking_id);
  assert.equal(booking.service.status, 'BOOKED');
  assert.equal(deeplinkOf(s, booking.service), `${sandbox.linksUrl}/pay/${booking.booking_id}`);
  await pay(s, booking.booking_id);
  assert.equal(sandbox.getBooking(booking.booking_id)?.status, 'SUCCESS');
  const attempts = await callbackOutcome(s, booking.booking_id);
  assert.equal(attempts.at(-1)?.delivered, true, JSON.stringify(attempts));
  const paid = await paidBooking(s);
  assert.equal(paid.service.status, 'SUCCESS');
  assert.deepEqual(s.driven, ['WPS-001']);
});

test('atService fails the clause for a booking the service never made, or with another correlation id', async () => {
  const s = steps();
  const failure = (run: () => unknown, message: RegExp) => assert.throws(run, (e: Error) => e instanceof ClauseFailure && message.test(e.message));
  failure(() => atService(s, answered({}), 'B-none', 'C'), /the answer names booking B-none, which the service never made/);
  const { booking_id } = await freshBooking(s);
  failure(() => atService(s, answered({}), booking_id, 'C-other'), new RegExp(`the answer's correlation_id is not the service's for ${booking_id}`));
});

test('the steps answer for unknown bookings: no callback to wait for, a payment that fails names its scenario', async () => {
  const s = steps();
  assert.deepEqual(await callbackOutcome(s, 'B-none', 100), [], 'no booking, no callback to wait for');
  await assert.rejects(pay(s, 'B-none'), /paying B-none at the sandbox left it undefined/);
  assert.deepEqual(s.driven, ['WPS-001'], 'the scenario is named even when the payment fails');
  assert.equal(deeplinkOf(s, { booking_id: 'B-7' } as SandboxBooking), `${sandbox.linksUrl}/pay/B-7`);
});

test('callbackTarget skips the clause for a callback URL the checker may not send to, naming it printably', () => {
  const booking = { booking_id: 'B-9', callback_url: `${proxy.endpoint}/callback` } as SandboxBooking;
  assert.equal(callbackTarget(steps(), booking), booking.callback_url);
  const named = new Steps({ endpoint: proxy.endpoint, sandboxPort: 1, orderPrefix: PREFIX, amount: AMOUNT, callbackOrigins: ['https://public.example'] });
  assert.throws(() => callbackTarget(named, { ...booking, callback_url: 'https://other.example/cb' }), (e: Error) => e instanceof ClauseSkipped && /nor one named by --callback-origin/.test(e.message));
  assert.throws(() => callbackTarget(steps(), { ...booking, callback_url: 'https://other.example/\u001b' }), (e: Error) => e instanceof ClauseSkipped && /other\.example\/\\u001b is not on --endpoint's origin, so/.test(e.message));
});

test("callbacks go only to the endpoint's origin and those named, never for a dropped booking; each run keeps its own record", () => {
  const run = new Steps({ endpoint: 'http://127.0.0.1:9/api/pay', sandboxPort: 1, orderPrefix: PREFIX, amount: AMOUNT, callbackOrigins: ['https://public.example'] });
  const booking = { booking_id: 'B-9', callback_url: 'http://127.0.0.1:9/api/pay/callback' } as SandboxBooking;
  assert.ok(willSend(run, booking));
  assert.ok(willSend(run, { ...booking, callback_url: 'https://public.example/cb' }));
  assert.ok(!willSend(run, { ...booking, callback_url: 'https://other.example/cb' }));
  intentRecord(run).dropped.add('B-9');
  assert.ok(!willSend(run, booking));
  assert.ok(willSend(new Steps(run.options), booking), "another run's dropped bookings are its own");
});

test('the service log keeps its last lines', () => {
  const run = steps();
  for (let i = 0; i < 2001; i++) noteServiceLine(run, `line ${i}`);
  assert.equal(intentRecord(run).serviceLog.length, 1001);
  assert.equal(intentRecord(run).serviceLog.at(-1), 'line 2000');
});
