/**
 * eSewa's signed return, sent by the browser with its status check (`return`): read by the ePay
 * adapter as a hint. A genuine one is quiet; a forged, altered or replayed one (another booking's, or
 * another amount's) is told to `onError` by name; either way the status check decides what the shopper
 * and the merchant hear.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createMemoryStore, createPaymentHandler, type PaymentHandler, type PaymentResult } from '../../../../src/server/index.js';
import { ReturnRefusedError } from '../../../../src/server/result-routes.js';
import { postRoute } from '../../server/helpers.js';
import { epayOn, payForm } from './harness.js';

interface WebBooking {
  booking_id: string;
  correlation_id: string;
  web_payment: { url: string; method: string; fields: Record<string, string> };
}

describe("eSewa's signed return, read with the status check", () => {
  let sandbox: Sandbox;
  let handler: PaymentHandler;
  const delivered: PaymentResult[] = [];
  const errors: Array<{ error: unknown; context: Record<string, unknown> }> = [];
  let orders = 0;

  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());
  beforeEach(() => {
    delivered.length = 0;
    errors.length = 0;
    handler = createPaymentHandler({
      providers: [epayOn(sandbox)],
      store: createMemoryStore(),
      lookupOrder: (order) => ({ id: String(order.id), amount: String(order.id).endsWith('-big') ? 2700 : 133 }),
      onPaymentResult: (result) => void delivered.push(result),
      redirectUrl: 'http://127.0.0.1:9/checkout?order=1',
      onError: (error, context) => void errors.push({ error, context: { ...context } }),
    });
  });

  const book = async (suffix = '') => {
    const answered = await postRoute<WebBooking>(handler, 'book', { channel: 'web', order: { id: `R-${++orders}${suffix}` } }, `key-${crypto.randomUUID()}`);
    assert.equal(answered.body.code, 'IP-201', JSON.stringify(answered.body));
    return answered.body.data!;
  };
  /** Pays on the sandbox's ePay page; answers the query of the address eSewa sends the shopper back to. */
  const pay = async (booking: WebBooking) => new URL((await payForm(sandbox.baseUrl, { web_payment: booking.web_payment }))).search;
  const status = (booking: WebBooking, query: string) =>
    postRoute<{ status: string }>(handler, 'status', { booking_id: booking.booking_id, correlation_id: booking.correlation_id, return: query });
  const refused = () => errors.filter(({ error }) => error instanceof ReturnRefusedError).map(({ error }) => (error as ReturnRefusedError).reason);

  test('a genuine return (133.0, and 2,700.0 signed without its comma, glued after the kit\'s booking_id) is quiet; the status check delivers', async () => {
    for (const booking of [await book(), await book('-big')]) {
      const query = await pay(booking);
      assert.match(query, /booking_id=[^&]+\?data=/, "eSewa glues ?data= after the kit's booking_id");
      const answered = await status(booking, query);
      assert.equal(answered.body.data?.status, 'SUCCESS');
    }
    assert.deepEqual(refused(), [], JSON.stringify(errors.map(({ error }) => String(error))));
    assert.equal(delivered.filter((result) => result.status === 'SUCCESS').length, 2);
  });

  test('an altered return (its amount changed, its signature kept) is refused as a bad signature and told; the status check still decides', async () => {
    const booking = await book();
    const query = await pay(booking);
    const data = decodeURIComponent(/data=([^&]*)/.exec(query)![1]!);
    const altered = btoa(atob(data).replace('"133.0"', '"13.0"'));
    const answered = await status(booking, `?booking_id=${booking.booking_id}?data=${encodeURIComponent(altered)}`);
    assert.equal(answered.body.data?.status, 'SUCCESS', 'the status check decides');
    assert.deepEqual(refused(), ['signature']);
    assert.equal(errors[0]!.context['wallet'], 'esewa');
  });

  test("another booking's genuine return, replayed on this one, is refused as naming another payment", async () => {
    const first = await book();
    const firstQuery = await pay(first);
    const second = await book();
    const answered = await status(second, firstQuery);
    assert.equal(answered.body.data?.status, 'BOOKED', 'this booking was not paid, whatever the return says');
    assert.deepEqual(refused(), ['booking']);
    assert.equal(delivered.length, 0, 'nothing delivered on a replayed return');
  });

  test('a partial refund after the SUCCESS was delivered is told when a status check sees it; the payment stays SUCCESS', async () => {
    const booking = await book();
    const query = await pay(booking);
    assert.equal((await status(booking, query)).body.data?.status, 'SUCCESS');
    const refunded = await fetch(`${sandbox.baseUrl}/sandbox/epay/transactions/EPAYTEST/${booking.booking_id}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 33 }),
    });
    assert.equal(refunded.status, 200, await refunded.text());
    assert.equal((await status(booking, '')).body.data?.status, 'SUCCESS');
    const notices = errors.filter(({ error }) => (error as Error).name === 'PartialRefundNotice');
    assert.equal(notices.length, 1, JSON.stringify(errors.map(({ error }) => String(error))));
    assert.match(String(notices[0]!.error), new RegExp(`${booking.booking_id} partly refunded`));
    assert.equal(delivered.filter((result) => result.booking_id === booking.booking_id).length, 1, 'delivered once, as SUCCESS');
  });

  test('a return that is not base64 JSON is refused as malformed; a return with no data says nothing', async () => {
    const booking = await book();
    await status(booking, '?booking_id=x?data=not*base64');
    await status(booking, `?booking_id=${booking.booking_id}`);
    assert.deepEqual(refused(), ['malformed']);
  });
});
