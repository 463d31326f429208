import { expect } from '@open-wc/testing';
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
    expect(error).to.be.instanceOf(BookingError);
    return error as BookingError;
  }
  throw new Error('expected a failure');
}

const order = { id: 'A-1' };

describe('booking client', () => {
  it('POSTs JSON to {endpoint}/book with the Idempotency-Key and returns the app booking', async () => {
    const fetch = fakeFetch([ok({ booking_id: 'B1', correlation_id: 'C1', channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' })]);
    const result = await client(fetch).book({ channel: 'app', order }, 'key-1');
    expect(result).to.deep.equal({ booking_id: 'B1', correlation_id: 'C1', channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' });
    const [call] = fetch.calls;
    expect(call!.url).to.equal('https://shop.test/api/pay/book');
    expect(call!.init.method).to.equal('POST');
    expect((call!.init.headers as Record<string, string>)['Idempotency-Key']).to.equal('key-1');
    expect(JSON.parse(call!.init.body as string)).to.deep.equal({ channel: 'app', order });
  });

  it('returns a web-payment instruction for the web channel', async () => {
    const web = { url: 'https://pay.wallet.test/form', method: 'POST', fields: { a: '1' } };
    const fetch = fakeFetch([ok({ booking_id: 'B1', correlation_id: 'C1', channel: 'web', web_payment: web })]);
    expect((await client(fetch).book({ channel: 'web', order }, 'k')).web_payment).to.deep.equal(web);
  });

  it('turns a failure envelope into an http error with its code', async () => {
    const fetch = fakeFetch([json(422, { code: 'IP-424', error_message: 'unknown order' })]);
    const error = await failure(client(fetch).book({ channel: 'app', order }, 'k'));
    expect([error.kind, error.status, error.code, error.serverMessage]).to.deep.equal(['http', 422, 'IP-424', 'unknown order']);
  });

  it('reports an HTML 502 as an http error', async () => {
    const fetch = fakeFetch([() => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 }))]);
    const error = await failure(client(fetch).book({ channel: 'app', order }, 'k'));
    expect([error.kind, error.status]).to.deep.equal(['http', 502]);
  });

  it('reports a 2xx non-JSON body as invalid-json', async () => {
    const fetch = fakeFetch([() => Promise.resolve(new Response('OK', { status: 200 }))]);
    expect((await failure(client(fetch).status({ booking_id: 'B', correlation_id: 'C' }))).kind).to.equal('invalid-json');
  });

  it('reports missing fields by name', async () => {
    const cases: [unknown, string][] = [
      [{ correlation_id: 'C1', deeplink: 'https://x' }, 'booking_id'],
      [{ booking_id: 'B1', deeplink: 'https://x' }, 'correlation_id'],
      [{ booking_id: 'B1', correlation_id: 'C1' }, 'deeplink'],
      [{ booking_id: 'B1', correlation_id: 'C1', channel: 'web', deeplink: 'https://x' }, 'channel'],
    ];
    for (const [data, field] of cases) {
      const error = await failure(client(fakeFetch([ok(data)])).book({ channel: 'app', order }, 'k'));
      expect(error.kind).to.equal('invalid-response');
      expect(error.message).to.contain(`"${field}"`);
    }
    const noData = await failure(client(fakeFetch([json(200, { code: 'IP-201' })])).book({ channel: 'app', order }, 'k'));
    expect(noData.message).to.contain('"data"');
    const badMethod = await failure(
      client(fakeFetch([ok({ booking_id: 'B', correlation_id: 'C', web_payment: { url: 'https://x', method: 'PUT' } })])).book({ channel: 'web', order }, 'k'),
    );
    expect(badMethod.message).to.contain('web_payment.method');
    const badStatus = await failure(client(fakeFetch([ok({ booking_id: 'B', correlation_id: 'C', status: 'DONE' })])).status({ booking_id: 'B', correlation_id: 'C' }));
    expect(badStatus.message).to.contain('"status"');
  });

  it("refuses a status or cancel answer about another booking than the one asked for", async () => {
    const ids = { booking_id: 'B1', correlation_id: 'C1' };
    const other = await failure(client(fakeFetch([ok({ booking_id: 'B2', correlation_id: 'C1', status: 'SUCCESS' })])).status(ids));
    expect([other.kind, other.message]).to.deep.equal(['invalid-response', 'The answer is about booking "B2", not "B1".']);
    const cancelled = await failure(client(fakeFetch([ok({ booking_id: 'B2', status: 'CANCELED' })])).cancel(ids));
    expect([cancelled.kind, cancelled.message]).to.deep.equal(['invalid-response', 'The answer is about booking "B2", not "B1".']);
    const none = await failure(client(fakeFetch([ok({ correlation_id: 'C1', status: 'SUCCESS' })])).status(ids));
    expect(none.message).to.equal('The answer lacks a valid "booking_id".');
    expect((await client(fakeFetch([ok({ ...ids, status: 'SUCCESS' })])).status(ids)).status).to.equal('SUCCESS');
  });

  it('times out and aborts the request', async () => {
    let signal: AbortSignal | undefined;
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        signal = init.signal ?? undefined;
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const error = await failure(client(fetch).book({ channel: 'app', order }, 'k'));
    expect(error.kind).to.equal('timeout');
    expect(signal?.aborted).to.equal(true);
  });

  it('reports a network failure', async () => {
    const fetch = fakeFetch([() => Promise.reject(new TypeError('Failed to fetch'))]);
    expect((await failure(client(fetch).book({ channel: 'app', order }, 'k'))).kind).to.equal('network');
  });

  it('reports offline without sending anything', async () => {
    const fetch = fakeFetch([ok({})]);
    expect((await failure(client(fetch, false).book({ channel: 'app', order }, 'k'))).kind).to.equal('offline');
    expect(fetch.calls).to.have.length(0);
  });

  it('cancels, and reports an already-processed refusal with IP-410', async () => {
    const done = await client(fakeFetch([json(200, { code: 'IP-210', message: 'ok', data: { booking_id: 'B', status: 'CANCELED' } })])).cancel({ booking_id: 'B', correlation_id: 'C' });
    expect(done).to.deep.equal({ booking_id: 'B', status: 'CANCELED' });
    const refused = await failure(client(fakeFetch([json(409, { code: 'IP-410', error_message: 'processed' })])).cancel({ booking_id: 'B', correlation_id: 'C' }));
    expect(refused.code).to.equal('IP-410');
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
    expect(settled).to.equal(null);
    await clock.advance(50);
    await flush();
    expect(settled, 'the timeout follows the clock at once').to.not.equal(null);
    expect((await pending).kind).to.equal('timeout');
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
      expect((await error).kind).to.equal('aborted');
      expect(clock.pending, 'the timeout timer is cleared').to.equal(0);
    }
    const aborted = new AbortController();
    aborted.abort();
    expect((await failure(c.status({ booking_id: 'B1', correlation_id: 'C1' }, aborted.signal))).kind).to.equal('aborted');
  });
});

describe('booking client: a wrong endpoint', () => {
  it('names the URL the request went to, not only the status', async () => {
    const c = client(fakeFetch([() => Promise.resolve(new Response('Not Found', { status: 404 }))]));
    const error = await failure(c.book({ channel: 'app', order }, 'k'));
    expect(error.message).to.equal('book: HTTP 404 from https://shop.test/api/pay/book');
    expect([error.kind, error.status]).to.deep.equal(['http', 404]);
  });
});
