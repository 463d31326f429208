/**
 * The `/order` clauses alone. `order-paid`: it passes on the kit, and fails a proxy whose `/order` and
 * `/book` give "paid" two meanings (a fresh tab told paid while a new key books the order again).
 * `order-paid-before-callback`: it passes on the kit, which asks the service about an open booking, and
 * fails a proxy that answers `/order` from records the held-back callback never reached.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderPaid, orderPaidBeforeCallback } from '../../../../src/check/esewa-intent/clauses-order.js';
import { ClauseFailure, Steps } from '../../../../src/check/steps.js';
import { willSend } from '../../../../src/check/esewa-intent/steps.js';
import { startSandbox } from '../../../../src/sandbox/index.js';
import { AMOUNT, freePort, PREFIX, startKitProxy, type Fetch } from '../support.js';

/** Runs the clause against the kit (with `wrap` in front of it) and answers its failure, if any. */
async function clauseOn(wrap?: (kit: Fetch) => Fetch, clause: (steps: Steps) => Promise<unknown> = orderPaid): Promise<Error | undefined> {
  const port = await freePort();
  const proxy = await startKitProxy(port, wrap ? { wrap } : {});
  const steps = new Steps({ endpoint: proxy.endpoint, sandboxPort: port, orderPrefix: PREFIX, amount: AMOUNT });
  steps.sandbox = await startSandbox({ port, linksPort: 0, callbackRetry: { attempts: 3, baseDelayMs: 50 }, sendCallback: (booking) => willSend(steps, booking) });
  try {
    await clause(steps);
    return undefined;
  } catch (error) {
    return error as Error;
  } finally {
    await steps.sandbox.close();
    await proxy.close();
  }
}

test('order-paid passes on the kit: /order says paid and /book refuses a new key IP-412', async () => {
  assert.equal(await clauseOn(), undefined);
});

test('order-paid fails a proxy whose /book books an order its /order calls paid', async () => {
  const failure = await clauseOn((kit) => async (request) => {
    const answer = await kit(request);
    if (!new URL(request.url).pathname.endsWith('/book') || answer.status !== 409) return answer;
    return new Response(JSON.stringify({ code: 'IP-201', message: 'Booking created', data: { booking_id: 'BK-again', correlation_id: 'c', channel: 'app', deeplink: 'x' } }), {
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    });
  });
  assert.ok(failure instanceof ClauseFailure, String(failure));
  assert.match(failure.message, /one meaning of paid on every route/);
});

test('order-paid-before-callback passes on the kit: /order asks the service about the open booking, no callback needed', async () => {
  assert.equal(await clauseOn(undefined, orderPaidBeforeCallback), undefined);
});

test('order-paid-before-callback fails a proxy whose /order answers from its records alone (not paid until the callback)', async () => {
  const started = Date.now();
  const failure = await clauseOn(
    (kit) => async (request) => {
      if (!new URL(request.url).pathname.endsWith('/order')) return kit(request);
      return new Response(JSON.stringify({ code: 'IP-201', message: 'OK', data: { paid: false } }), {
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      });
    },
    orderPaidBeforeCallback,
  );
  assert.ok(failure instanceof ClauseFailure, String(failure));
  assert.match(failure.message, /SUCCESS at the service, its callback not come, and \/order still does not answer paid after 5 s: while a booking of the order is open, ask the service/);
  assert.ok(Date.now() - started < 15_000, 'judged within seconds');
});
