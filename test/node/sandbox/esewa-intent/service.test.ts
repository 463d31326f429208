import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { HTTP_STATUS_OF_CODE } from '../../../../src/protocol/contract.js';
import { MAX_BOOKINGS, SandboxService } from '../../../../src/sandbox/esewa-intent/service.js';

// Signatures are computed here with node:crypto, never with the code under test.
const nodeSign = (message: string, key: string) =>
  createHmac('sha256', Buffer.from(key, 'utf8')).update(message, 'utf8').digest('base64');

const KEY = 'test-access-key-42';
const PRODUCT = 'SHOP01';
const OTHER = 'SHOP02';

interface Answer {
  status: number;
  headers: Headers;
  body: { code: string; message?: string; error_message?: string; data?: Record<string, unknown> };
}

async function send(
  sandbox: Sandbox,
  path: string,
  body: string | object,
  init: { method?: string; contentType?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.contentType !== null) headers['content-type'] = init.contentType ?? 'application/json';
  const method = init.method ?? 'POST';
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Answer['body'] };
}

let uuidCounter = 0;
const nextUuid = () => `order-${Date.now()}-${++uuidCounter}`;

/** A signed book request; `amountText` is the amount exactly as written in the body. */
function bookBody(overrides: Record<string, unknown> = {}, key = KEY): Record<string, unknown> {
  const body: Record<string, unknown> = {
    product_code: PRODUCT,
    amount: 1000,
    transaction_uuid: nextUuid(),
    signed_field_names: 'product_code,amount,transaction_uuid',
    callback_url: 'http://127.0.0.1:9/callback',
    redirect_url: 'https://shop.example/return?order=1',
    properties: { item: 'Green tea', quantity: '2' },
    ...overrides,
  };
  if (!('signature' in overrides)) {
    body['signature'] = nodeSign(
      `product_code=${String(body['product_code'])},amount=${String(body['amount'])},transaction_uuid=${String(body['transaction_uuid'])}`,
      key,
    );
  }
  return body;
}

function statusBody(bookingId: string, correlationId: string, product = PRODUCT, key = KEY) {
  return {
    booking_id: bookingId,
    product_code: product,
    correlation_id: correlationId,
    signed_field_names: 'booking_id,product_code,correlation_id',
    signature: nodeSign(`booking_id=${bookingId},product_code=${product},correlation_id=${correlationId}`, key),
  };
}

function cancelBody(bookingId: string, product = PRODUCT, key = KEY) {
  return {
    booking_id: bookingId,
    product_code: product,
    signed_field_names: 'booking_id,product_code',
    signature: nodeSign(`booking_id=${bookingId},product_code=${product}`, key),
  };
}

const BOOK = '/api/client/intent/payment/book';
const STATUS = '/api/client/intent/payment/status';
const CANCEL = '/api/client/intent/payment/cancel';

async function book(sandbox: Sandbox, overrides: Record<string, unknown> = {}) {
  const answer = await send(sandbox, BOOK, bookBody(overrides));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data as { booking_id: string; correlation_id: string; deeplink: string };
}

function assertFailure(answer: Answer, code: string, messagePart?: RegExp) {
  assert.equal(answer.body.code, code, JSON.stringify(answer.body));
  assert.equal(answer.status, HTTP_STATUS_OF_CODE[code as keyof typeof HTTP_STATUS_OF_CODE]);
  assert.ok(answer.status >= 400, 'a failure never comes with a 2xx status');
  assert.deepEqual(Object.keys(answer.body).sort(), ['code', 'error_message']);
  assert.equal(typeof answer.body.error_message, 'string');
  if (messagePart) assert.match(answer.body.error_message!, messagePart);
}

describe('sandbox API', () => {
  let sandbox: Sandbox;
  let clock = Date.UTC(2026, 0, 2, 3, 4, 5);
  const TTL = 60_000;

  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: [PRODUCT, OTHER], bookingTtlMs: TTL, now: () => clock });
  });
  after(() => sandbox.close());

  describe('book', () => {
    test('creates a BOOKED booking and answers IP-201 with booking_id, deeplink and correlation_id', async () => {
      const body = bookBody();
      const answer = await send(sandbox, BOOK, body);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.code, 'IP-201');
      assert.equal(answer.body.message, 'Success');
      const data = answer.body.data!;
      assert.deepEqual(Object.keys(data).sort(), ['booking_id', 'correlation_id', 'deeplink']);
      assert.equal(data['deeplink'], `${sandbox.linksUrl}/pay/${String(data['booking_id'])}`);
      assert.notEqual(new URL(sandbox.linksUrl).port, new URL(sandbox.baseUrl).port, 'links live on another origin');
      const stored = sandbox.getBooking(data['booking_id'] as string)!;
      assert.equal(stored.status, 'BOOKED');
      assert.equal(stored.amount, 1000);
      assert.equal(stored.transaction_uuid, body['transaction_uuid']);
      assert.deepEqual(stored.properties, body['properties']);
      assert.equal(stored.correlation_id, data['correlation_id']);
    });

    test('verifies the amount as written in the body: 1000.0 is signed as 1000.0', async () => {
      const uuid = nextUuid();
      const raw = (signedAmount: string) =>
        `{"product_code":"${PRODUCT}","amount":1000.0,"transaction_uuid":"${uuid}",` +
        `"signed_field_names":"product_code,amount,transaction_uuid",` +
        `"signature":"${nodeSign(`product_code=${PRODUCT},amount=${signedAmount},transaction_uuid=${uuid}`, KEY)}",` +
        `"callback_url":"https://shop.example/cb","redirect_url":"https://shop.example/r","properties":{}}`;
      assertFailure(await send(sandbox, BOOK, raw('1000')), 'IP-400', /Invalid Signature/);
      const ok = await send(sandbox, BOOK, raw('1000.0'));
      assert.equal(ok.body.code, 'IP-201');
      assert.equal(sandbox.getBooking(ok.body.data!['booking_id'] as string)!.amount, 1000);
    });

    test('accepts amounts with up to two decimals', async () => {
      const data = await book(sandbox, { amount: 12.5 });
      assert.equal(sandbox.getBooking(data.booking_id)!.amount, 12.5);
      const cents = await book(sandbox, { amount: 0.01 });
      assert.equal(sandbox.getBooking(cents.booking_id)!.amount, 0.01);
    });

    test('ids are unguessable UUID-based values', async () => {
      const a = await book(sandbox);
      const b = await book(sandbox);
      assert.match(a.booking_id, /^BK-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.match(a.correlation_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.notEqual(a.booking_id, b.booking_id);
      assert.notEqual(a.correlation_id, b.correlation_id);
    });

    test('an invalid signature is IP-400 (HTTP 401) and creates nothing', async () => {
      const before = sandbox.listBookings().length;
      assertFailure(await send(sandbox, BOOK, bookBody({}, 'another-key')), 'IP-400', /Invalid Signature/);
      const tampered = bookBody();
      tampered['amount'] = 1;
      assertFailure(await send(sandbox, BOOK, tampered), 'IP-400');
      assertFailure(await send(sandbox, BOOK, bookBody({ signature: 'not base64!' })), 'IP-400');
      assert.equal(sandbox.listBookings().length, before);
    });

    test('signed_field_names other than the operation\'s list is IP-423', async () => {
      for (const names of ['amount,product_code,transaction_uuid', 'product_code,amount', 'product_code,amount,transaction_uuid,callback_url', 'product_code, amount, transaction_uuid']) {
        const body = bookBody({ signed_field_names: names });
        assertFailure(await send(sandbox, BOOK, body), 'IP-423', /product_code,amount,transaction_uuid/);
      }
    });

    test('an unknown product_code is IP-401 even when correctly signed', async () => {
      const before = sandbox.listBookings().length;
      assertFailure(await send(sandbox, BOOK, bookBody({ product_code: 'NOBODY' })), 'IP-401', /NOBODY/);
      assert.equal(sandbox.listBookings().length, before);
    });
  });

  describe('idempotent booking on product_code + transaction_uuid', () => {
    test('the same content returns the same booking', async () => {
      const body = bookBody();
      const first = await send(sandbox, BOOK, body);
      const before = sandbox.listBookings().length;
      const again = await send(sandbox, BOOK, { ...body, properties: { quantity: '2', item: 'Green tea' } });
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(sandbox.listBookings().length, before);
    });

    test('the same transaction_uuid with different content is IP-409 and changes nothing', async () => {
      const body = bookBody();
      const first = await send(sandbox, BOOK, body);
      const id = first.body.data!['booking_id'] as string;
      const snapshot = sandbox.getBooking(id);
      const count = sandbox.listBookings().length;
      const variants: Record<string, unknown>[] = [
        { amount: 1001 },
        { redirect_url: 'https://shop.example/other' },
        { callback_url: 'https://shop.example/other-cb' },
        { properties: { item: 'Black tea', quantity: '2' } },
        { properties: { item: 'Green tea' } },
      ];
      for (const change of variants) {
        const answer = await send(sandbox, BOOK, bookBody({ transaction_uuid: body['transaction_uuid'], ...change }));
        assertFailure(answer, 'IP-409', /already booked with different content/);
      }
      assert.deepEqual(sandbox.getBooking(id), snapshot);
      assert.equal(sandbox.listBookings().length, count);
    });

    test('another merchant may use the same transaction_uuid', async () => {
      const uuid = nextUuid();
      const mine = await book(sandbox, { transaction_uuid: uuid });
      const theirs = await book(sandbox, { transaction_uuid: uuid, product_code: OTHER });
      assert.notEqual(mine.booking_id, theirs.booking_id);
    });
  });

  describe('status', () => {
    test('answers IP-201 with the spec\'s fields', async () => {
      const uuid = nextUuid();
      const data = await book(sandbox, { transaction_uuid: uuid });
      const answer = await send(sandbox, STATUS, statusBody(data.booking_id, data.correlation_id));
      assert.equal(answer.status, 200);
      assert.equal(answer.body.code, 'IP-201');
      assert.equal(answer.body.message, 'Payment status fetched successfully');
      const stored = sandbox.getBooking(data.booking_id)!;
      assert.deepEqual(answer.body.data, {
        booking_id: data.booking_id,
        product_code: PRODUCT,
        status: 'BOOKED',
        correlation_id: data.correlation_id,
        transaction_id: uuid,
        reference_code: stored.reference_code,
        updated_at: '2026-01-02 03:04:05',
      });
      assert.match(stored.reference_code, /^REF-[0-9A-F]{16}$/);
    });

    test('an unknown booking, a foreign correlation_id or another merchant\'s booking is IP-404', async () => {
      const a = await book(sandbox);
      const b = await book(sandbox);
      assertFailure(await send(sandbox, STATUS, statusBody('BK-nope', a.correlation_id)), 'IP-404');
      assertFailure(await send(sandbox, STATUS, statusBody(a.booking_id, b.correlation_id)), 'IP-404', /correlation_id/);
      assertFailure(await send(sandbox, STATUS, statusBody(a.booking_id, a.correlation_id, OTHER)), 'IP-404');
    });

    test('a bad signature is IP-400; wrong signed fields IP-423; unknown product IP-401', async () => {
      const a = await book(sandbox);
      assertFailure(await send(sandbox, STATUS, statusBody(a.booking_id, a.correlation_id, PRODUCT, 'wrong')), 'IP-400');
      assertFailure(
        await send(sandbox, STATUS, { ...statusBody(a.booking_id, a.correlation_id), signed_field_names: 'booking_id,product_code' }),
        'IP-423',
      );
      assertFailure(await send(sandbox, STATUS, statusBody(a.booking_id, a.correlation_id, 'NOBODY')), 'IP-401');
    });
  });

  describe('cancel', () => {
    test('cancels a BOOKED booking with IP-210; a second cancel is IP-410', async () => {
      const uuid = nextUuid();
      const a = await book(sandbox, { transaction_uuid: uuid });
      const answer = await send(sandbox, CANCEL, cancelBody(a.booking_id));
      assert.equal(answer.status, 200);
      assert.equal(answer.body.code, 'IP-210');
      assert.equal(answer.body.message, 'Transaction cancelled');
      assert.deepEqual(answer.body.data, {
        booking_id: a.booking_id,
        status: 'CANCELED',
        correlation_id: a.correlation_id,
        transaction_id: uuid,
      });
      const status = await send(sandbox, STATUS, statusBody(a.booking_id, a.correlation_id));
      assert.equal(status.body.data!['status'], 'CANCELED');
      assertFailure(await send(sandbox, CANCEL, cancelBody(a.booking_id)), 'IP-410', /already processed.*CANCELED/);
    });

    test('a bad signature, an unknown booking or another merchant is refused and nothing changes', async () => {
      const a = await book(sandbox);
      assertFailure(await send(sandbox, CANCEL, cancelBody(a.booking_id, PRODUCT, 'wrong')), 'IP-400');
      assertFailure(await send(sandbox, CANCEL, cancelBody('BK-nope')), 'IP-404');
      assertFailure(await send(sandbox, CANCEL, cancelBody(a.booking_id, OTHER)), 'IP-404');
      assertFailure(await send(sandbox, CANCEL, cancelBody(a.booking_id, 'NOBODY')), 'IP-401');
      assertFailure(await send(sandbox, CANCEL, { ...cancelBody(a.booking_id), signed_field_names: 'product_code,booking_id' }), 'IP-423');
      assert.equal(sandbox.getBooking(a.booking_id)!.status, 'BOOKED');
      assert.equal(sandbox.getBooking(a.booking_id)!.history.length, 1);
    });
  });

  describe('expiry', () => {
    test('an unpaid booking past its TTL reads as CANCELED and cannot be cancelled', async () => {
      const a = await book(sandbox);
      const bookedAt = clock;
      clock += TTL - 1;
      let status = await send(sandbox, STATUS, statusBody(a.booking_id, a.correlation_id));
      assert.equal(status.body.data!['status'], 'BOOKED');
      clock += 1;
      status = await send(sandbox, STATUS, statusBody(a.booking_id, a.correlation_id));
      assert.equal(status.body.data!['status'], 'CANCELED');
      assert.equal(status.body.data!['updated_at'], new Date(bookedAt + TTL).toISOString().slice(0, 19).replace('T', ' '));
      assertFailure(await send(sandbox, CANCEL, cancelBody(a.booking_id)), 'IP-410');
      assert.equal(sandbox.getBooking(a.booking_id)!.history.at(-1)!.reason, 'expired');
      const page = await fetch(a.deeplink);
      assert.equal(page.status, 410);
      assert.match(await page.text(), /expired/);
    });
  });

  describe('bad input', () => {
    const huge = JSON.stringify(bookBody({ properties: { note: 'x'.repeat(70 * 1024) } }));
    const cases: Array<{ name: string; path?: string; body: () => string | object; method?: string; contentType?: string | null; code: string }> = [
      { name: 'missing field', body: () => { const b = bookBody(); delete b['properties']; return b; }, code: 'IP-422' },
      { name: 'amount as a string', body: () => bookBody({ amount: '1000' }), code: 'IP-422' },
      { name: 'amount zero', body: () => bookBody({ amount: 0 }), code: 'IP-422' },
      { name: 'amount negative', body: () => bookBody({ amount: -5 }), code: 'IP-422' },
      { name: 'amount with three decimals', body: () => bookBody({ amount: 10.125 }), code: 'IP-422' },
      { name: 'amount too large', body: () => bookBody({ amount: 1e12 }), code: 'IP-422' },
      { name: 'amount null', body: () => bookBody({ amount: null, signature: 'x' }), code: 'IP-422' },
      { name: 'transaction_uuid with a space', body: () => bookBody({ transaction_uuid: 'order 1' }), code: 'IP-422' },
      { name: 'transaction_uuid of 65 characters', body: () => bookBody({ transaction_uuid: 'a'.repeat(65) }), code: 'IP-422' },
      { name: 'transaction_uuid empty', body: () => bookBody({ transaction_uuid: '' }), code: 'IP-422' },
      { name: 'transaction_uuid as a number', body: () => bookBody({ transaction_uuid: 12 }), code: 'IP-422' },
      { name: 'product_code as a number', body: () => bookBody({ product_code: 7 }), code: 'IP-422' },
      { name: 'properties as an array', body: () => bookBody({ properties: ['a'] }), code: 'IP-422' },
      { name: 'properties null', body: () => bookBody({ properties: null }), code: 'IP-422' },
      { name: 'properties key not snake_case', body: () => bookBody({ properties: { itemName: 'x' } }), code: 'IP-422' },
      { name: 'properties value not a string', body: () => bookBody({ properties: { quantity: 2 } }), code: 'IP-422' },
      { name: 'properties with too many keys', body: () => bookBody({ properties: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }), code: 'IP-422' },
      { name: 'properties value too long', body: () => bookBody({ properties: { note: 'x'.repeat(257) } }), code: 'IP-422' },
      { name: 'callback_url not http(s)', body: () => bookBody({ callback_url: 'ftp://shop.example/cb' }), code: 'IP-422' },
      { name: 'callback_url javascript:', body: () => bookBody({ callback_url: 'javascript:alert(1)' }), code: 'IP-422' },
      { name: 'redirect_url relative', body: () => bookBody({ redirect_url: '/return' }), code: 'IP-422' },
      { name: 'redirect_url with credentials', body: () => bookBody({ redirect_url: 'https://u:p@shop.example/' }), code: 'IP-422' },
      { name: 'signed_field_names not a string', body: () => bookBody({ signed_field_names: 3 }), code: 'IP-422' },
      { name: 'signature not a string', body: () => bookBody({ signature: 3 }), code: 'IP-422' },
      { name: 'empty body', body: () => '', code: 'IP-422' },
      { name: 'blank body', body: () => '  \n', code: 'IP-422' },
      { name: 'non-JSON body', body: () => 'product_code=SHOP01', code: 'IP-422' },
      { name: 'truncated JSON', body: () => '{"product_code":', code: 'IP-422' },
      { name: 'JSON array', body: () => '[]', code: 'IP-422' },
      { name: 'JSON null', body: () => 'null', code: 'IP-422' },
      { name: 'JSON string', body: () => '"book"', code: 'IP-422' },
      { name: 'duplicate field', body: () => { const b = JSON.stringify(bookBody()); return `{"amount":1,${b.slice(1)}`; }, code: 'IP-422' },
      { name: 'huge body', body: () => huge, code: 'IP-413' },
      { name: 'text/plain content type', body: () => bookBody(), contentType: 'text/plain', code: 'IP-415' },
      { name: 'form content type', body: () => bookBody(), contentType: 'application/x-www-form-urlencoded', code: 'IP-415' },
      { name: 'no content type', body: () => bookBody(), contentType: null, code: 'IP-415' },
      { name: 'a non-UTF-8 charset', body: () => bookBody(), contentType: 'application/json; charset=latin1', code: 'IP-415' },
      { name: 'GET', body: () => '', method: 'GET', code: 'IP-405' },
      { name: 'PUT', body: () => bookBody(), method: 'PUT', code: 'IP-405' },
      { name: 'unknown path', path: '/api/client/intent/payment/refund', body: () => bookBody(), code: 'IP-444' },
      { name: 'root path', path: '/', body: () => bookBody(), code: 'IP-444' },
      { name: 'status: missing correlation_id', path: STATUS, body: () => ({ booking_id: 'x', product_code: PRODUCT, signed_field_names: 'booking_id,product_code', signature: 'x' }), code: 'IP-422' },
      { name: 'status: booking_id as a number', path: STATUS, body: () => ({ ...statusBody('x', 'y'), booking_id: 5 }), code: 'IP-422' },
      { name: 'cancel: empty booking_id', path: CANCEL, body: () => cancelBody(''), code: 'IP-422' },
      { name: 'cancel: GET', path: CANCEL, body: () => '', method: 'GET', code: 'IP-405' },
    ];

    for (const item of cases) {
      test(`${item.name} → ${item.code}, and no state changes`, async () => {
        const before = JSON.stringify(sandbox.listBookings());
        const answer = await send(sandbox, item.path ?? BOOK, item.body(), {
          ...(item.method ? { method: item.method } : {}),
          ...(item.contentType !== undefined ? { contentType: item.contentType } : {}),
        });
        assertFailure(answer, item.code);
        if (item.code === 'IP-405') assert.equal(answer.headers.get('allow'), 'POST');
        assert.equal(JSON.stringify(sandbox.listBookings()), before);
      });
    }
  });

  describe('concurrency', () => {
    test('500 concurrent bookings: each answered once, no duplicate booking_id, none lost', async () => {
      const before = sandbox.listBookings().length;
      const bodies = Array.from({ length: 500 }, () => bookBody());
      const answers = await Promise.all(bodies.map((body) => send(sandbox, BOOK, body)));
      assert.equal(answers.length, 500);
      for (const answer of answers) assert.equal(answer.body.code, 'IP-201');
      const ids = answers.map((answer) => answer.body.data!['booking_id'] as string);
      assert.equal(new Set(ids).size, 500);
      assert.equal(sandbox.listBookings().length, before + 500);
      bodies.forEach((body, i) => assert.equal(sandbox.getBooking(ids[i]!)!.transaction_uuid, body['transaction_uuid']));
    });

    test('concurrent replays of one transaction_uuid create one booking', async () => {
      const before = sandbox.listBookings().length;
      const body = bookBody();
      const answers = await Promise.all(Array.from({ length: 50 }, () => send(sandbox, BOOK, body)));
      assert.equal(new Set(answers.map((a) => a.body.data!['booking_id'])).size, 1);
      assert.equal(sandbox.listBookings().length, before + 1);
    });
  });
});

describe('fields the spec does not list', () => {
  // What real merchant code sends beside the spec's fields (book's `failure_url`, for one).
  const unknownOnBook = { failure_url: 'https://shop.example/failed', currency: 'NPR' };

  describe('by default: accepted, ignored and named in a warning line', () => {
    let sandbox: Sandbox;
    const lines: string[] = [];
    const warnings = () => lines.filter((line) => line.startsWith('warning:'));
    before(async () => {
      sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, log: (line) => lines.push(line) });
    });
    after(() => sandbox.close());

    test('book, status and cancel answer as without them, and each names its unknown fields in the log', async () => {
      lines.length = 0;
      const booked = await send(sandbox, BOOK, bookBody(unknownOnBook));
      assert.equal(booked.status, 200, JSON.stringify(booked.body));
      assert.equal(booked.body.code, 'IP-201');
      const { booking_id, correlation_id } = booked.body.data as { booking_id: string; correlation_id: string };
      const stored = sandbox.getBooking(booking_id)! as unknown as Record<string, unknown>;
      assert.ok(!('failure_url' in stored) && !('currency' in stored), 'an ignored field is not kept');

      const status = await send(sandbox, STATUS, { ...statusBody(booking_id, correlation_id), amount: 1000 });
      assert.equal(status.body.code, 'IP-201');
      assert.equal(status.body.data!['status'], 'BOOKED');

      const cancel = await send(sandbox, CANCEL, { ...cancelBody(booking_id), correlation_id });
      assert.equal(cancel.body.code, 'IP-210');
      assert.equal(sandbox.getBooking(booking_id)!.status, 'CANCELED');

      assert.deepEqual(warnings(), [
        'warning: book ignored field(s) the spec does not list: failure_url, currency (--strict refuses them)',
        'warning: status ignored field(s) the spec does not list: amount (--strict refuses them)',
        'warning: cancel ignored field(s) the spec does not list: correlation_id (--strict refuses them)',
      ]);
    });

    test('a request with only the spec\'s fields writes no warning', async () => {
      lines.length = 0;
      await send(sandbox, BOOK, bookBody());
      assert.ok(lines.some((line) => line.endsWith('/book -> 200')), lines.join('\n'));
      assert.deepEqual(warnings(), []);
    });

    test('ignored fields are not part of the booking\'s content: a replay with or without them is the same booking', async () => {
      const body = bookBody();
      const first = await send(sandbox, BOOK, body);
      const replay = await send(sandbox, BOOK, { ...body, ...unknownOnBook });
      assert.equal(replay.body.code, 'IP-201');
      assert.equal(replay.body.data!['booking_id'], first.body.data!['booking_id']);
    });

    test('a request refused for another reason still names its unknown fields, and keeps its own code', async () => {
      lines.length = 0;
      assertFailure(await send(sandbox, BOOK, bookBody({ ...unknownOnBook, signature: 'bm90IGl0' })), 'IP-400');
      assert.deepEqual(warnings(), ['warning: book ignored field(s) the spec does not list: failure_url, currency (--strict refuses them)']);
    });

    test('a missing field is still refused', async () => {
      const body = bookBody(unknownOnBook);
      delete body['redirect_url'];
      assertFailure(await send(sandbox, BOOK, body), 'IP-422', /Missing field\(s\) for book: redirect_url/);
    });
  });

  describe('strict: refused with IP-422, nothing changes', () => {
    let sandbox: Sandbox;
    const lines: string[] = [];
    before(async () => {
      sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, strict: true, log: (line) => lines.push(line) });
    });
    after(() => sandbox.close());

    test('book, status and cancel each refuse their unknown fields by name', async () => {
      const ok = await book(sandbox);
      const before = JSON.stringify(sandbox.listBookings());
      assertFailure(await send(sandbox, BOOK, bookBody(unknownOnBook)), 'IP-422', /^Unexpected field\(s\) for book: failure_url, currency\.$/);
      assertFailure(await send(sandbox, STATUS, { ...statusBody(ok.booking_id, ok.correlation_id), amount: 1 }), 'IP-422', /^Unexpected field\(s\) for status: amount\.$/);
      assertFailure(await send(sandbox, CANCEL, { ...cancelBody(ok.booking_id), correlation_id: ok.correlation_id }), 'IP-422', /^Unexpected field\(s\) for cancel: correlation_id\.$/);
      assert.equal(JSON.stringify(sandbox.listBookings()), before);
      assert.equal(sandbox.getBooking(ok.booking_id)!.status, 'BOOKED');
      assert.deepEqual(lines.filter((line) => line.startsWith('warning:')), []);
    });
  });
});

test(`the bookings stay bounded: past ${MAX_BOOKINGS} the oldest closed (or expired) one goes, an open one stays`, async () => {
  let now = 1_000_000;
  const service = new SandboxService({ accessKey: 'k', productCodes: ['P'], bookingTtlMs: 60_000, now: () => now, linksUrl: () => 'http://127.0.0.1:1' });
  const bookOne = async (uuid: string) => {
    const signature = createHmac('sha256', 'k').update(`product_code=P,amount=10,transaction_uuid=${uuid}`).digest('base64');
    const body = { product_code: 'P', amount: 10, transaction_uuid: uuid, signed_field_names: 'product_code,amount,transaction_uuid', signature, callback_url: 'http://127.0.0.1:1/cb', redirect_url: 'http://127.0.0.1:1/r', properties: {} };
    const result = await service.handle('book', JSON.stringify(body));
    return (result.body as unknown as { data: { booking_id: string } }).data.booking_id;
  };
  const first = await bookOne('first');
  const paid = await bookOne('paid');
  assert.equal(service.confirm(first, '1234', 'wallet_balance').ok, true);
  assert.equal(service.confirm(paid, '1234', 'wallet_balance').ok, true);
  now += 1;
  const open = await bookOne('open');
  for (let i = 0; i < MAX_BOOKINGS - 3; i++) await bookOne(`fill-${i}`);
  assert.equal(service.listBookings().length, MAX_BOOKINGS);
  await bookOne('one-more');
  assert.equal(service.listBookings().length, MAX_BOOKINGS);
  assert.equal(service.getBooking(first), undefined, 'the oldest closed booking went');
  assert.equal(service.getBooking(paid)?.status, 'SUCCESS');
  await bookOne('two-more');
  assert.equal(service.getBooking(paid), undefined);
  assert.equal(service.getBooking(open)?.status, 'BOOKED', 'an open booking is kept while closed ones can go');
});
