import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertIncludes } from '../../support/assert.js';
import { BookingError, createBookingClient, type FetchLike } from '../../../src/core/booking-client.js';
import { FakeClock, flush } from '../../support/fake-clock.js';

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch answering from a list (pure-logic unit test: the element tests use the real proxy). */
function fakeFetch(answers: (() => Promise<Response>)[]): FetchLike & { calls: Call[] } {
  const calls: Call[] = [];
  const fn = (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const next = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return next();
  };
  return Object.assign(fn, { calls });
}

const json = (status: number, body: unknown) => () => Promise.resolve(new Response(JSON.stringify(body), { status }));
const ok = (data: unknown) => json(200, { code: 'IP-201', message: 'ok', data });

function client(fetch: FetchLike, online = true) {
  return createBookingClient({ endpoint: 'https://shop.test/api/pay/', fetch, bookTimeoutMs: 50, requestTimeoutMs: 50, isOnline: () => online });
}

async function failure(promise: Promise<unknown>): Promise<BookingError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof BookingError);
    return error as BookingError;
  }
  throw new Error('expected a failure');
}

const order = { id: 'A-1' };

describe('booking client', () => {
  it('POSTs JSON to {endpoint}/book with the Idempotency-Key and returns the app booking', async () => {
    const fetch = fakeFetch([ok({ booking_id: 'B1', correlation_id: 'C1', channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' })]);
    const result = await client(fetch).book({ channel: 'app', order }, 'key-1');
    assert.deepEqual(result, { booking_id: 'B1', correlation_id: 'C1', channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' });
    const [call] = fetch.calls;
    assert.equal(call!.url, 'https://shop.test/api/pay/book');
    assert.equal(call!.init.method, 'POST');
    assert.equal((call!.init.headers as Record<string, string>)['Idempotency-Key'], 'key-1');
    assert.deepEqual(JSON.parse(call!.init.body as string), { channel: 'app', order });
  });

  it('follows a web answer to an app request: a wallet paid on the web only at this shop', async () => {
    const web = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { amount: '100' } };
    const fetch = fakeFetch([ok({ booking_id: 'B1', correlation_id: 'C1', channel: 'web', wallet: 'esewa', web_payment: web })]);
    const result = await client(fetch).book({ channel: 'app', order }, 'k');
    assert.equal(result.channel, 'web');
    assert.equal(result.wallet, 'esewa');
    assert.deepEqual(result.web_payment, web);
  });

  it('returns a web-payment instruction for the web channel', async () => {
    const web = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { a: '1' } };
    const fetch = fakeFetch([ok({ booking_id: 'B1', correlation_id: 'C1', channel: 'web', web_payment: web })]);
    assert.deepEqual((await client(fetch).book({ channel: 'web', order }, 'k')).web_payment, web);
  });

  it('turns a failure envelope into an http error with its code', async () => {
    const fetch = fakeFetch([json(422, { code: 'IP-424', error_message: 'unknown order' })]);
    const error = await failure(client(fetch).book({ channel: 'app', order }, 'k'));
    assert.deepEqual([error.kind, error.status, error.code, error.serverMessage], ['http', 422, 'IP-424', 'unknown order']);
  });

  it('reports an HTML 502 as an http error', async () => {
    const fetch = fakeFetch([() => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 }))]);
    const error = await failure(client(fetch).book({ channel: 'app', order }, 'k'));
    assert.deepEqual([error.kind, error.status], ['http', 502]);
  });

  it('reports a 2xx non-JSON body as invalid-json', async () => {
    const fetch = fakeFetch([() => Promise.resolve(new Response('OK', { status: 200 }))]);
    assert.equal((await failure(client(fetch).status({ booking_id: 'B', correlation_id: 'C' }))).kind, 'invalid-json');
  });

  it('reports missing fields by name', async () => {
    const cases: [unknown, string][] = [
      [{ correlation_id: 'C1', deeplink: 'https://x' }, 'booking_id'],
      [{ booking_id: 'B1', deeplink: 'https://x' }, 'correlation_id'],
      [{ booking_id: 'B1', correlation_id: 'C1' }, 'deeplink'],
      // A web answer to an app request is followed as web, so it must carry the web payment.
      [{ booking_id: 'B1', correlation_id: 'C1', channel: 'web', deeplink: 'https://x' }, 'web_payment'],
      [{ booking_id: 'B1', correlation_id: 'C1', channel: 'sms', deeplink: 'https://x' }, 'channel'],
    ];
    for (const [data, field] of cases) {
      const error = await failure(client(fakeFetch([ok(data)])).book({ channel: 'app', order }, 'k'));
      assert.equal(error.kind, 'invalid-response');
      assertIncludes(error.message, `"${field}"`);
    }
    const noData = await failure(client(fakeFetch([json(200, { code: 'IP-201' })])).book({ channel: 'app', order }, 'k'));
    assertIncludes(noData.message, '"data"');
    const badMethod = await failure(
      client(fakeFetch([ok({ booking_id: 'B', correlation_id: 'C', web_payment: { url: 'https://x', method: 'PUT' } })])).book({ channel: 'web', order }, 'k'),
    );
    assertIncludes(badMethod.message, 'web_payment.method');
    const badStatus = await failure(client(fakeFetch([ok({ booking_id: 'B', correlation_id: 'C', status: 'DONE' })])).status({ booking_id: 'B', correlation_id: 'C' }));
    assertIncludes(badStatus.message, '"status"');
  });

  it("refuses a status or cancel answer about another booking than the one asked for", async () => {
    const ids = { booking_id: 'B1', correlation_id: 'C1' };
    const other = await failure(client(fakeFetch([ok({ booking_id: 'B2', correlation_id: 'C1', status: 'SUCCESS' })])).status(ids));
    assert.deepEqual([other.kind, other.message], ['invalid-response', 'The answer is about booking "B2", not "B1".']);
    const cancelled = await failure(client(fakeFetch([ok({ booking_id: 'B2', status: 'CANCELED' })])).cancel(ids));
    assert.deepEqual([cancelled.kind, cancelled.message], ['invalid-response', 'The answer is about booking "B2", not "B1".']);
    const none = await failure(client(fakeFetch([ok({ correlation_id: 'C1', status: 'SUCCESS' })])).status(ids));
    assert.equal(none.message, 'The answer lacks a valid "booking_id".');
    assert.equal((await client(fakeFetch([ok({ ...ids, status: 'SUCCESS' })])).status(ids)).status, 'SUCCESS');
  });

  it('times out and aborts the request', async () => {
    let signal: AbortSignal | undefined;
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        signal = init.signal ?? undefined;
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const error = await failure(client(fetch).book({ channel: 'app', order }, 'k'));
    assert.equal(error.kind, 'timeout');
    assert.equal(signal?.aborted, true);
  });

  it('reports a network failure', async () => {
    const fetch = fakeFetch([() => Promise.reject(new TypeError('Failed to fetch'))]);
    assert.equal((await failure(client(fetch).book({ channel: 'app', order }, 'k'))).kind, 'network');
  });

  it('reports offline without sending anything', async () => {
    const fetch = fakeFetch([ok({})]);
    assert.equal((await failure(client(fetch, false).book({ channel: 'app', order }, 'k'))).kind, 'offline');
    assert.equal(fetch.calls.length, 0);
  });

  it('cancels, and reports an already-processed refusal with IP-410', async () => {
    const done = await client(fakeFetch([json(200, { code: 'IP-210', message: 'ok', data: { booking_id: 'B', status: 'CANCELED' } })])).cancel({ booking_id: 'B', correlation_id: 'C' });
    assert.deepEqual(done, { booking_id: 'B', status: 'CANCELED' });
    const refused = await failure(client(fakeFetch([json(409, { code: 'IP-410', error_message: 'processed' })])).cancel({ booking_id: 'B', correlation_id: 'C' }));
    assert.equal(refused.code, 'IP-410');
  });
});

describe('booking client: time and abandon', () => {
  /** A fetch that answers only when its request is aborted. */
  const hanging: FetchLike = (_url, init) =>
    new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

  it('times out on the injected clock, not on the global timers', async () => {
    const clock = new FakeClock();
    const c = createBookingClient({ endpoint: 'https://shop.test/pay', fetch: hanging, bookTimeoutMs: 50, requestTimeoutMs: 50, clock });
    let settled: BookingError | null = null;
    const pending = failure(c.book({ channel: 'app', order }, 'k')).then((error) => (settled = error));
    await flush();
    assert.equal(settled, null);
    await clock.advance(50);
    await flush();
    assert.notEqual(settled, null, 'the timeout follows the clock at once');
    assert.equal((await pending).kind, 'timeout');
  });

  it('stops a request when its signal is aborted, as an abandoned request (not a timeout)', async () => {
    const clock = new FakeClock();
    const c = createBookingClient({ endpoint: 'https://shop.test/pay', fetch: hanging, bookTimeoutMs: 50, requestTimeoutMs: 50, clock });
    for (const run of [
      (signal: AbortSignal) => c.book({ channel: 'app', order }, 'k', signal),
      (signal: AbortSignal) => c.status({ booking_id: 'B1', correlation_id: 'C1' }, signal),
      (signal: AbortSignal) => c.cancel({ booking_id: 'B1', correlation_id: 'C1' }, signal),
    ]) {
      const controller = new AbortController();
      const error = failure(run(controller.signal));
      await flush();
      controller.abort();
      assert.equal((await error).kind, 'aborted');
      assert.equal(clock.pending, 0, 'the timeout timer is cleared');
    }
    const aborted = new AbortController();
    aborted.abort();
    assert.equal((await failure(c.status({ booking_id: 'B1', correlation_id: 'C1' }, aborted.signal))).kind, 'aborted');
  });
});

describe('booking client: a wrong endpoint', () => {
  it('names the URL the request went to, not only the status', async () => {
    const c = client(fakeFetch([() => Promise.resolve(new Response('Not Found', { status: 404 }))]));
    const error = await failure(c.book({ channel: 'app', order }, 'k'));
    assert.equal(error.message, 'book: HTTP 404 from https://shop.test/api/pay/book');
    assert.deepEqual([error.kind, error.status], ['http', 404]);
  });
});
