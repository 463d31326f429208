import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import {
  createPaymentHandler,
  type PaymentHandler,
  type PaymentHandlerOptions,
  type PaymentResult,
} from '../../../../src/server/handler.js';
import { createMemoryStore } from '../../../../src/server/memory-store.js';
import { transactionUuid } from '../../../../src/server/order-tag.js';
import { closedPortUrl, listen, nodeSign, type Loopback, onSandbox, payAtWallet as payOnWalletPage } from '../helpers.js';

const KEY = 'handler-test-access-key';
const PRODUCT = 'SHOP01';
const ORDERS: Record<string, { id: string; amount: number; properties?: Record<string, string> }> = {
  'A-1': { id: 'A-1', amount: 1500, properties: { order_id: 'A-1', item: 'Tea' } },
  'A-2': { id: 'A-2', amount: 250.5 },
  'NO-CALLBACK': { id: 'NO-CALLBACK', amount: 700, properties: { sandbox_callback: 'never' } },
  'NO-CALLBACK-2': { id: 'NO-CALLBACK-2', amount: 700, properties: { sandbox_callback: 'never' } },
};
const BASE = 'http://merchant.test/api/pay';

let keyCounter = 0;
/** A fresh Idempotency-Key per payment attempt, as the element sends. */
const newKey = () => `test-key-${process.pid}-${++keyCounter}-${crypto.randomUUID()}`;

/** Every body the handler answered the browser with, for the no-secrets check. */
const browserAnswers: string[] = [];

interface Answer {
  status: number;
  headers: Headers;
  body: { code: string; message?: string; error_message?: string; data?: Record<string, unknown> };
}

async function send(
  handler: PaymentHandler,
  route: string,
  body: unknown,
  init: { headers?: Record<string, string>; method?: string; raw?: string } = {},
): Promise<Answer> {
  const method = init.method ?? 'POST';
  const request = new Request(`${BASE}/${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: init.raw ?? JSON.stringify(body) }),
  });
  const response = await handler(request);
  const text = await response.text();
  browserAnswers.push(text);
  return { status: response.status, headers: response.headers, body: JSON.parse(text) };
}

/** `key: null` sends no Idempotency-Key. */
const book = (handler: PaymentHandler, body: unknown, key: string | null = newKey()) =>
  send(handler, 'book', body, { headers: key === null ? {} : { 'idempotency-key': key } });

function failureOf(answer: Answer, code: string, status: number, message: RegExp): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.deepEqual(Object.keys(answer.body).sort(), ['code', 'error_message']);
  assert.equal(answer.body.code, code);
  assert.match(answer.body.error_message ?? '', message);
}

describe('payment handler against the sandbox', () => {
  let sandbox: Sandbox;
  let handler: PaymentHandler;
  const results: PaymentResult[] = [];
  const errors: unknown[] = [];
  let lookups = 0;
  let failHook = 0;
  let options: PaymentHandlerOptions;

  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 1, baseDelayMs: 10 } });
    options = {
      serviceUrl: sandbox.baseUrl,
      productCode: PRODUCT,
      accessKey: KEY,
      // Nothing listens there: these tests settle payments by status checks, the round trip covers callbacks.
      callbackUrl: `${await closedPortUrl()}/api/pay/callback`,
      redirectUrl: ({ order, handoff }) => `http://merchant.test/${handoff ? 'phone' : 'return'}?order=${String(order.id)}`,
      lookupOrder: async (order) => {
        lookups++;
        return ORDERS[String(order.id)] ?? (String(order.id).startsWith('FRESH-') ? { id: String(order.id), amount: 300 } : undefined);
      },
      onPaymentResult: async (result) => {
        if (failHook > 0) {
          failHook--;
          throw new Error('the order database is down');
        }
        results.push(result);
      },
      onError: (error) => errors.push(error),
      // A fresh memory store for each handler made from these options (each read of it makes one), as
      // for separate servers; a test that shares one passes it.
      get store() {
        return createMemoryStore();
      },
    };
    handler = createPaymentHandler(options);
  });
  after(() => sandbox.close());

  test('a hand-off books the app channel and sends the phone where redirectUrl says a hand-off goes', async () => {
    const answer = await book(handler, { channel: 'app', order: { id: 'A-1' }, handoff: true }, newKey());
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const booked = sandbox.getBooking(String(answer.body.data!.booking_id))!;
    assert.equal(booked.redirect_url, 'http://merchant.test/phone?order=A-1');
    const plain = await book(handler, { channel: 'app', order: { id: 'A-1' } }, newKey());
    assert.equal(sandbox.getBooking(String(plain.body.data!.booking_id))!.redirect_url, 'http://merchant.test/return?order=A-1');
    for (const body of [{ channel: 'web', order: { id: 'A-1' }, handoff: true }, { channel: 'app', order: { id: 'A-1' }, handoff: 'yes' }]) {
      const refused = await book(handler, body, newKey());
      assert.equal(refused.body.code, 'IP-422', JSON.stringify(body));
    }
  });

  test('books the app channel: booking, deeplink, the server-side amount and a derived transaction_uuid', async () => {
    const key = newKey();
    // The fencing token the book holds the order under, as its store handed it out.
    const inner = createMemoryStore();
    let token = 0;
    const store: typeof inner = {
      ...inner,
      async beginBooking(start) {
        const opening = await inner.beginBooking(start);
        if (opening.status === 'leased') token = opening.token;
        return opening;
      },
    };
    const answer = await book(createPaymentHandler({ ...options, store }), { channel: 'app', order: { id: 'A-1' } }, key);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.code, 'IP-201');
    const data = answer.body.data!;
    assert.deepEqual(Object.keys(data).sort(), ['booking_id', 'channel', 'correlation_id', 'deeplink', 'receipt', 'wallet']);
    assert.equal(data.channel, 'app');
    assert.equal(data.wallet, 'esewa');
    assert.equal(data.deeplink, `${sandbox.linksUrl}/pay/${encodeURIComponent(String(data.booking_id))}`);
    const booked = sandbox.getBooking(String(data.booking_id))!;
    assert.equal(booked.correlation_id, data.correlation_id);
    assert.equal(booked.amount, 1500);
    assert.deepEqual(booked.properties, { merchant_order: 'A-1', order_id: 'A-1', item: 'Tea' });
    // Derived from the key, what it books (channel, the order's own id, amount) and the book's fencing
    // token, then the order's tag and the amount in paise (base 36).
    assert.ok(token > 0);
    const attempt = await transactionUuid(PRODUCT, key, `${JSON.stringify(['v2', 'app', 'A-1'])}\n1500\n${token}`);
    assert.equal(booked.transaction_uuid.slice(0, 30), attempt.slice(0, 30));
    assert.match(booked.transaction_uuid, /^wpb_[A-Za-z0-9_-]{48}[0-9a-z]{1,12}$/);
    assert.ok(booked.transaction_uuid.endsWith((150000).toString(36)));
    assert.ok(booked.transaction_uuid.length <= 64);
    assert.equal(booked.callback_url, options.callbackUrl);
    assert.equal(booked.redirect_url, 'http://merchant.test/return?order=A-1');
  });

  test('books the web channel with a signed web-payment form the sandbox accepts', async () => {
    const answer = await book(handler, { channel: 'web', order: { id: 'A-2' } });
    assert.equal(answer.status, 200);
    const data = answer.body.data as { booking_id: string; correlation_id: string; channel: string; web_payment: { url: string; method: string; fields: Record<string, string> } };
    assert.deepEqual(Object.keys(data).sort(), ['booking_id', 'channel', 'correlation_id', 'receipt', 'wallet', 'web_payment']);
    assert.equal(data.channel, 'web');
    assert.equal(sandbox.getBooking(data.booking_id)?.amount, 250.5);
    assert.deepEqual(data.web_payment, {
      url: sandbox.webPaymentUrl,
      method: 'POST',
      fields: {
        booking_id: data.booking_id,
        correlation_id: data.correlation_id,
        signed_field_names: 'booking_id,correlation_id',
        signature: nodeSign(`booking_id=${data.booking_id},correlation_id=${data.correlation_id}`, KEY),
      },
    });
    const page = await fetch(data.web_payment.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(data.web_payment.fields).toString(),
    });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /250\.5/);
  });

  test('the same Idempotency-Key returns the first booking and books once', async () => {
    const key = newKey();
    const before = sandbox.listBookings().length;
    const lookupsBefore = lookups;
    const first = await book(handler, { channel: 'app', order: { id: 'A-1' } }, key);
    const again = await book(handler, { order: { id: 'A-1' }, channel: 'app' }, key);
    assert.equal(first.status, 200);
    assert.deepEqual(again.body, first.body);
    assert.equal(sandbox.listBookings().length, before + 1);
    assert.equal(lookups, lookupsBefore + 2, 'the ownership check runs for the replay too');
  });

  test('concurrent requests with one Idempotency-Key share one booking', async () => {
    const key = newKey();
    const before = sandbox.listBookings().length;
    const lookupsBefore = lookups;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => book(handler, { channel: 'web', order: { id: 'A-1' } }, key)),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, answers[0]!.body);
    }
    assert.equal(sandbox.listBookings().length, before + 1);
    assert.equal(lookups, lookupsBefore + 12, 'each request is checked, then joins the one booking');
  });

  test('a replayed key is refused when lookupOrder refuses this shopper: the stored booking is never handed out', async () => {
    const key = newKey();
    const owned = createPaymentHandler({
      ...options,
      lookupOrder: (order, { request }) => (request.headers.get('cookie') === 'session=owner' ? ORDERS[String(order.id)] : undefined),
    });
    const headers = (cookie: string) => ({ headers: { 'idempotency-key': key, cookie } });
    assert.equal((await send(owned, 'book', { channel: 'web', order: { id: 'A-2' } }, headers('session=owner'))).status, 200);
    failureOf(await send(owned, 'book', { channel: 'web', order: { id: 'A-2' } }, headers('session=thief')), 'IP-424', 422, /unknown or cannot be paid/);
  });

  test('one payable booking per order: a second key cancels the first booking; once paid, a third is IP-412 and the result is delivered', async () => {
    const order = { id: `FRESH-${crypto.randomUUID()}` };
    const first = (await book(handler, { channel: 'app', order })).body.data!;
    const second = (await book(handler, { channel: 'app', order })).body.data!;
    assert.notEqual(second.booking_id, first.booking_id);
    assert.equal(sandbox.getBooking(String(first.booking_id))?.status, 'CANCELED');
    assert.deepEqual(
      results.filter((r) => r.booking_id === first.booking_id).map((r) => [r.source, r.status]),
      [['cancel', 'CANCELED']],
    );
    await payOnWalletPage(String(second.deeplink));
    failureOf(await book(handler, { channel: 'app', order }), 'IP-412', 409, /already paid/);
    assert.equal(sandbox.getBooking(String(second.booking_id))?.status, 'SUCCESS');
    assert.equal(results.filter((r) => r.booking_id === second.booking_id && r.status === 'SUCCESS').length, 1);
    assert.equal(sandbox.listBookings().filter((b) => b.properties.merchant_order === order.id).length, 2, 'the third was never booked');
  });

  test('an order whose SUCCESS was delivered is IP-412 for another key, without a call to the service; a refund makes it payable again', async () => {
    const calls: string[] = [];
    const counted = createPaymentHandler({
      ...options,
      store: createMemoryStore(),
      fetch: (input, init) => {
        calls.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
        return fetch(input, init);
      },
    });
    const order = { id: `FRESH-${crypto.randomUUID()}` };
    const ofOrder = () => sandbox.listBookings().filter((b) => b.properties.merchant_order === order.id);
    const keyA = newKey();
    const first = (await book(counted, { channel: 'app', order }, keyA)).body.data!;
    await payOnWalletPage(String(first.deeplink));
    const ids = { booking_id: first.booking_id, correlation_id: first.correlation_id };
    assert.equal((await send(counted, 'status', ids)).body.data?.status, 'SUCCESS');
    assert.equal(results.filter((r) => r.booking_id === first.booking_id && r.status === 'SUCCESS').length, 1, 'delivered: the booking is settled');

    calls.length = 0;
    failureOf(await book(counted, { channel: 'app', order }), 'IP-412', 409, /already paid/);
    failureOf(await book(counted, { channel: 'web', order }), 'IP-412', 409, /already paid/);
    assert.deepEqual(calls, [], 'refused from the store alone');
    assert.equal(ofOrder().length, 1, 'no second booking');
    assert.equal((await book(counted, { channel: 'app', order }, keyA)).body.data?.booking_id, first.booking_id, "the paid attempt's own key still gets its booking");

    // A refund (REVERTED, delivered) makes the order payable again; lookupOrder decides whether it still is.
    sandbox.revert(String(first.booking_id));
    assert.equal((await send(counted, 'status', ids)).body.data?.status, 'REVERTED');
    assert.equal(results.filter((r) => r.booking_id === first.booking_id && r.status === 'REVERTED').length, 1);
    const again = await book(counted, { channel: 'app', order });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.notEqual(again.body.data?.booking_id, first.booking_id);
    assert.deepEqual(ofOrder().map((b) => b.status), ['REVERTED', 'BOOKED']);
  });

  test('the same Idempotency-Key with another order or channel is IP-409, also while the first is in flight', async () => {
    const key = newKey();
    const answers = await Promise.all([
      book(handler, { channel: 'app', order: { id: 'A-1' } }, key),
      book(handler, { channel: 'app', order: { id: 'A-2' } }, key),
    ]);
    // Either may reach the service first: exactly one books, the other is refused.
    const won = answers.findIndex((answer) => answer.status === 200);
    assert.ok(won >= 0 && answers.filter((answer) => answer.status === 200).length === 1, JSON.stringify(answers.map((a) => a.body)));
    failureOf(answers[1 - won]!, 'IP-409', 409, /already used for another order or channel/);
    const [winner, loser] = won === 0 ? ['A-1', 'A-2'] : ['A-2', 'A-1'];
    failureOf(await book(handler, { channel: 'app', order: { id: loser } }, key), 'IP-409', 409, /another order/);
    failureOf(await book(handler, { channel: 'web', order: { id: winner } }, key), 'IP-409', 409, /channel/);
  });

  test('a restarted server (empty store) books a replayed key anew, under a reference of its own', async () => {
    const key = newKey();
    // Each on a store of its own (options.store makes one per handler): the first book holds its store's first token.
    const first = await book(createPaymentHandler(options), { channel: 'app', order: { id: 'A-1' } }, key);
    const restarted = createPaymentHandler(options);
    // Another order first, so the restarted store's token for the replay is not the one the first book held.
    await book(restarted, { channel: 'app', order: { id: 'A-2' } });
    const again = await book(restarted, { channel: 'app', order: { id: 'A-1' } }, key);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.notEqual(again.body.data?.booking_id, first.body.data?.booking_id);
    const earlier = sandbox.getBooking(String(first.body.data?.booking_id));
    const replayed = sandbox.getBooking(String(again.body.data?.booking_id));
    assert.notEqual(replayed?.transaction_uuid, earlier?.transaction_uuid);
    assert.equal(replayed?.status, 'BOOKED', 'the replay is payable');
  });

  // Two orders the service cannot tell apart (same amount, no properties, one redirect URL): the worst
  // case for a key that outlived this server's memory of it.
  const twinOptions = (store = createMemoryStore()): PaymentHandlerOptions => ({
    ...options,
    redirectUrl: 'http://merchant.test/return',
    lookupOrder: (order) => (String(order.id).startsWith('TWIN-') ? { id: String(order.id), amount: 100 } : undefined),
    store,
  });

  test('a paid key sent again for another order, after the server forgot the key, books anew: the other order is never reported paid', async () => {
    const key = newKey();
    const first = createPaymentHandler(twinOptions());
    const paid = (await book(first, { channel: 'app', order: { id: 'TWIN-1' } }, key)).body.data!;
    await payOnWalletPage(String(paid.deeplink));
    const ids = { booking_id: String(paid.booking_id), correlation_id: String(paid.correlation_id) };
    assert.equal((await send(first, 'status', ids)).body.data?.status, 'SUCCESS');
    // A restart (an empty store), and the shopper's key replayed with another order.
    const restarted = createPaymentHandler(twinOptions());
    const other = await book(restarted, { channel: 'app', order: { id: 'TWIN-2' } }, key);
    assert.equal(other.status, 200, JSON.stringify(other.body));
    assert.notEqual(other.body.data?.booking_id, paid.booking_id, 'a new booking, not the paid one');
    const otherIds = { booking_id: String(other.body.data?.booking_id), correlation_id: String(other.body.data?.correlation_id) };
    assert.equal((await send(restarted, 'status', otherIds)).body.data?.status, 'BOOKED');
    assert.deepEqual(
      results.filter((r) => r.status === 'SUCCESS' && r.order?.id === 'TWIN-2'),
      [],
      'TWIN-2 was never paid',
    );
  });

  test('a key whose record was evicted (a flooded store) cannot carry a paid booking to another order either', async () => {
    const store = createMemoryStore({ maxEntries: 3 });
    const flooded = createPaymentHandler(twinOptions(store));
    const key = newKey();
    const paid = (await book(flooded, { channel: 'app', order: { id: 'TWIN-3' } }, key)).body.data!;
    await payOnWalletPage(String(paid.deeplink));
    for (let i = 0; i < 4; i++) await book(flooded, { channel: 'app', order: { id: `TWIN-FLOOD-${i}` } });
    const other = await book(flooded, { channel: 'app', order: { id: 'TWIN-4' } }, key);
    assert.equal(other.status, 200, JSON.stringify(other.body));
    assert.notEqual(other.body.data?.booking_id, paid.booking_id);
  });

  test("lookupOrder gets the shopper's request, to check that the order is theirs", async () => {
    const seen: (string | null)[] = [];
    const owned = createPaymentHandler({
      ...options,
      lookupOrder: (order, { request }) => {
        seen.push(request.headers.get('cookie'));
        return request.headers.get('cookie') === 'session=owner' ? ORDERS[String(order.id)] : undefined;
      },
    });
    const mine = await send(owned, 'book', { channel: 'app', order: { id: 'A-1' } }, { headers: { 'idempotency-key': newKey(), cookie: 'session=owner' } });
    assert.equal(mine.status, 200);
    const theirs = await send(owned, 'book', { channel: 'app', order: { id: 'A-1' } }, { headers: { 'idempotency-key': newKey(), cookie: 'session=someone-else' } });
    failureOf(theirs, 'IP-424', 422, /unknown or cannot be paid/);
    assert.deepEqual(seen, ['session=owner', 'session=someone-else']);
  });

  test("reconcile(): the merchant's own status check settles a paid booking nobody came back for, once", async () => {
    const settled: PaymentResult[] = [];
    const own = createPaymentHandler({ ...options, store: createMemoryStore(), onPaymentResult: (result) => void settled.push(result) });
    // Paid on the wallet page; the sandbox never sends this order's callback, and no browser asks.
    const paid = (await book(own, { channel: 'app', order: { id: 'NO-CALLBACK' } })).body.data!;
    await payOnWalletPage(String(paid.deeplink));
    const unpaid = (await book(own, { channel: 'app', order: { id: 'A-1' } })).body.data!;
    // Younger than the spec's five minutes: not asked about yet.
    assert.deepEqual(await own.reconcile(), { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false });
    assert.deepEqual(await own.reconcile({ olderThanMs: 0 }), { checked: 2, settled: 1, open: 1, failed: 0, cancelled: 0, unfinished: false });
    assert.deepEqual(
      settled.map((r) => [r.source, r.status, r.booking_id, r.order, r.amount]),
      [['reconcile', 'SUCCESS', paid.booking_id, { id: 'NO-CALLBACK' }, 700]],
    );
    // Settled means done: the next pass asks only about the open one (just checked, so asked again only
    // when recheckAfterMs allows).
    assert.deepEqual(await own.reconcile({ olderThanMs: 0 }), { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false });
    assert.deepEqual(await own.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { checked: 1, settled: 0, open: 1, failed: 0, cancelled: 0, unfinished: false });
    await send(own, 'cancel', { booking_id: unpaid.booking_id, correlation_id: unpaid.correlation_id });
    assert.deepEqual(await own.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false });
    assert.equal(settled.length, 2);
  });

  test('reconcile(): a service that is down, or a failing hook, is counted and told, and the next pass tries again', async () => {
    const told: unknown[] = [];
    let hookDown = true;
    const store = createMemoryStore();
    const own = createPaymentHandler({
      ...options,
      store,
      onPaymentResult: () => {
        if (hookDown) throw new Error('the order database is down');
      },
      onError: (error, { route }) => told.push([route, error instanceof Error ? error.message : String(error)]),
    });
    const paid = (await book(own, { channel: 'app', order: { id: 'NO-CALLBACK' } })).body.data!;
    await payOnWalletPage(String(paid.deeplink));
    assert.deepEqual(await own.reconcile({ olderThanMs: 0 }), { checked: 1, settled: 0, open: 0, failed: 1, cancelled: 0, unfinished: false });
    assert.deepEqual(told, [['reconcile', 'the order database is down']]);
    const serviceDown = createPaymentHandler({ ...options, store, serviceUrl: await closedPortUrl(), onError: (error, { route }) => told.push([route]) });
    assert.deepEqual(await serviceDown.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { checked: 1, settled: 0, open: 0, failed: 1, cancelled: 0, unfinished: false });
    assert.deepEqual(told.at(-1), ['reconcile']);
    hookDown = false;
    assert.deepEqual(await own.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { checked: 1, settled: 1, open: 0, failed: 0, cancelled: 0, unfinished: false });
  });

  test('a missing or malformed Idempotency-Key is IP-422', async () => {
    const body = { channel: 'app', order: { id: 'A-1' } };
    failureOf(await book(handler, body, null), 'IP-422', 422, /Idempotency-Key header is missing/);
    failureOf(await book(handler, body, 'short'), 'IP-422', 422, /16 to 128 letters/);
    failureOf(await book(handler, body, 'has spaces in the key!'), 'IP-422', 422, /Idempotency-Key/);
    failureOf(await book(handler, body, 'k'.repeat(129)), 'IP-422', 422, /Idempotency-Key/);
  });

  test('an unknown order is IP-424; a failing or wrong order lookup is IP-500 and reported', async () => {
    failureOf(await book(handler, { channel: 'app', order: { id: 'NOPE' } }), 'IP-424', 422, /order is unknown or cannot be paid/);
    const errorsBefore = errors.length;
    const throwing = createPaymentHandler({ ...options, lookupOrder: () => Promise.reject(new Error('db down')) });
    failureOf(await book(throwing, { channel: 'app', order: { id: 'A-1' } }), 'IP-500', 500, /could not look up this order/);
    assert.match(String(errors[errorsBefore]), /db down/);
    const priceless = createPaymentHandler({ ...options, lookupOrder: () => ({ id: 'A-1', amount: Number.NaN }) });
    failureOf(await book(priceless, { channel: 'app', order: { id: 'A-1' } }), 'IP-500', 500, /could not price this order/);
    assert.match(String(errors[errorsBefore + 1]), /the amount number NaN; it must be a positive number of rupees/);
  });

  test('status reads the booking; another correlation id or an unknown booking is IP-404', async () => {
    const { data } = (await book(handler, { channel: 'app', order: { id: 'A-1' } })).body;
    const ids = { booking_id: data!.booking_id, correlation_id: data!.correlation_id };
    const answer = await send(handler, 'status', ids);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.code, 'IP-201');
    assert.deepEqual(Object.keys(answer.body.data!).sort(), ['booking_id', 'correlation_id', 'status', 'updated_at']);
    assert.equal(answer.body.data!.status, 'BOOKED');
    assert.equal(answer.body.data!.booking_id, ids.booking_id);
    failureOf(await send(handler, 'status', { ...ids, correlation_id: 'guessed' }), 'IP-404', 404, /No booking with this booking_id and correlation_id/);
    failureOf(await send(handler, 'status', { ...ids, booking_id: 'bk_unknown' }), 'IP-404', 404, /No booking/);
  });

  test('cancel moves a booking to CANCELED, reports it once, and a second cancel is IP-410', async () => {
    const { data } = (await book(handler, { channel: 'app', order: { id: 'A-2' } })).body;
    const ids = { booking_id: data!.booking_id, correlation_id: data!.correlation_id };
    const answer = await send(handler, 'cancel', ids);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.code, 'IP-210');
    assert.deepEqual(answer.body.data, { booking_id: ids.booking_id, status: 'CANCELED' });
    const reported = results.filter((r) => r.booking_id === ids.booking_id);
    assert.deepEqual(reported.map((r) => [r.source, r.status, r.amount]), [['cancel', 'CANCELED', 250.5]]);
    failureOf(await send(handler, 'cancel', ids), 'IP-410', 409, /already processed/);
    await send(handler, 'status', ids);
    assert.equal(results.filter((r) => r.booking_id === ids.booking_id).length, 1);
  });

  test('cancel after a successful payment is IP-410', async () => {
    const { data } = (await book(handler, { channel: 'app', order: { id: 'A-1' } })).body;
    await payOnWalletPage(String(data!.deeplink));
    failureOf(
      await send(handler, 'cancel', { booking_id: data!.booking_id, correlation_id: data!.correlation_id }),
      'IP-410',
      409,
      /already processed/,
    );
  });

  test('a status check that finds a final status calls the hook once', async () => {
    const { data } = (await book(handler, { channel: 'app', order: { id: 'NO-CALLBACK' } })).body;
    const ids = { booking_id: String(data!.booking_id), correlation_id: String(data!.correlation_id) };
    await payOnWalletPage(String(data!.deeplink));
    await sandbox.whenCallbacksSettled();
    assert.equal(sandbox.callbackAttempts().filter((a) => a.booking_id === ids.booking_id).length, 0);
    const answers = await Promise.all([1, 2, 3].map(() => send(handler, 'status', ids)));
    answers.push(await send(handler, 'status', ids));
    for (const answer of answers) assert.equal(answer.body.data?.status, 'SUCCESS');
    const reported = results.filter((r) => r.booking_id === ids.booking_id);
    assert.equal(reported.length, 1);
    assert.deepEqual(
      { ...reported[0], reference_code: undefined },
      {
        source: 'status',
        status: 'SUCCESS',
        booking_id: ids.booking_id,
        correlation_id: ids.correlation_id,
        order: { id: 'NO-CALLBACK' },
        order_id: 'NO-CALLBACK',
        transaction_uuid: sandbox.getBooking(ids.booking_id)?.transaction_uuid,
        amount: 700,
        reference_code: undefined,
        wallet: 'esewa',
        provider: 'esewa-intent',
      },
    );
    assert.equal(reported[0]!.reference_code, sandbox.getBooking(ids.booking_id)?.reference_code);
  });

  test('a status check whose hook throws still answers, reports the error, and the next check retries the hook', async () => {
    // Not NO-CALLBACK: the test before paid that order, so another key's book of it is IP-412.
    const { data } = (await book(handler, { channel: 'app', order: { id: 'NO-CALLBACK-2' } })).body;
    const ids = { booking_id: String(data!.booking_id), correlation_id: String(data!.correlation_id) };
    await payOnWalletPage(String(data!.deeplink), '0000');
    const errorsBefore = errors.length;
    failHook = 1;
    const first = await send(handler, 'status', ids);
    assert.equal(first.status, 200);
    assert.equal(first.body.data?.status, 'FAILED');
    assert.match(String(errors[errorsBefore]), /order database is down/);
    assert.equal(results.filter((r) => r.booking_id === ids.booking_id).length, 0);
    await send(handler, 'status', ids);
    await send(handler, 'status', ids);
    assert.deepEqual(results.filter((r) => r.booking_id === ids.booking_id).map((r) => r.status), ['FAILED']);
  });

  test('bad requests from the browser get the failure envelope with their code, and change nothing', async () => {
    const bookingsBefore = sandbox.listBookings().length;
    const key = { 'idempotency-key': newKey() };
    const cases: Array<{ name: string; route: string; body?: unknown; raw?: string; method?: string; headers?: Record<string, string>; code: string; status: number; message: RegExp }> = [
      { name: 'GET', route: 'book', method: 'GET', code: 'IP-405', status: 405, message: /Use POST for \/book; got GET/ },
      { name: 'PUT', route: 'status', method: 'PUT', body: {}, code: 'IP-405', status: 405, message: /got PUT/ },
      { name: 'unknown endpoint', route: 'refund', body: {}, code: 'IP-444', status: 404, message: /No such endpoint/ },
      { name: 'text/plain', route: 'book', raw: '{}', headers: { 'content-type': 'text/plain' }, code: 'IP-415', status: 415, message: /application\/json; got "text\/plain"/ },
      { name: 'form', route: 'cancel', raw: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' }, code: 'IP-415', status: 415, message: /application\/json/ },
      { name: 'non-JSON', route: 'book', raw: '{"channel":', headers: key, code: 'IP-422', status: 422, message: /not valid JSON/ },
      { name: 'empty body', route: 'status', raw: '', code: 'IP-422', status: 422, message: /body is empty/ },
      { name: 'huge body', route: 'book', raw: JSON.stringify({ channel: 'app', order: { pad: 'x'.repeat(20_000) } }), headers: key, code: 'IP-413', status: 413, message: /larger than 16384 bytes/ },
      { name: 'array', route: 'book', body: [1], headers: key, code: 'IP-422', status: 422, message: /must be a JSON object with channel and order; got an array/ },
      { name: 'null', route: 'status', body: null, code: 'IP-422', status: 422, message: /got null/ },
      { name: 'missing order', route: 'book', body: { channel: 'app' }, headers: key, code: 'IP-422', status: 422, message: /Missing field\(s\): order/ },
      { name: 'extra amount', route: 'book', body: { channel: 'app', order: { id: 'A-1' }, amount: 1 }, headers: key, code: 'IP-422', status: 422, message: /Unexpected field\(s\): "amount"/ },
      { name: 'wrong channel', route: 'book', body: { channel: 'desktop', order: { id: 'A-1' } }, headers: key, code: 'IP-422', status: 422, message: /"channel" must be "app" or "web"; got a string "desktop"/ },
      { name: 'order not an object', route: 'book', body: { channel: 'web', order: 'A-1' }, headers: key, code: 'IP-422', status: 422, message: /"order" must be an object/ },
      { name: 'order an array', route: 'book', body: { channel: 'web', order: ['A-1'] }, headers: key, code: 'IP-422', status: 422, message: /"order" must be an object.*got an array/ },
      { name: 'status missing correlation', route: 'status', body: { booking_id: 'b' }, code: 'IP-422', status: 422, message: /Missing field\(s\): correlation_id/ },
      { name: 'status numeric id', route: 'status', body: { booking_id: 42, correlation_id: 'c' }, code: 'IP-422', status: 422, message: /"booking_id" must be a non-empty string.*got number 42/ },
      { name: 'cancel empty id', route: 'cancel', body: { booking_id: '', correlation_id: 'c' }, code: 'IP-422', status: 422, message: /"booking_id" must be a non-empty string/ },
      { name: 'cancel extra field', route: 'cancel', body: { booking_id: 'b', correlation_id: 'c', product_code: 'SHOP01' }, code: 'IP-422', status: 422, message: /Unexpected field\(s\): "product_code"/ },
      { name: 'cancel unknown', route: 'cancel', body: { booking_id: 'b', correlation_id: 'c' }, code: 'IP-404', status: 404, message: /No booking/ },
    ];
    for (const c of cases) {
      const answer = await send(handler, c.route, c.body, { method: c.method, raw: c.raw, headers: c.headers });
      assert.doesNotThrow(() => failureOf(answer, c.code, c.status, c.message), `case "${c.name}": ${JSON.stringify(answer.body)}`);
      if (c.code === 'IP-405') assert.equal(answer.headers.get('allow'), 'POST');
    }
    assert.equal(sandbox.listBookings().length, bookingsBefore);
  });

  test('a body that is not UTF-8 is IP-422', async () => {
    const response = await handler(
      new Request(`${BASE}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array([0x7b, 0xff, 0x7d]) }),
    );
    const text = await response.text();
    browserAnswers.push(text);
    failureOf({ status: response.status, headers: response.headers, body: JSON.parse(text) }, 'IP-422', 422, /not valid UTF-8/);
  });

  test('a misconfigured merchant (wrong access key) reads as IP-501 to the browser and is reported', async () => {
    const errorsBefore = errors.length;
    const wrongKey = createPaymentHandler({ ...options, accessKey: 'not-the-key' });
    failureOf(await book(wrongKey, { channel: 'app', order: { id: 'A-1' } }), 'IP-501', 500, /problem in its own set-up; please contact the shop/);
    assert.match(String(errors[errorsBefore]), /Invalid Signature/);
  });

  test('a service that is down is IP-502; one that hangs is IP-504', async () => {
    const down = createPaymentHandler({ ...options, serviceUrl: await closedPortUrl() });
    failureOf(await book(down, { channel: 'app', order: { id: 'A-1' } }), 'IP-502', 502, /could not process/);
    let hanging: Loopback | undefined;
    try {
      hanging = await listen(() => {});
      const slow = createPaymentHandler({ ...options, serviceUrl: hanging.url, timeoutMs: 100 });
      failureOf(await book(slow, { channel: 'app', order: { id: 'A-1' } }), 'IP-504', 504, /did not answer in time/);
    } finally {
      await hanging?.close();
    }
  });

  test('a failed booking is not remembered: the same key books once the service is back', async () => {
    const key = newKey();
    const down = createPaymentHandler({ ...options, serviceUrl: await closedPortUrl() });
    failureOf(await book(down, { channel: 'app', order: { id: 'FRESH-1' } }, key), 'IP-502', 502, /could not process/);
    const answer = await book(handler, { channel: 'app', order: { id: 'FRESH-1' } }, key);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  });

  test('no answer to the browser carries the access key or a signature other than the web form one', () => {
    assert.ok(browserAnswers.length > 40);
    for (const text of browserAnswers) {
      assert.ok(!text.includes(KEY), `an answer holds the access key: ${text}`);
      const body = JSON.parse(text) as { data?: { web_payment?: { fields?: Record<string, string> } } };
      if (body.data?.web_payment?.fields) delete body.data.web_payment.fields;
      assert.doesNotMatch(JSON.stringify(body), /signature|signed_field_names/, text);
    }
  });
});

describe('payment handler options', () => {
  const valid: PaymentHandlerOptions = {
    serviceUrl: 'http://127.0.0.1:9',
    productCode: PRODUCT,
    accessKey: KEY,
    callbackUrl: 'http://127.0.0.1:9/callback',
    redirectUrl: 'http://127.0.0.1:9/done',
    lookupOrder: () => undefined,
    onPaymentResult: () => {},
    store: createMemoryStore(),
  };

  test('refuses missing options with a message naming them', () => {
    assert.throws(() => createPaymentHandler({ ...valid, accessKey: '' }), /accessKey is required/);
    assert.throws(() => createPaymentHandler({ ...valid, callbackUrl: undefined as unknown as string }), /callbackUrl is required/);
    assert.throws(() => createPaymentHandler({ ...valid, lookupOrder: undefined as never }), /lookupOrder is required/);
    assert.throws(() => createPaymentHandler({ ...valid, onPaymentResult: undefined as never }), /onPaymentResult is required/);
    assert.throws(() => createPaymentHandler({ ...valid, redirectUrl: 5 as never }), /redirectUrl/);
    assert.throws(() => createPaymentHandler({ ...valid, serviceUrl: 'nope' }), /absolute URL/);
  });

  test('routes by the last path segment, under any mount path', async () => {
    // The service does not know the booking either (the kit asks it about a booking its store lacks).
    const unknown = () => Promise.resolve(new Response(JSON.stringify({ code: 'IP-404', error_message: 'No booking' }), { status: 404 }));
    const handler = createPaymentHandler({ ...valid, fetch: unknown });
    for (const url of ['http://x/status', 'http://x/a/b/c/status/', 'http://x/status?x=1']) {
      const response = await handler(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"booking_id":"b","correlation_id":"c"}' }));
      assert.equal(response.status, 404);
      assert.equal(((await response.json()) as { code: string }).code, 'IP-404', url);
    }
    const root = await handler(new Request('http://x/', { method: 'POST' }));
    assert.equal(((await root.json()) as { code: string }).code, 'IP-444');
  });

  test('the web payment page URL can be configured', async () => {
    const sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT });
    try {
      const handler = createPaymentHandler({
        ...valid,
        serviceUrl: sandbox.baseUrl,
        lookupOrder: () => ({ id: 'x', amount: 10 }),
        webPayment: { url: 'https://pay.provider.test/checkout' },
      });
      const answer = await book(handler, { channel: 'web', order: { id: 'x' } });
      assert.equal((answer.body.data as { web_payment: { url: string } }).web_payment.url, 'https://pay.provider.test/checkout');
    } finally {
      await sandbox.close();
    }
  });
});

describe('payment handler and an expired booking', () => {
  test('a status check of an expired booking reports CANCELED once, and cancel is IP-410', async () => {
    let now = Date.parse('2026-01-01T10:00:00Z');
    const sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, bookingTtlMs: 60_000, now: () => now });
    const results: PaymentResult[] = [];
    try {
      const handler = createPaymentHandler({
        ...onSandbox(sandbox),
        lookupOrder: () => ({ id: 'E-1', amount: 80 }),
        store: createMemoryStore(),
        onPaymentResult: (result) => {
          results.push(result);
        },
      });
      const { data } = (await book(handler, { channel: 'app', order: { id: 'E-1' } })).body;
      const ids = { booking_id: data!.booking_id, correlation_id: data!.correlation_id };
      assert.equal((await send(handler, 'status', ids)).body.data?.status, 'BOOKED');
      assert.equal(results.length, 0);
      now += 60_001;
      assert.equal((await send(handler, 'status', ids)).body.data?.status, 'CANCELED');
      failureOf(await send(handler, 'cancel', ids), 'IP-410', 409, /already processed/);
      assert.deepEqual(results.map((r) => [r.source, r.status, r.booking_id]), [['status', 'CANCELED', ids.booking_id]]);
    } finally {
      await sandbox.close();
    }
  });
});
