/**
 * The clauses on status, cancel and the one payable booking per order, called one by one against the
 * kit on loopback (with a real sandbox): each passes there, and fails, naming the fault, when a layer
 * in front of the kit breaks its rule.
 */
import { randomUUID } from 'node:crypto';
import { cancelOpen, cancelPaid, openBookingReplaced, paidOrderRefused, statusFollowsService, wrongCorrelation } from '../../../../src/check/esewa-intent/clauses-results.js';
import { envelope, layeredKit, PREFIX, type ClauseBreak, type Fetch } from '../support.js';

/** The rule the layer breaks, if any. */
type Fault = 'none' | 'status-always-booked' | 'cancel-without-service' | 'fresh-order-per-book' | 'replay-older-booking';
let fault: Fault = 'none';
/** The last book answer per order, for the layer that answers it again. */
const lastBook = new Map<string, string>();

/** A layer in front of the kit that breaks the rule `fault` names. */
const layer = (kit: Fetch): Fetch => async (request) => {
  const route = new URL(request.url).pathname.split('/').at(-1);
  if (fault === 'status-always-booked' && route === 'status') {
    const { booking_id } = (await request.json()) as { booking_id: string };
    return envelope(200, { code: 'IP-201', message: 'ok', data: { booking_id, status: 'BOOKED' } });
  }
  if (fault === 'cancel-without-service' && route === 'cancel') {
    const { booking_id } = (await request.json()) as { booking_id: string };
    return envelope(200, { code: 'IP-210', message: 'ok', data: { booking_id, status: 'CANCELED' } });
  }
  if (route === 'book' && request.method === 'POST') {
    const text = await request.text();
    const body = JSON.parse(text) as { order: { id: string } };
    const orderId = body.order.id;
    if (fault === 'replay-older-booking' && lastBook.has(orderId)) return envelope(200, JSON.parse(lastBook.get(orderId)!));
    if (fault === 'fresh-order-per-book') body.order.id = `${PREFIX}${randomUUID()}`;
    const answer = await kit(new Request(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify(body) }));
    const answerText = await answer.text();
    if (answer.status === 200) lastBook.set(orderId, answerText);
    return new Response(answerText, { status: answer.status, headers: answer.headers });
  }
  return kit(request);
};

const kit = layeredKit<Fault>({ callbackRetry: { attempts: 1, baseDelayMs: 10 } }, layer, (next) => (fault = next));

const cases: Array<ClauseBreak<Fault>> = [
  { name: 'status-wrong-correlation', clause: (s) => wrongCorrelation(s, 'status'), breaks: 'status-always-booked', says: /^status with another correlation id: expected 404 IP-404; sent: POST \/pay\/status/ },
  { name: 'cancel-wrong-correlation', clause: (s) => wrongCorrelation(s, 'cancel'), breaks: 'cancel-without-service', says: /^cancel with another correlation id: expected 404 IP-404;/ },
  { name: 'status-follows-service', clause: statusFollowsService, breaks: 'status-always-booked', says: /^status after the payment at the service must read SUCCESS for BK/ },
  { name: 'cancel-open', clause: cancelOpen, breaks: 'cancel-without-service', says: /^the booking is BOOKED at the service after the cancel;/ },
  { name: 'cancel-paid', clause: cancelPaid, breaks: 'cancel-without-service', says: /^cancel of a paid booking: expected 409 IP-410; .*got: 200/ },
  { name: 'paid-order-refused', clause: paidOrderRefused, breaks: 'fresh-order-per-book', says: /^a new key for an order already paid: expected 409 IP-412; .*got: 200/ },
  { name: 'open-booking-replaced', clause: openBookingReplaced, breaks: 'replay-older-booking', says: /^a new key answered the older booking BK/ },
];

kit.eachBreaks(cases);
