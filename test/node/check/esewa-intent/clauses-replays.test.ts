/**
 * The clauses on results out of order and on reconciliation, called against the kit on loopback with
 * a real sandbox: each passes there, and fails naming the fault on a layer that keeps a refunded order
 * paid, lets a FAILED unpay an order, or a reconciliation that asks nothing.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { failedAfterSuccess, reconcileAsksService, successReplayAfterRefund } from '../../../../src/check/esewa-intent/clauses-replays.js';
import { ClauseSkipped, Steps } from '../../../../src/check/steps.js';
import { noteServiceLine } from '../../../../src/check/esewa-intent/steps.js';
import type { CheckOptions } from '../../../../src/check/options.js';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { clauseFailure, PREFIX, startKitProxy, type Fetch } from '../support.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/** The rule the layer breaks, if any. */
type Fault = 'none' | 'success-is-forever' | 'failed-unpays';
let fault: Fault = 'none';
/** Each booking's order, by correlation id, from the kit's book answers. */
const orderOf = new Map<string, string>();
/** Orders the layer has decided on, whatever the kit says. */
const paidForever = new Set<string>();
const unpaid = new Set<string>();

const layer = (kit: Fetch): Fetch => async (request) => {
  const route = new URL(request.url).pathname.split('/').at(-1);
  if (route === 'callback') {
    const body = (await request.clone().json()) as { correlation_id: string; status: string };
    const order = orderOf.get(body.correlation_id);
    if (order && fault === 'success-is-forever' && body.status === 'SUCCESS') paidForever.add(order);
    if (order && fault === 'failed-unpays' && body.status === 'FAILED') unpaid.add(order);
    return kit(request);
  }
  if (route !== 'book') return kit(request);
  const body = JSON.parse(await request.text()) as { order: { id: string } };
  const orderId = body.order.id;
  if (paidForever.has(orderId)) return new Response(JSON.stringify({ code: 'IP-412', error_message: 'This order is already paid.' }), { status: 409, headers: JSON_HEADERS });
  // An order the layer calls unpaid is booked again under another id, so the kit books it.
  if (unpaid.has(orderId)) body.order.id = `${PREFIX}${randomUUID()}`;
  const answer = await kit(new Request(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify(body) }));
  const json = (await answer.clone().json()) as { data?: { correlation_id?: string } };
  if (json.data?.correlation_id) orderOf.set(json.data.correlation_id, orderId);
  return answer;
};

let sandbox: Sandbox;
let proxy: Awaited<ReturnType<typeof startKitProxy>>;
/** The run whose steps read the sandbox's log lines. */
let current: Steps | undefined;
before(async () => {
  sandbox = await startSandbox({ callbackRetry: { attempts: 3, baseDelayMs: 5 }, log: (line) => {
      if (current) noteServiceLine(current, line);
    } });
  proxy = await startKitProxy(Number(new URL(sandbox.baseUrl).port), { wrap: layer });
});
after(async () => {
  await proxy?.close();
  await sandbox?.close();
});
beforeEach(() => {
  fault = 'none';
});

/** The clause's verdict on a fresh run: undefined when it passes, else its failure's message. */
function failureOf(clause: (s: Steps) => Promise<unknown>, options: Partial<CheckOptions> = {}): Promise<string | undefined> {
  return clauseFailure(clause, { endpoint: proxy.endpoint, sandbox, options, onSteps: (steps) => (current = steps) });
}

test('success-replay-after-refund passes on the kit, and fails where a SUCCESS keeps the order paid after its refund', async () => {
  assert.equal(await failureOf(successReplayAfterRefund), undefined);
  fault = 'success-is-forever';
  assert.match((await failureOf(successReplayAfterRefund)) ?? '', /^the order was refunded \(REVERTED, delivered\), then the captured SUCCESS callback replayed \(answered 2\d\d\) made it paid again:/);
});

test('failed-after-success passes on the kit, and fails where a FAILED after a SUCCESS unpays the order', async () => {
  assert.equal(await failureOf(failedAfterSuccess), undefined);
  fault = 'failed-unpays';
  assert.match((await failureOf(failedAfterSuccess)) ?? '', /^after a SUCCESS, a signed FAILED callback for the same booking \(answered \d+\) made the order payable again:/);
});

test("reconcile-asks-service passes with the kit's reconciliation, by function or by command", async () => {
  assert.equal(await failureOf(reconcileAsksService, { reconcile: proxy.reconcile }), undefined);
  assert.equal(await failureOf(reconcileAsksService, { reconcile: proxy.reconcileCommand }), undefined);
});

test('reconcile-asks-service fails when the reconciliation asks nothing or its command fails, and is skipped without one', async () => {
  assert.match((await failureOf(reconcileAsksService, { reconcile: async () => {} })) ?? '', /^the booking BK\S+ was paid and its SUCCESS callback lost, and the proxy's reconciliation did not ask the service for its status$/);
  assert.match((await failureOf(reconcileAsksService, { reconcile: 'echo broken >&2; exit 3' })) ?? '', /^--reconcile-command "echo broken >&2; exit 3" failed \(exit 3\): broken$/);
  await assert.rejects(failureOf(reconcileAsksService), (error) => error instanceof ClauseSkipped && /has no reconciliation/.test(error.message));
});
