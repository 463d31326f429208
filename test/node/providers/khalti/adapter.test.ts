/**
 * Khalti KPG-2's adapter behind the real handler, against the local sandbox's Khalti emulation over
 * real HTTP on loopback: the web booking a book answers (Khalti's page by GET, on a phone too), a pay
 * on that page settled by lookup alone (the unsigned return never decides), each lookup status as the
 * kit reads it, the Rs 10 minimum and a refused key, refunds through `handler.refund`, reconcile up to
 * the link's expiry, and what a new booking costs the store.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createMemoryStore, createPaymentHandler, type PaymentHandler, type PaymentResult } from '../../../../src/server/index.js';
import type { KhaltiOptions } from '../../../../src/providers/khalti/adapter.js';
import { lateCloningFetch, postRoute, listen, type Loopback } from '../../server/helpers.js';
import { khaltiPost } from '../../sandbox/khalti/support.js';
import { counted, khaltiOn, LIMIT_MS, onPage, openPage, type WebPayment } from './harness.js';

interface WebBooking {
  booking_id: string;
  correlation_id: string;
  channel: string;
  wallet: string;
  web_payment: WebPayment;
}

/** The magic amount of the sandbox's KHALTI-002: the pay ends Pending and stays so. */
const PENDING_RUPEES = 80.02;

describe('khalti behind the handler, on the sandbox', () => {
  let sandbox: Sandbox;
  let shop: Loopback;
  const returns: URL[] = [];
  const lines: string[] = [];
  let handler: PaymentHandler;
  let calls: string[];
  const delivered: PaymentResult[] = [];
  const errors: Array<{ error: unknown; route: string }> = [];
  const prices = new Map<string, number>();
  let orders = 0;

  const make = (extra: Partial<KhaltiOptions> = {}) => {
    const store = counted(createMemoryStore({ now: () => sandbox.clock.now() }));
    calls = store.calls;
    return createPaymentHandler({
      providers: [khaltiOn(sandbox, extra)],
      store: store.store,
      now: () => sandbox.clock.now(),
      lookupOrder: (order) => ({ id: String(order.id), amount: prices.get(String(order.id)) ?? 250.5 }),
      onPaymentResult: (result) => void delivered.push(result),
      redirectUrl: `${shop.url}/khalti/return`,
      onError: (error, context) => void errors.push({ error, route: context.route }),
    });
  };
  const bookAnswer = (channel = 'web', amount?: number, target = handler) => {
    const id = `K-${++orders}`;
    if (amount !== undefined) prices.set(id, amount);
    return postRoute<WebBooking>(target, 'book', { channel, order: { id } }, `key-${crypto.randomUUID()}`);
  };
  const book = async (channel = 'web', amount?: number) => {
    const answered = await bookAnswer(channel, amount);
    assert.equal(answered.body.code, 'IP-201', JSON.stringify(answered.body));
    return answered.body.data!;
  };
  const status = async (booking: WebBooking) => {
    const answered = await postRoute<{ status: string }>(handler, 'status', { booking_id: booking.booking_id, correlation_id: booking.correlation_id });
    assert.equal(answered.body.code, 'IP-201', JSON.stringify(answered.body));
    return answered.body.data!.status;
  };
  const deliveredFor = (booking: WebBooking) => delivered.filter((result) => result.booking_id === booking.booking_id);
  /** The shopper pays on Khalti's page and comes back to the shop's return address. */
  const payAndReturn = async (booking: WebBooking) => {
    const back = await onPage(booking.web_payment);
    await fetch(back, { signal: AbortSignal.timeout(LIMIT_MS) }).then((response) => response.text());
    return back;
  };
  /** A refund made from outside the kit (Khalti's dashboard): in full, or `paisa` of it. */
  const refundAtKhalti = async (booking: WebBooking, paisa?: number) => {
    const transaction = deliveredFor(booking).find((result) => result.status === 'SUCCESS')?.reference_code;
    assert.ok(transaction, 'the SUCCESS carries Khalti\'s transaction_id');
    const answered = await khaltiPost(sandbox.baseUrl, `/api/merchant-transaction/${transaction}/refund/`, paisa === undefined ? {} : { amount: paisa }, { key: sandbox.accessKey });
    assert.equal(answered.status, 200, answered.text);
  };

  before(async () => {
    shop = await listen((request, response) => {
      returns.push(new URL(request.url ?? '/', 'http://shop.invalid'));
      response.writeHead(200, { 'content-type': 'text/plain' }).end('back at the shop');
    });
    sandbox = await startSandbox({ sendCallback: () => false, log: (line) => void lines.push(line) });
  });
  after(async () => {
    await sandbox.close();
    await shop.close();
  });
  beforeEach(() => {
    handler = make();
    delivered.length = 0;
    errors.length = 0;
    lines.length = 0;
  });

  test("a web book answers a GET of the sandbox's pay page with the pidx, which the page takes", async () => {
    const booked = await book('web');
    assert.deepEqual([booked.channel, booked.wallet], ['web', 'khalti']);
    assert.ok(lines.some((line) => line.startsWith(`khalti initiate -> 200 ${booked.booking_id}`)), `the sandbox logs an initiate: ${lines.join('\n')}`);
    assert.deepEqual(booked.web_payment, { url: `${sandbox.baseUrl}/khalti/pay/?pidx=${booked.booking_id}`, method: 'GET' });
    const page = await openPage(booked.web_payment);
    assert.equal(page.pidx, booked.booking_id);
    assert.match(page.html, /Rs 250\.50/);
  });

  test('an app book answers the same web booking: Khalti has no app link, the phone opens the page', async () => {
    const booked = await book('app');
    assert.equal(booked.channel, 'web');
    assert.equal('deeplink' in booked, false);
    assert.equal(booked.web_payment.url, `${sandbox.baseUrl}/khalti/pay/?pidx=${booked.booking_id}`);
  });

  test('paying on the page and coming back, /status delivers SUCCESS once with the booked amount and Khalti\'s transaction_id', async () => {
    const booked = await book();
    assert.equal(await status(booked), 'BOOKED', 'not paid yet');
    const back = await payAndReturn(booked);
    assert.equal(`${back.origin}${back.pathname}`, `${shop.url}/khalti/return`);
    assert.deepEqual([back.searchParams.get('pidx'), back.searchParams.get('status')], [booked.booking_id, 'Completed']);
    assert.equal(await status(booked), 'SUCCESS');
    assert.equal(await status(booked), 'SUCCESS');
    const results = deliveredFor(booked);
    assert.equal(results.length, 1, JSON.stringify(results));
    assert.deepEqual([results[0]!.status, results[0]!.amount, results[0]!.source], ['SUCCESS', 250.5, 'status']);
    assert.equal(results[0]!.reference_code, back.searchParams.get('transaction_id'));
  });

  test('the return address opened with a forged status=Completed for an unpaid booking delivers nothing: only the lookup decides', async () => {
    const booked = await book();
    const forged = new URL(`${shop.url}/khalti/return`);
    for (const [name, value] of Object.entries({ pidx: booked.booking_id, txnId: 'FORGED', amount: '25050', total_amount: '25050', status: 'Completed', mobile: '98XXXXX000', tidx: 'FORGED', transaction_id: 'FORGED' })) {
      forged.searchParams.set(name, value);
    }
    const opened = await fetch(forged, { signal: AbortSignal.timeout(LIMIT_MS) });
    assert.equal(opened.status, 200);
    assert.equal(returns.at(-1)?.searchParams.get('status'), 'Completed', 'the shop saw the forged return');
    assert.equal(await status(booked), 'BOOKED');
    const report = await handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 });
    assert.deepEqual([report.checked, report.open, report.settled], [1, 1, 0], JSON.stringify(report));
    assert.deepEqual(deliveredFor(booked), []);
  });

  test('lookups answered 400 (User canceled, Expired) are CANCELED, told to nobody as errors', async () => {
    const canceled = await book();
    const back = await onPage(canceled.web_payment, 'cancel');
    assert.equal(back.searchParams.get('status'), 'User canceled');
    const expired = await book();
    await sandbox.clock.advance('1801s');
    assert.equal(await status(canceled), 'CANCELED');
    assert.equal(await status(expired), 'CANCELED');
    assert.ok(lines.some((line) => line.includes(`lookup ${expired.booking_id} -> 400 Expired`)), lines.join('\n'));
    for (const booking of [canceled, expired]) assert.deepEqual(deliveredFor(booking).map((result) => [result.status, result.source]), [['CANCELED', 'status']]);
    assert.deepEqual(errors, []);
  });

  test('Pending stays open: nothing delivered, and reconcile keeps asking', async () => {
    const booked = await book('web', PENDING_RUPEES);
    const back = await payAndReturn(booked);
    assert.equal(back.searchParams.get('status'), 'Pending');
    assert.equal(await status(booked), 'PENDING');
    for (let pass = 0; pass < 2; pass++) {
      const report = await handler.reconcile({ olderThanMs: 0, recheckAfterMs: 0 });
      assert.deepEqual([report.checked, report.open, report.settled], [1, 1, 0], `pass ${pass}: ${JSON.stringify(report)}`);
    }
    assert.deepEqual(deliveredFor(booked), []);
  });

  test('Refunded at Khalti is REVERTED; Partially Refunded stays SUCCESS', async () => {
    const full = await book();
    const part = await book();
    for (const booking of [full, part]) {
      await payAndReturn(booking);
      assert.equal(await status(booking), 'SUCCESS');
    }
    await refundAtKhalti(full);
    await refundAtKhalti(part, 5_000);
    assert.equal(await status(full), 'REVERTED');
    assert.equal(await status(part), 'SUCCESS');
    assert.deepEqual(deliveredFor(full).map((result) => result.status), ['SUCCESS', 'REVERTED']);
    assert.deepEqual(deliveredFor(part).map((result) => result.status), ['SUCCESS']);
  });

  test('an order below Rs 10 is refused before any call: IP-424, onError told, no initiate at the sandbox', async () => {
    const answered = await bookAnswer('web', 9.99);
    assert.equal(answered.body.code, 'IP-424', JSON.stringify(answered.body));
    assert.match(String(answered.body.error_message), /at least Rs 10/);
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(String((errors[0]!.error as Error).message), /Rs 9\.99.*khalti.*at least Rs 10/);
    assert.deepEqual(lines.filter((line) => /initiate/.test(line)), []);
  });

  test('a key Khalti refuses is told to onError naming the Authorization: Key fix; the shopper gets IP-501', async () => {
    handler = make({ secretKey: 'live_secret_key_wrong' });
    const answered = await bookAnswer('web');
    assert.equal(answered.body.code, 'IP-501', JSON.stringify(answered.body));
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.equal(errors[0]!.route, 'book');
    assert.match(String((errors[0]!.error as Error).message), /Invalid token.*Authorization: Key <secret key>/s);
    assert.ok(lines.some((line) => /epayment\/initiate\/ -> 401/.test(line)), lines.join('\n'));
  });

  test("an initiate answer a merchant's fetch handed back after timeoutMs is IP-504 to the shopper, not a set-up fault told to onError", async () => {
    handler = make({ fetch: lateCloningFetch, timeoutMs: 100 });
    const answered = await bookAnswer('web');
    assert.equal(answered.body.code, 'IP-504', JSON.stringify(answered.body));
    assert.deepEqual(errors, []);
  });

  test('handler.refund in full delivers REVERTED (source refund); in part leaves SUCCESS', async () => {
    const full = await book();
    const part = await book();
    for (const booking of [full, part]) {
      await payAndReturn(booking);
      assert.equal(await status(booking), 'SUCCESS');
    }
    assert.deepEqual(await handler.refund({ booking_id: full.booking_id }), { status: 'REVERTED', amount: 250.5 });
    assert.deepEqual(await handler.refund({ booking_id: part.booking_id, amount: 50 }), { status: 'SUCCESS', amount: 50 });
    assert.deepEqual(deliveredFor(full).map((result) => [result.status, result.source]), [['SUCCESS', 'status'], ['REVERTED', 'refund']]);
    assert.deepEqual(deliveredFor(part).map((result) => result.status), ['SUCCESS']);
    assert.equal(await status(part), 'SUCCESS', 'Partially Refunded at Khalti');
    assert.equal(await status(full), 'REVERTED');
    assert.equal(deliveredFor(full).length, 2, 'the REVERTED is not delivered again');
  });

  test("a refund refused for a new account's limit rejects with the limit's named message", async () => {
    const refusing: typeof fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/refund/')) {
        return Promise.resolve(new Response(JSON.stringify({ detail: 'Refund cannot be processed: merchant KYC is not complete.' }), { status: 400, headers: { 'content-type': 'application/json' } }));
      }
      return fetch(input, init);
    };
    handler = make({ fetch: refusing });
    const booked = await book();
    await payAndReturn(booked);
    assert.equal(await status(booked), 'SUCCESS');
    await assert.rejects(handler.refund({ booking_id: booked.booking_id }), /limit.*KYC is not complete.*NPR 200 per transaction until its KYC is done/s);
    assert.equal(await status(booked), 'SUCCESS', 'nothing was refunded');
    assert.deepEqual(deliveredFor(booked).map((result) => result.status), ['SUCCESS']);
  });

  test("reconcile looks up a booking nobody came back for and delivers its CANCELED once it expires (the sandbox's clock)", async () => {
    const booked = await book();
    await openPage(booked.web_payment);
    await sandbox.clock.advance('6m');
    const open = await handler.reconcile({ recheckAfterMs: 0 });
    assert.deepEqual([open.checked, open.open, open.settled], [1, 1, 0], JSON.stringify(open));
    await sandbox.clock.advance('25m');
    const settled = await handler.reconcile({ recheckAfterMs: 0 });
    assert.deepEqual([settled.checked, settled.settled], [1, 1], JSON.stringify(settled));
    const again = await handler.reconcile({ recheckAfterMs: 0 });
    assert.equal(again.checked, 0, JSON.stringify(again));
    assert.deepEqual(deliveredFor(booked).map((result) => [result.status, result.source]), [['CANCELED', 'reconcile']]);
  });

  test('a new Khalti booking costs the store at most two round trips', async () => {
    calls.length = 0;
    await book();
    assert.ok(calls.length <= 2, `${calls.length} store calls: ${calls.join(', ')}`);
  });
});
