/**
 * The callback clauses, called one by one against the kit on loopback (with a real sandbox that
 * delivers its callbacks there): each passes, and fails naming the fault when a layer in front of the
 * kit refuses good callbacks, takes any, or trusts one it never verified.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  amountWritings,
  callbackAmountAsWritten,
  callbackForgeries,
  callbackReplay,
  callbackSigned,
  callbackUnknownBooking,
  callbackUrlOrigin,
  forgedSuccessNotPaid,
} from '../../../../src/check/esewa-intent/clauses-callback.js';
import { envelope, layeredKit, type ClauseBreak, type Fetch } from '../support.js';

/** The rule the layer breaks, if any. */
type Fault = 'none' | 'refuses-callbacks' | 'takes-any-callback' | 'trusts-callbacks';
let fault: Fault = 'none';
/** Each booking's order, by correlation id, from the kit's book answers. */
const orderOf = new Map<string, string>();
/** Orders the trusting layer calls paid on an unverified SUCCESS. */
const trustedPaid = new Set<string>();

const layer = (kit: Fetch): Fetch => async (request) => {
  const route = new URL(request.url).pathname.split('/').at(-1);
  if (route === 'callback') {
    if (fault === 'refuses-callbacks') return envelope(400, { code: 'IP-400', error_message: 'Invalid signature.' });
    if (fault === 'takes-any-callback') return envelope(200, { code: 'IP-201', message: 'ok', data: {} });
    if (fault === 'trusts-callbacks') {
      const body = (await request.clone().json()) as { correlation_id: string; status: string };
      const order = orderOf.get(body.correlation_id);
      if (body.status === 'SUCCESS' && order) trustedPaid.add(order);
    }
    return kit(request);
  }
  if (route !== 'book') return kit(request);
  const text = await request.text();
  const orderId = (JSON.parse(text) as { order: { id: string } }).order.id;
  if (fault === 'trusts-callbacks' && trustedPaid.has(orderId)) return envelope(409, { code: 'IP-412', error_message: 'This order is already paid.' });
  const answer = await kit(new Request(request.url, { method: 'POST', headers: request.headers, body: text }));
  const json = (await answer.clone().json()) as { data?: { correlation_id?: string } };
  if (json.data?.correlation_id) orderOf.set(json.data.correlation_id, orderId);
  return answer;
};

// Three quick tries, so a refused callback is given up on at once.
const kit = layeredKit<Fault>({ callbackRetry: { attempts: 3, baseDelayMs: 5 } }, layer, (next) => (fault = next));
const { failureOf } = kit;

test('amountWritings: the ways the service may write an amount, each once', () => {
  assert.deepEqual(amountWritings(1250.5), ['1250.5', '1250.50', '1250.500']);
  assert.deepEqual(amountWritings(1000), ['1000', '1000.00', '1000.0']);
  assert.deepEqual(amountWritings(0.25), ['0.25', '0.250']);
});

const cases: Array<ClauseBreak<Fault>> = [
  { name: 'callback-signed', clause: callbackSigned, breaks: 'refuses-callbacks', says: /^the service's signed SUCCESS callback to http:\/\/127\.0\.0\.1:\d+\/pay\/callback was answered HTTP 400, HTTP 400, HTTP 400, not 2xx$/ },
  { name: 'callback-replay', clause: callbackReplay, breaks: 'refuses-callbacks', says: /^the signed SUCCESS callback sent again must be answered 2xx; .*got: 400/ },
  { name: 'callback-amount-as-written', clause: callbackAmountAsWritten, breaks: 'refuses-callbacks', says: /^the service's signed SUCCESS callback with its amount written 1250\.5 was refused; .*The docs warn/ },
  { name: 'callback-forgeries-refused', clause: callbackForgeries, breaks: 'takes-any-callback', says: /^a SUCCESS signed with another key must be refused with a 4xx; .*got: 200/ },
  { name: 'callback-unknown-booking', clause: callbackUnknownBooking, breaks: 'takes-any-callback', says: /^a signed callback for a booking the proxy never made must be refused with a 4xx;/ },
  { name: 'forged-success-not-paid', clause: forgedSuccessNotPaid, breaks: 'trusts-callbacks', says: /^after a forged SUCCESS callback the order reads as paid \(a new key is IP-412\);/ },
];

kit.eachBreaks(cases);

test("callback-url-origin passes when the callback URL is on --endpoint's origin, and fails naming both when it is not", async () => {
  assert.equal(await failureOf(callbackUrlOrigin), undefined);
  // The same proxy asked by another name: its callback URL (127.0.0.1) is not on that origin.
  const failure = await failureOf(callbackUrlOrigin, kit.proxy.endpoint.replace('127.0.0.1', 'localhost'));
  assert.match(failure ?? '', /^the callback URL the proxy registered, http:\/\/127\.0\.0\.1:\d+\/pay\/callback, is not on --endpoint's origin http:\/\/localhost:\d+: a wrong public URL/);
});
