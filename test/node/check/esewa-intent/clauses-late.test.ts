/**
 * The clause on what comes back late, called against the kit on loopback with a real sandbox: a
 * SUCCESS after the merchant's cancel. It passes on the kit and fails, naming the fault, on a proxy
 * that drops the late SUCCESS. (The hand-off's own return page is clauses-book.test.ts's.)
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { paidAfterCancel } from '../../../../src/check/esewa-intent/clauses-late.js';
import { Steps } from '../../../../src/check/steps.js';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { AMOUNT, clauseFailure, PREFIX, startKitProxy, type Fetch } from '../support.js';

let dropsSuccess = false;
/** A layer that answers a SUCCESS callback 200 without recording it, when `dropsSuccess` is set. */
const layer = (kit: Fetch): Fetch => async (request) => {
  if (dropsSuccess && request.url.endsWith('/callback')) {
    const body = (await request.clone().json()) as { status?: string };
    if (body.status === 'SUCCESS') return new Response('{"code":"IP-201","message":"ok","data":{}}', { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
  }
  return kit(request);
};

let sandbox: Sandbox;
let proxy: Awaited<ReturnType<typeof startKitProxy>>;
before(async () => {
  sandbox = await startSandbox({ callbackRetry: { attempts: 3, baseDelayMs: 5 } });
  const port = Number(new URL(sandbox.baseUrl).port);
  proxy = await startKitProxy(port, { wrap: layer });
});
after(async () => {
  await proxy?.close();
  await sandbox?.close();
});
beforeEach(() => {
  dropsSuccess = false;
});

/** The clause's verdict on a fresh run against `endpoint`: undefined when it passes, else its failure's message. */
function failureOf(clause: (s: Steps) => Promise<unknown>, endpoint = proxy.endpoint): Promise<string | undefined> {
  return clauseFailure(clause, { endpoint, sandbox });
}

test('paid-after-cancel passes on the kit, and fails on a proxy that drops the SUCCESS after its cancel', async () => {
  assert.equal(await failureOf(paidAfterCancel), undefined);
  dropsSuccess = true;
  assert.match(
    (await failureOf(paidAfterCancel)) ?? '',
    /^the booking was cancelled while PENDING, then paid at the service \(its signed SUCCESS callback answered HTTP 200\), and \/order still calls the order unpaid:/,
  );
});

test('paid-after-cancel is not judged when order-paid failed: it reads /order', async () => {
  const steps = new Steps({ endpoint: proxy.endpoint, sandboxPort: 1, orderPrefix: PREFIX, amount: AMOUNT });
  steps.sandbox = sandbox;
  steps.failedClauses.add('order-paid');
  await assert.rejects(paidAfterCancel(steps), { message: 'not judged: it reads whether the order is paid from /order, and order-paid failed' });
});
