/**
 * One handler, two wallets on one local sandbox: eSewa's web checkout (ePay v2) first, Khalti second.
 * The element's `wallet` picks the provider (none: the first), an unknown one is refused, and a
 * shopper switching one order between the wallets gets one booking to pay at a time: neither provider
 * can cancel, so a superseded booking stays open at its provider, is looked up by reconcile until it
 * expires, and a payment of it after the order was paid is delivered as the duplicate it is.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { createMemoryStore, createPaymentHandler, DuplicatePaymentError, type PaymentHandler, type PaymentResult } from '../../../src/server/index.js';
import { postRoute } from './helpers.js';
import { epayOn, payForm } from '../providers/epay/harness.js';
import { khaltiOn, onPage, type WebPayment } from '../providers/khalti/harness.js';

interface Booked {
  booking_id: string;
  correlation_id: string;
  channel: string;
  wallet: string;
  web_payment: WebPayment & { fields?: Record<string, string> };
}

describe('eSewa (ePay v2) and Khalti in one handler, on the sandbox', () => {
  let sandbox: Sandbox;
  let handler: PaymentHandler;
  const delivered: PaymentResult[] = [];
  const errors: Array<{ error: unknown; context: Record<string, unknown> }> = [];
  let orders = 0;

  const make = (khaltiKey?: string, refundDuplicates = false) =>
    createPaymentHandler({
      refundDuplicates,
      providers: [epayOn(sandbox), khaltiOn(sandbox, khaltiKey ? { secretKey: khaltiKey } : {})],
      store: createMemoryStore({ now: () => sandbox.clock.now() }),
      now: () => sandbox.clock.now(),
      lookupOrder: (order) => ({ id: String(order.id), amount: 420 }),
      onPaymentResult: (result) => void delivered.push(result),
      redirectUrl: 'http://127.0.0.1:9/done',
      onError: (error, context) => void errors.push({ error, context: { ...context } }),
    });
  const bookAnswer = (order: string, wallet?: string, target = handler) =>
    postRoute<Booked>(target, 'book', { channel: 'web', order: { id: order }, ...(wallet === undefined ? {} : { wallet }) }, `key-${crypto.randomUUID()}`);
  const book = async (order: string, wallet?: string) => {
    const answered = await bookAnswer(order, wallet);
    assert.equal(answered.body.code, 'IP-201', JSON.stringify(answered.body));
    return answered.body.data!;
  };
  const status = async (booking: Booked) => {
    const answered = await postRoute<{ status: string }>(handler, 'status', { booking_id: booking.booking_id, correlation_id: booking.correlation_id });
    assert.equal(answered.body.code, 'IP-201', JSON.stringify(answered.body));
    return answered.body.data!.status;
  };
  const resultsOf = (booking: Booked) => delivered.filter((result) => result.booking_id === booking.booking_id);
  const order = () => `W-${++orders}`;

  before(async () => {
    sandbox = await startSandbox({ sendCallback: () => false });
  });
  after(() => sandbox.close());
  beforeEach(() => {
    handler = make();
    delivered.length = 0;
    errors.length = 0;
  });

  test('wallet "khalti" books at Khalti, "esewa" at ePay, none at the first provider listed (ePay)', async () => {
    const atKhalti = await book(order(), 'khalti');
    assert.equal(atKhalti.wallet, 'khalti');
    assert.deepEqual(atKhalti.web_payment, { url: `${sandbox.baseUrl}/khalti/pay/?pidx=${atKhalti.booking_id}`, method: 'GET' });
    for (const booked of [await book(order(), 'esewa'), await book(order())]) {
      assert.equal(booked.wallet, 'esewa');
      assert.equal(booked.web_payment.url, `${sandbox.baseUrl}/api/epay/main/v2/form`);
      assert.equal(booked.web_payment.method, 'POST');
      assert.equal(booked.web_payment.fields?.['product_code'], 'EPAYTEST');
    }
  });

  test('refundDuplicates: a stale Khalti tab paying an order paid with eSewa is refunded at Khalti, and its REVERTED delivered', async () => {
    handler = make(undefined, true);
    const id = order();
    const stale = await book(id, 'khalti');
    const paid = await book(id, 'esewa');
    // Paid with eSewa on its page, as a shopper does.
    await payForm(sandbox.baseUrl, { web_payment: paid.web_payment });
    assert.equal(await status(paid), 'SUCCESS');
    await onPage(stale.web_payment);
    assert.equal(await status(stale), 'SUCCESS');
    const deadline = Date.now() + 5_000;
    while (!resultsOf(stale).some((result) => result.status === 'REVERTED') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(
      resultsOf(stale).map((result) => [result.status, result.source, result.duplicate ?? false]),
      [['SUCCESS', 'status', true], ['REVERTED', 'refund', false]],
      JSON.stringify(errors.map(({ error }) => String(error))),
    );
    const khalti = await fetch(`${sandbox.baseUrl}/api/v2/epayment/lookup/`, {
      method: 'POST',
      headers: { authorization: `Key ${sandbox.accessKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pidx: stale.booking_id }),
    }).then((r) => r.json() as Promise<{ status: string }>);
    assert.equal(khalti.status, 'Refunded', 'refunded at Khalti itself');
  });

  test('refundDuplicates with a provider that has no refund API (eSewa): onError names the booking to refund by hand', async () => {
    handler = make(undefined, true);
    const id = order();
    const stale = await book(id, 'esewa');
    const paid = await book(id, 'khalti');
    await onPage(paid.web_payment);
    assert.equal(await status(paid), 'SUCCESS');
    await payForm(sandbox.baseUrl, { web_payment: stale.web_payment });
    assert.equal(await status(stale), 'SUCCESS');
    const deadline = Date.now() + 5_000;
    const told = () => errors.filter(({ context }) => context['route'] === 'refund');
    while (told().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(told().length, 1, JSON.stringify(errors.map(({ error, context }) => [String(error), context])));
    assert.match(String((told()[0]!.error as Error).message), new RegExp(`second payment of booking ${stale.booking_id} was not refunded.*no refund API.*merchant portal`));
    assert.deepEqual(told()[0]!.context['wallet'], 'esewa');
  });

  test('a wallet the shop does not take is IP-422, naming the ones it takes; nothing is booked', async () => {
    const id = order();
    const answered = await bookAnswer(id, 'paypal');
    assert.equal(answered.body.code, 'IP-422', JSON.stringify(answered.body));
    assert.match(String(answered.body.error_message), /"paypal".*it takes: esewa, khalti/);
    const next = await book(id, 'khalti');
    const report = await handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 });
    assert.equal(report.checked, 1, `only the Khalti booking ${next.booking_id} exists: ${JSON.stringify(report)}`);
  });

  test('Khalti, then eSewa, then Khalti for one order: each switch hands out one new booking; a stale Khalti tab paying after the order was paid is delivered as a duplicate', async () => {
    const id = order();
    const first = await book(id, 'khalti');
    const second = await book(id, 'esewa');
    const third = await book(id, 'khalti');
    assert.deepEqual([first.wallet, second.wallet, third.wallet], ['khalti', 'esewa', 'khalti']);
    assert.equal(new Set([first.booking_id, second.booking_id, third.booking_id]).size, 3);
    assert.deepEqual(delivered, [], 'a superseded booking is open at its provider, not a result');
    await onPage(third.web_payment);
    assert.equal(await status(third), 'SUCCESS');
    assert.deepEqual(resultsOf(third).map((result) => [result.status, result.duplicate]), [['SUCCESS', undefined]]);
    const again = await bookAnswer(id, 'esewa');
    assert.equal(again.body.code, 'IP-412', 'the order is paid: no wallet books it again');
    // The first tab was left on Khalti's page, which Khalti still takes: the kit cannot cancel it.
    await onPage(first.web_payment);
    assert.equal(await status(first), 'SUCCESS');
    const [duplicate] = resultsOf(first);
    assert.deepEqual([duplicate?.status, duplicate?.duplicate, duplicate?.duplicate_of, duplicate?.amount], ['SUCCESS', true, third.booking_id, 420]);
    const told = errors.map(({ error }) => error).filter((error) => error instanceof DuplicatePaymentError);
    assert.equal(told.length, 1, JSON.stringify(errors));
    assert.match((told[0] as Error).message, new RegExp(`${first.booking_id}.*after booking ${third.booking_id}`));
  });

  test('a superseded Khalti booking is looked up by reconcile until it expires, then its CANCELED is delivered once', async () => {
    const id = order();
    const left = await book(id, 'khalti');
    const payable = await book(id, 'esewa');
    await sandbox.clock.advance('6m');
    const early = await handler.reconcile({ recheckAfterMs: 0 });
    assert.ok(early.checked >= 1 && early.settled === 0, JSON.stringify(early));
    assert.deepEqual(resultsOf(left), []);
    await sandbox.clock.advance('25m');
    await handler.reconcile({ recheckAfterMs: 0 });
    await handler.reconcile({ recheckAfterMs: 0 });
    assert.deepEqual(resultsOf(left).map((result) => [result.status, result.source]), [['CANCELED', 'reconcile']]);
    assert.equal(resultsOf(payable).filter((result) => result.status === 'SUCCESS').length, 0);
  });

  test('a result and an error name the wallet and provider', async () => {
    const viaKhalti = await book(order(), 'khalti');
    await onPage(viaKhalti.web_payment);
    await status(viaKhalti);
    const [result] = resultsOf(viaKhalti) as Array<PaymentResult & { wallet?: string; provider?: string }>;
    assert.deepEqual([result?.wallet, result?.provider], ['khalti', 'khalti']);
    handler = make('live_secret_key_wrong');
    await bookAnswer(order(), 'khalti');
    assert.equal(errors[0]?.context['wallet'], 'khalti');
  });
});
