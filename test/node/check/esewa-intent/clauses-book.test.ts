/**
 * The booking clauses, called one by one against the kit on loopback (with a real sandbox): each
 * passes there, and fails, naming the fault, when a layer in front of the kit breaks its rule.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { amountFromMerchant, bookApp, bookHandoff, bookWeb, handoffPage, keyConflict, keyInvalid, oneBookingPerKey, topLevelAmount, unknownOrder } from '../../../../src/check/esewa-intent/clauses-book.js';
import { AMOUNT, layeredKit, PREFIX, startKitProxy, type ClauseBreak, type Fetch } from '../support.js';

/** The rule the layer breaks, if any. */
type Fault = 'none' | 'own-deeplink' | 'web-elsewhere' | 'drops-amount' | 'key-per-request' | 'fills-key' | 'sells-anything';
let fault: Fault = 'none';

/** Rewrites a book request (its body and key) before the kit sees it, and its answer after. */
const layer = (kit: Fetch): Fetch => async (request) => {
  if (!request.url.endsWith('/book') || request.method !== 'POST' || fault === 'none') return kit(request);
  const body = JSON.parse(await request.text()) as Record<string, unknown> & { order: { id: string } };
  const headers = new Headers(request.headers);
  if (fault === 'drops-amount') delete body['amount'];
  if (fault === 'key-per-request') headers.set('idempotency-key', `layer-${randomUUID()}`);
  if (fault === 'fills-key' && !/^[A-Za-z0-9_.:-]{16,128}$/.test(headers.get('idempotency-key') ?? '')) headers.set('idempotency-key', `layer-${randomUUID()}`);
  if (fault === 'sells-anything' && !body.order.id.startsWith(PREFIX)) body.order.id = `${PREFIX}${body.order.id}`;
  const answer = await kit(new Request(request.url, { method: 'POST', headers, body: JSON.stringify(body) }));
  const json = (await answer.json()) as { data?: Record<string, unknown> };
  if (fault === 'own-deeplink' && json.data?.['deeplink']) json.data['deeplink'] = 'https://wallet.example/pay';
  if (fault === 'web-elsewhere' && json.data?.['web_payment']) (json.data['web_payment'] as { url: string }).url = 'https://pay.example/web';
  return new Response(JSON.stringify(json), { status: answer.status, headers: answer.headers });
};

const kit = layeredKit<Fault>({ callbackRetry: { attempts: 1, baseDelayMs: 10 } }, layer, (next) => (fault = next));
const { failureOf } = kit;
/** A kit that sends every booking back to the checkout, the hand-off's too. */
let oneReturn: Awaited<ReturnType<typeof startKitProxy>>;
before(async () => {
  await kit.started;
  oneReturn = await startKitProxy(Number(new URL(kit.sandbox.baseUrl).port), { overrides: { redirectUrl: 'http://127.0.0.1:9/checkout' } });
});
after(() => oneReturn?.close());

const cases: Array<ClauseBreak<Fault>> = [
  { name: 'book-app', clause: bookApp, breaks: 'own-deeplink', says: /^data\.deeplink must be the service's deeplink http:\/\/127\.0\.0\.1:\d+\/pay\/BK/ },
  { name: 'book-web', clause: bookWeb, breaks: 'web-elsewhere', says: /^data\.web_payment\.url must be on the service \(http:\/\/127\.0\.0\.1:\d+\);/ },
  { name: 'book-handoff', clause: bookHandoff, breaks: 'own-deeplink', says: /^data\.deeplink must be the service's deeplink/ },
  { name: 'top-level-amount-refused', clause: topLevelAmount, breaks: 'drops-amount', says: /^a book body with a top-level "amount": expected 422 IP-422; .*got: 200/ },
  { name: 'one-booking-per-key', clause: oneBookingPerKey, breaks: 'key-per-request', says: /^the same key asked again gave booking BK\S+, not BK/ },
  { name: 'key-conflict', clause: keyConflict, breaks: 'key-per-request', says: /^the key of one order sent with another order: expected 409 IP-409; .*got: 200/ },
  { name: 'key-invalid', clause: keyInvalid, breaks: 'fills-key', says: /^a book without Idempotency-Key: expected 422 IP-422; .*got: 200/ },
  { name: 'unknown-order', clause: unknownOrder, breaks: 'sells-anything', says: /^an order id without the payable prefix: expected 422 IP-424; .*got: 200/ },
];

kit.eachBreaks(cases);

test('amount-from-merchant passes on the kit, which prices the order itself whatever the browser writes in it', async () => {
  assert.equal(await failureOf(amountFromMerchant), undefined);
  const priced = kit.sandbox.listBookings().at(-1)!;
  assert.equal(priced.amount, AMOUNT);
});

test("handoff-page passes on the kit, and fails on a proxy that returns the phone to the checkout", async () => {
  assert.equal(await failureOf(handoffPage), undefined);
  assert.match((await failureOf(handoffPage, oneReturn.endpoint)) ?? '', /^the hand-off booking returns the phone to http:\/\/127\.0\.0\.1:9\/checkout, the checkout an ordinary booking of the order returns to/);
});
