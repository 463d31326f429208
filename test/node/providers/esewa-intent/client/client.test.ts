import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../../src/sandbox/index.js';
import { createServiceClient, type ServiceClient } from '../../../../../src/providers/esewa-intent/client.js';
import { ServiceError } from '../../../../../src/server/service-error.js';
import { answer, bodyOf, closedPortUrl, lateCloningFetch, listen, nodeSign, type Loopback } from '../../../server/helpers.js';

const KEY = 'client-test-access-key';
const PRODUCT = 'SHOP01';

function expectServiceError(expected: { code: string; kind: string; httpStatus: number | undefined; message?: RegExp }) {
  return (error: unknown) => {
    assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
    assert.equal(error.code, expected.code);
    assert.equal(error.kind, expected.kind);
    assert.equal(error.httpStatus, expected.httpStatus);
    if (expected.message) assert.match(error.message, expected.message);
    return true;
  };
}

const bookInput = (uuid: string, amount = 1500) => ({
  amount,
  transaction_uuid: uuid,
  callback_url: 'http://127.0.0.1:9/callback',
  redirect_url: 'http://127.0.0.1:9/done',
  properties: { order_id: 'A-1001' },
});

describe('service client against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: [PRODUCT, 'OTHER'] });
    client = createServiceClient({ baseUrl: sandbox.baseUrl, accessKey: KEY, productCode: PRODUCT, timeoutMs: 5000 });
  });
  after(() => sandbox.close());

  test('books, and the same transaction_uuid returns the same booking', async () => {
    const booking = await client.book(bookInput('client-book-1'));
    assert.match(booking.booking_id, /\S/);
    assert.match(booking.correlation_id, /\S/);
    assert.equal(booking.deeplink, `${sandbox.linksUrl}/pay/${encodeURIComponent(booking.booking_id)}`);
    assert.deepEqual(await client.book(bookInput('client-book-1')), booking);
    const stored = sandbox.getBooking(booking.booking_id);
    assert.equal(stored?.amount, 1500);
    assert.equal(stored?.product_code, PRODUCT);
    assert.deepEqual(stored?.properties, { order_id: 'A-1001' });
  });

  test('a reused transaction_uuid with another amount is refused with IP-409', async () => {
    await client.book(bookInput('client-book-2'));
    await assert.rejects(
      client.book(bookInput('client-book-2', 99)),
      expectServiceError({ code: 'IP-409', kind: 'rejected', httpStatus: 409 }),
    );
  });

  test('reads the status of a booking', async () => {
    const booking = await client.book(bookInput('client-status-1'));
    const status = await client.status(booking);
    assert.equal(status.booking_id, booking.booking_id);
    assert.equal(status.correlation_id, booking.correlation_id);
    assert.equal(status.product_code, PRODUCT);
    assert.equal(status.status, 'BOOKED');
    assert.equal(status.transaction_id, 'client-status-1');
    assert.match(status.updated_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.match(status.reference_code, /\S/);
  });

  test('cancels once, then gets IP-410', async () => {
    const booking = await client.book(bookInput('client-cancel-1'));
    const cancelled = await client.cancel(booking);
    assert.deepEqual(cancelled, {
      booking_id: booking.booking_id,
      status: 'CANCELED',
      correlation_id: booking.correlation_id,
      transaction_id: 'client-cancel-1',
    });
    assert.equal((await client.status(booking)).status, 'CANCELED');
    await assert.rejects(client.cancel(booking), expectServiceError({ code: 'IP-410', kind: 'rejected', httpStatus: 409 }));
  });

  test('an unknown booking is IP-404', async () => {
    await assert.rejects(
      client.status({ booking_id: 'no-such-booking', correlation_id: 'x' }),
      expectServiceError({ code: 'IP-404', kind: 'rejected', httpStatus: 404 }),
    );
  });

  test('a wrong access key is IP-400, an unknown product code IP-401', async () => {
    const wrongKey = createServiceClient({ baseUrl: sandbox.baseUrl, accessKey: 'not-the-key', productCode: PRODUCT });
    await assert.rejects(
      wrongKey.book(bookInput('client-key-1')),
      expectServiceError({ code: 'IP-400', kind: 'rejected', httpStatus: 401, message: /Invalid Signature/ }),
    );
    const stranger = createServiceClient({ baseUrl: sandbox.baseUrl, accessKey: KEY, productCode: 'NOBODY' });
    await assert.rejects(stranger.book(bookInput('client-key-2')), expectServiceError({ code: 'IP-401', kind: 'rejected', httpStatus: 401 }));
  });
});

describe('service client wire format', () => {
  let server: Loopback;
  const seen: Array<{ path: string; contentType: string | undefined; body: Record<string, unknown> }> = [];
  before(async () => {
    server = await listen((request, response) => {
      void bodyOf(request).then((text) => {
        seen.push({ path: request.url ?? '', contentType: request.headers['content-type'], body: JSON.parse(text) });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: 'IP-201', message: 'ok', data: { booking_id: 'b', deeplink: 'http://l/pay/b', correlation_id: 'c' } }));
      });
    });
  });
  after(() => server.close());

  test('POSTs JSON with the spec fields, signed as node:crypto signs them', async () => {
    const client = createServiceClient({ baseUrl: `${server.url}/`, accessKey: KEY, productCode: PRODUCT });
    await client.book({ ...bookInput('wire-1'), amount: 12.5 });
    const request = seen.at(-1)!;
    assert.equal(request.path, '/api/client/intent/payment/book');
    assert.equal(request.contentType, 'application/json');
    assert.deepEqual(request.body, {
      product_code: PRODUCT,
      amount: 12.5,
      transaction_uuid: 'wire-1',
      signed_field_names: 'product_code,amount,transaction_uuid',
      signature: nodeSign(`product_code=${PRODUCT},amount=12.5,transaction_uuid=wire-1`, KEY),
      callback_url: 'http://127.0.0.1:9/callback',
      redirect_url: 'http://127.0.0.1:9/done',
      properties: { order_id: 'A-1001' },
    });
    await client.status({ booking_id: 'b', correlation_id: 'c' }).catch(() => undefined);
    assert.deepEqual(seen.at(-1)!.body, {
      booking_id: 'b',
      product_code: PRODUCT,
      correlation_id: 'c',
      signed_field_names: 'booking_id,product_code,correlation_id',
      signature: nodeSign(`booking_id=b,product_code=${PRODUCT},correlation_id=c`, KEY),
    });
    await client.cancel({ booking_id: 'b' }).catch(() => undefined);
    assert.deepEqual(seen.at(-1)!.body, {
      booking_id: 'b',
      product_code: PRODUCT,
      signed_field_names: 'booking_id,product_code',
      signature: nodeSign(`booking_id=b,product_code=${PRODUCT}`, KEY),
    });
  });

  test('an answer lacking a field or with an unknown status is IP-502', async () => {
    const client = createServiceClient({ baseUrl: server.url, accessKey: KEY, productCode: PRODUCT });
    // The loopback answers every call with book data, which a status answer cannot use.
    await assert.rejects(
      client.status({ booking_id: 'b', correlation_id: 'c' }),
      expectServiceError({ code: 'IP-502', kind: 'unavailable', httpStatus: 200, message: /lacks a string "product_code"/ }),
    );
  });
});

describe('service client when the service misbehaves', () => {
  const servers: Loopback[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));
  async function clientFor(listener: Parameters<typeof listen>[0], timeoutMs = 2000) {
    const server = await listen(listener);
    servers.push(server);
    return createServiceClient({ baseUrl: server.url, accessKey: KEY, productCode: PRODUCT, timeoutMs });
  }

  test('a 500 with an HTML page is IP-502 with the HTTP status', async () => {
    const client = await clientFor(answer(500, 'text/html', '<h1>Internal Server Error</h1>'));
    await assert.rejects(
      client.book(bookInput('x-1')),
      expectServiceError({ code: 'IP-502', kind: 'unavailable', httpStatus: 500, message: /HTTP 500 and a body that is not JSON \(text\/html\)/ }),
    );
  });

  test('a 200 with an HTML page is IP-502', async () => {
    const client = await clientFor(answer(200, 'text/html', '<html>maintenance</html>'));
    await assert.rejects(client.cancel({ booking_id: 'b' }), expectServiceError({ code: 'IP-502', kind: 'unavailable', httpStatus: 200 }));
  });

  test('JSON that is no envelope is IP-502', async () => {
    const client = await clientFor(answer(200, 'application/json', '{"ok":true}'));
    await assert.rejects(
      client.cancel({ booking_id: 'b' }),
      expectServiceError({ code: 'IP-502', kind: 'unavailable', httpStatus: 200, message: /no envelope/ }),
    );
    const noData = await clientFor(answer(503, 'application/json', '{"code":"IP-201","message":"ok","data":{}}'));
    await assert.rejects(noData.cancel({ booking_id: 'b' }), expectServiceError({ code: 'IP-502', kind: 'unavailable', httpStatus: 503, message: /neither a success nor a failure/ }));
  });

  test('a status outside the spec is IP-502', async () => {
    const data = { booking_id: 'b', status: 'PAID', correlation_id: 'c', transaction_id: 't' };
    const client = await clientFor(answer(200, 'application/json', JSON.stringify({ code: 'IP-210', message: 'ok', data })));
    await assert.rejects(client.cancel({ booking_id: 'b' }), expectServiceError({ code: 'IP-502', kind: 'unavailable', httpStatus: 200, message: /unknown status "PAID"/ }));
  });

  test('a failure envelope keeps the service code and message', async () => {
    const client = await clientFor(answer(418, 'application/json', '{"code":"IP-999","error_message":"Teapot"}'));
    await assert.rejects(client.cancel({ booking_id: 'b' }), expectServiceError({ code: 'IP-999', kind: 'rejected', httpStatus: 418, message: /^Teapot$/ }));
  });

  test('no answer within timeoutMs is IP-504', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const client = await clientFor(() => arrived(), 150);
    const started = Date.now();
    await assert.rejects(
      client.status({ booking_id: 'b', correlation_id: 'c' }),
      expectServiceError({ code: 'IP-504', kind: 'timeout', httpStatus: undefined, message: /within 150 ms/ }),
    );
    await requestArrived;
    assert.ok(Date.now() - started < 2000);
  });

  test("an answer a merchant's fetch cloned and handed back after timeoutMs is IP-504, never its empty body read as no JSON", async () => {
    const server = await listen(answer(200, 'application/json', JSON.stringify({ code: 'IP-201', message: 'ok', data: { booking_id: 'b', correlation_id: 'c', deeplink: 'esewa://pay?b' } })));
    servers.push(server);
    const client = createServiceClient({ baseUrl: server.url, accessKey: KEY, productCode: PRODUCT, timeoutMs: 100, fetch: lateCloningFetch });
    await assert.rejects(client.book(bookInput('late-1')), expectServiceError({ code: 'IP-504', kind: 'timeout', httpStatus: undefined, message: /within 100 ms/ }));
  });

  test('a body that stalls after the headers is IP-504 too', async () => {
    const client = await clientFor((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"code":');
    }, 150);
    await assert.rejects(client.cancel({ booking_id: 'b' }), expectServiceError({ code: 'IP-504', kind: 'timeout', httpStatus: undefined }));
  });

  test('an answer larger than the cap (an endless body) is IP-502, read no further than the cap', async () => {
    let sent = 0;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const client = await clientFor((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.on('close', () => closed());
      const pump = () => {
        // Up to 256 MB: far past any cap, bounded so a broken client cannot fill the machine.
        while (!response.destroyed && sent < 256 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    }, 10_000);
    await assert.rejects(
      client.status({ booking_id: 'b', correlation_id: 'c' }),
      expectServiceError({ code: 'IP-502', kind: 'unavailable', httpStatus: 200, message: /larger than 65536 bytes/ }),
    );
    await connectionClosed;
    assert.ok(sent < 32 * 1024 * 1024, `the server wrote ${sent} bytes before the client let go`);
  });

  test('a refused connection is IP-502 without an HTTP status', async () => {
    const client = createServiceClient({ baseUrl: await closedPortUrl(), accessKey: KEY, productCode: PRODUCT });
    await assert.rejects(
      client.book(bookInput('x-2')),
      expectServiceError({ code: 'IP-502', kind: 'unavailable', httpStatus: undefined, message: /could not be reached/ }),
    );
  });
});

describe('service client input', () => {
  test('refuses bad options and bad booking input before calling', async () => {
    assert.throws(() => createServiceClient({ baseUrl: 'not a url', accessKey: KEY, productCode: PRODUCT }), /absolute URL/);
    assert.throws(() => createServiceClient({ baseUrl: 'ftp://x', accessKey: KEY, productCode: PRODUCT }), /http\(s\)/);
    assert.throws(() => createServiceClient({ baseUrl: 'http://x', accessKey: '', productCode: PRODUCT }), /accessKey/);
    assert.throws(() => createServiceClient({ baseUrl: 'http://x', accessKey: KEY, productCode: '' }), /productCode/);
    assert.throws(() => createServiceClient({ baseUrl: 'http://x', accessKey: KEY, productCode: PRODUCT, timeoutMs: 0 }), /timeoutMs/);
    let calls = 0;
    const client = createServiceClient({
      baseUrl: 'http://127.0.0.1:9',
      accessKey: KEY,
      productCode: PRODUCT,
      fetch: async () => {
        calls++;
        return new Response('{}');
      },
    });
    await assert.rejects(client.book(bookInput('ok', -1)), /amount must be a positive finite number/);
    await assert.rejects(client.book(bookInput('ok', Number.NaN)), /amount/);
    await assert.rejects(client.book(bookInput('has space')), /transaction_uuid must be 1 to 64/);
    await assert.rejects(client.book(bookInput('x'.repeat(65))), /transaction_uuid/);
    assert.equal(calls, 0);
  });
});
