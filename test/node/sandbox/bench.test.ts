/**
 * The bench's parts on their own: the clock (its control, its rules, callback retries and the kit's
 * five-minute reconcile following it), the desk's bounds and resend rules, seeded chaos (the same seed,
 * the same faults in the same order) and the esewa-uat profile.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration, SandboxClock } from '../../../src/sandbox/clock.js';
import { parseChaos } from '../../../src/sandbox/chaos.js';
import { MAX_DELIVERIES } from '../../../src/sandbox/callbacks.js';
import { MAX_BOOKINGS, SandboxService } from '../../../src/sandbox/service.js';
import { createHmac } from 'node:crypto';
import { resendTargetProblem } from '../../../src/sandbox/admin.js';
import { redirectorLocation } from '../../../src/sandbox/profiles.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { createMemoryStore, createPaymentHandler, type PaymentResult } from '../../../src/server/index.js';
import { book, control, pay, startReceiver, status, until } from './support.js';

describe('the clock', () => {
  test('durations: ms, s, m, h, d and bare milliseconds; anything else is refused with an example', () => {
    assert.deepEqual(['250ms', '90s', '15m', '2h', '1d', '1500', '1.5m'].map(parseDuration), [250, 90_000, 900_000, 7_200_000, 86_400_000, 1500, 90_000]);
    assert.throws(() => parseDuration('soon'), /"soon" is not a duration: write a number and a unit, e.g. 15m/);
    assert.throws(() => parseDuration('-5m'), /not a duration/);
  });

  test('tasks run at their own times, in order, when the clock is moved past them; never backwards', async () => {
    let real = 1_000_000;
    const clock = new SandboxClock(() => real);
    const seen: string[] = [];
    clock.after(2000, () => seen.push(`b@${clock.now()}`));
    clock.after(1000, () => {
      seen.push(`a@${clock.now()}`);
      clock.after(500, () => seen.push(`a2@${clock.now()}`));
    });
    clock.after(10_000, () => seen.push('c'));
    assert.equal(await clock.advance(5000), 1_005_000);
    assert.deepEqual(seen, ['a@1001000', 'a2@1001500', 'b@1002000']);
    real += 100;
    assert.equal(clock.now(), 1_005_100, 'relative: real time keeps running on top of the offset');
    await assert.rejects(clock.set(0), /moves forward only/);
    await clock.set(Date.UTC(2100, 0, 1));
    assert.deepEqual(seen.at(-1), 'c', 'no interval limit: a jump of decades runs what is due');
    clock.stop();
  });

  test('GET and POST /sandbox/clock: advance, set, and clear refusals', async () => {
    const sandbox = await startSandbox();
    try {
      const start = await control<{ now: string; offset_ms: number }>(sandbox.baseUrl, '/sandbox/clock');
      assert.equal(start.status, 200);
      assert.ok(Math.abs(Date.parse(start.data.now) - Date.now()) < 60_000);
      const moved = await control<{ now: string }>(sandbox.baseUrl, '/sandbox/clock', { advance: '15m' });
      assert.ok(Date.parse(moved.data.now) - Date.parse(start.data.now) >= 900_000);
      const set = await control<{ now: string }>(sandbox.baseUrl, '/sandbox/clock', { set: '2099-12-01T10:00:00Z' });
      assert.ok(set.data.now.startsWith('2099-12-01T10:00:0'));
      for (const [body, message] of [
        [{ advance: 'later' }, /not a duration/],
        [{ set: '2000-01-01T00:00:00Z' }, /moves forward only/],
        [{ advance: '1m', set: '2100-01-01T00:00:00Z' }, /Send \{"advance":"15m"\} or \{"set"/],
        [{}, /Send \{"advance":"15m"\}/],
      ] as const) {
        const refused = await control(sandbox.baseUrl, '/sandbox/clock', body);
        assert.equal(refused.status, 422, JSON.stringify(body));
        assert.match(String(refused.body['error_message']), message);
      }
    } finally {
      await sandbox.close();
    }
  });

  test('callback retries follow the clock: none before their time, each one when the clock reaches it, then a dead letter', async () => {
    const receiver = await startReceiver();
    receiver.answer = () => 500;
    const sandbox = await startSandbox({ accessKey: 'k', productCode: 'P', callbackRetry: { attempts: 3, baseDelayMs: 60_000 } });
    try {
      const { body } = await book(sandbox.baseUrl, { key: 'k', product: 'P', callbackUrl: receiver.url });
      await pay(sandbox.baseUrl, body.data!['booking_id']!);
      await until(() => receiver.received.length === 1, 'the first attempt');
      await sandbox.clock.advance('59s');
      assert.equal(receiver.received.length, 1);
      await sandbox.clock.advance('1s');
      assert.equal(receiver.received.length, 2);
      await sandbox.clock.advance('2m');
      assert.equal(receiver.received.length, 3);
      const [delivery] = sandbox.callbackDeliveries({ state: 'dead' });
      assert.equal(delivery?.attempts.length, 3);
      const times = delivery!.attempts.map((a) => Date.parse(a.at));
      assert.ok(times[1]! - times[0]! >= 60_000 && times[2]! - times[1]! >= 120_000, 'spaced on the sandbox clock');
      await sandbox.whenCallbacksSettled();
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  test("the five-minute rule follows it: the kit's reconcile (on the sandbox's clock) settles a lost callback once five minutes have passed", async () => {
    const sandbox = await startSandbox({ accessKey: 'k', productCode: 'P' });
    const results: PaymentResult[] = [];
    const handler = createPaymentHandler({
      serviceUrl: sandbox.baseUrl,
      productCode: 'P',
      accessKey: 'k',
      // The store's clock ages the bookings reconcile checks: it follows the sandbox's too.
      store: createMemoryStore({ now: () => sandbox.clock.now() }),
      now: () => sandbox.clock.now(),
      callbackUrl: 'http://127.0.0.1:9/callback',
      redirectUrl: 'http://127.0.0.1:9/return',
      lookupOrder: async (order) => ({ id: String(order.id), amount: 9007 }),
      onPaymentResult: (result) => void results.push(result),
    });
    try {
      const answer = await handler(
        new Request('http://shop.test/api/pay/book', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `five-minute-${crypto.randomUUID()}` },
          body: JSON.stringify({ channel: 'app', order: { id: 'O-1' } }),
        }),
      );
      const { data } = (await answer.json()) as { data: { booking_id: string } };
      // 9007 is WPS-007: paid, and the callback is lost.
      await pay(sandbox.baseUrl, data.booking_id);
      await sandbox.clock.advance('4m');
      assert.equal((await handler.reconcile()).checked, 0, 'not yet five minutes');
      await sandbox.clock.advance('1m');
      const report = await handler.reconcile();
      assert.equal(report.settled, 1);
      assert.deepEqual(results.map((r) => [r.status, r.source]), [['SUCCESS', 'reconcile']]);
    } finally {
      await sandbox.close();
    }
  });

  test('expiry follows it: an unpaid booking reads CANCELED and its page answers 410 once the clock passes the TTL', async () => {
    const sandbox = await startSandbox({ accessKey: 'k', productCode: 'P', bookingTtlMs: 10 * 60_000 });
    try {
      const { body } = await book(sandbox.baseUrl, { key: 'k', product: 'P' });
      const id = body.data!['booking_id']!;
      await control(sandbox.baseUrl, '/sandbox/clock', { advance: '9m' });
      assert.equal((await fetch(`${sandbox.baseUrl}/web/pay/${id}`)).status, 200);
      await control(sandbox.baseUrl, '/sandbox/clock', { advance: '1m' });
      assert.equal((await fetch(`${sandbox.baseUrl}/web/pay/${id}`)).status, 410);
      const answer = (await (await status(sandbox.baseUrl, 'k', 'P', id, body.data!['correlation_id']!)).json()) as { data: { status: string } };
      assert.equal(answer.data.status, 'CANCELED');
    } finally {
      await sandbox.close();
    }
  });
});

describe('the callback desk', () => {
  test('a resend goes to the callback\'s own origin or to loopback, never elsewhere (not an open relay)', () => {
    const delivery = { id: 'CB-1', booking_id: 'B', status: 'SUCCESS', url: 'https://shop.example/api/pay/callback', state: 'delivered' as const, attempts: [], created_at: '' };
    assert.equal(resendTargetProblem(delivery, 'https://shop.example/other'), undefined);
    assert.equal(resendTargetProblem(delivery, 'http://127.0.0.1:8080/cb'), undefined);
    assert.equal(resendTargetProblem(delivery, 'http://localhost:3000/cb'), undefined);
    assert.match(resendTargetProblem(delivery, 'https://evil.example/cb')!, /own origin \(https:\/\/shop.example\) or to a loopback address/);
    assert.match(resendTargetProblem(delivery, 'http://shop.example/cb')!, /own origin/, 'another scheme is another origin');
    assert.match(resendTargetProblem(delivery, 'ftp://127.0.0.1/cb')!, /not an http\(s\) URL/);
    assert.match(resendTargetProblem(delivery, 'http://u:p@127.0.0.1/cb')!, /credentials/);
    assert.match(resendTargetProblem(delivery, 'nope')!, /not an absolute URL/);
  });

  test(`the desk stays bounded: past ${MAX_DELIVERIES} deliveries the oldest finished ones go; an unknown id is IP-404`, async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox({ accessKey: 'k', productCode: 'P', callbackRetry: { attempts: 1, baseDelayMs: 0 } });
    try {
      const { body } = await book(sandbox.baseUrl, { key: 'k', product: 'P', callbackUrl: receiver.url });
      await pay(sandbox.baseUrl, body.data!['booking_id']!);
      await sandbox.whenCallbacksSettled();
      for (let round = 0; round < 11; round++) {
        const [newest] = sandbox.callbackDeliveries();
        await Promise.all(Array.from({ length: 100 }, () => control(sandbox.baseUrl, `/sandbox/callbacks/${newest!.id}/resend`, {})));
        await sandbox.whenCallbacksSettled();
      }
      const all = sandbox.callbackDeliveries();
      assert.equal(all.length, MAX_DELIVERIES);
      assert.equal(all.at(-1)!.id, 'CB-102', 'the oldest went first');
      assert.equal((await control(sandbox.baseUrl, '/sandbox/callbacks/CB-1/resend', {})).status, 404);
      assert.equal(receiver.received.length, 1101);
    } finally {
      await sandbox.close();
      await receiver.close();
    }
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

describe('seeded chaos', () => {
  test('the --chaos text: shares, latency and hold; a clear error otherwise', () => {
    assert.deepEqual(parseChaos('timeouts=0.16,errors=0.05,latency=200ms'), { timeouts: 0.16, errors: 0.05, latencyMs: 200 });
    assert.deepEqual(parseChaos('hold=2s'), { holdMs: 2000 });
    assert.throws(() => parseChaos('timeouts=2'), /timeouts must be a share from 0 to 1; got "2"/);
    assert.throws(() => parseChaos('boom=1'), /chaos knows timeouts, errors, latency and hold; got "boom=1"/);
    assert.throws(() => parseChaos('timeouts=0.6,errors=0.6'), /add up to more than 1/);
  });

  /** The same requests, one after another, on a fresh sandbox; returns its chaos lines and answers. */
  async function play(seed: number): Promise<{ lines: string[]; answers: number[] }> {
    const lines: string[] = [];
    const sandbox = await startSandbox({ accessKey: 'k', productCode: 'P', chaos: { timeouts: 0.16, errors: 0.2, holdMs: 50, seed }, log: (line) => lines.push(line) });
    const answers: number[] = [];
    try {
      for (let i = 0; i < 30; i++) {
        const answer = await book(sandbox.baseUrl, { key: 'k', product: 'P', uuid: `tx-${i}` }).catch(() => ({ status: 0 }));
        answers.push(answer.status);
        answers.push(await fetch(`${sandbox.baseUrl}/web/pay/none`).then((r) => r.status, () => 0));
      }
    } finally {
      await sandbox.close();
    }
    return { lines: lines.filter((line) => line.startsWith('chaos')), answers };
  }

  test('the same seed gives the same faults in the same order, each printed with its number; another seed others; a timeout drops the answer but the booking is made', async () => {
    const first = await play(42);
    const again = await play(42);
    const other = await play(7);
    assert.deepEqual(again.lines, first.lines);
    assert.deepEqual(again.answers, first.answers);
    assert.notDeepEqual(other.lines, first.lines);
    assert.match(first.lines[0]!, /^chaos: timeouts=0.16,errors=0.2,latency=0ms,hold=50ms seed 42$/);
    assert.ok(first.lines.some((line) => /^chaos #\d+ \(seed 42\) service POST \/api\/client\/intent\/payment\/book: timeout$/.test(line)));
    assert.ok(first.lines.some((line) => /^chaos #\d+ \(seed 42\) service GET \/web\/pay\/none: error$/.test(line)));
    assert.ok(first.answers.includes(500) && first.answers.includes(503) && first.answers.includes(0), 'API errors, page errors and dropped answers');
  });

  test('never on the /sandbox/ controls', async () => {
    const sandbox = await startSandbox({ chaos: { errors: 1, seed: 1 } });
    try {
      assert.equal((await fetch(`${sandbox.baseUrl}/web/pay/x`)).status, 503);
      for (let i = 0; i < 10; i++) assert.equal((await control(sandbox.baseUrl, '/sandbox/clock')).status, 200);
    } finally {
      await sandbox.close();
    }
  });

  test('on the callbacks: a refused attempt is recorded as chaos and retried', async () => {
    const receiver = await startReceiver();
    const lines: string[] = [];
    // Draw 1 is the book, 2 the confirm; with this seed the callback's first draw is an error, the next not.
    const sandbox = await startSandbox({ accessKey: 'k', productCode: 'P', chaos: { errors: 0.5, seed: 3 }, callbackRetry: { attempts: 5, baseDelayMs: 60_000 }, log: (line) => lines.push(line) });
    try {
      let booked;
      do booked = await book(sandbox.baseUrl, { key: 'k', product: 'P', callbackUrl: receiver.url });
      while (booked.status !== 200);
      const id = booked.body.data!['booking_id']!;
      while (sandbox.getBooking(id)?.status === 'BOOKED') await pay(sandbox.baseUrl, id);
      await until(() => sandbox.callbackAttempts().length > 0, 'the first attempt');
      await sandbox.clock.advance('1h');
      await sandbox.whenCallbacksSettled();
      const attempts = sandbox.callbackAttempts();
      assert.ok(attempts.some((a) => a.error === 'connection refused (chaos)'), JSON.stringify(attempts));
      assert.equal(attempts.at(-1)!.delivered, true);
      assert.ok(lines.some((line) => /^chaos #\d+ \(seed 3\) callback CB-1 .* attempt \d: error$/.test(line)));
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });
});

describe('the esewa-uat profile', () => {
  const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';

  test('the redirector: Android gets the intent:// form, a server the marketing site', () => {
    assert.equal(redirectorLocation('BK-1', ANDROID), 'intent://d/BK-1?referralId=BK-1#Intent;scheme=esewa;package=com.f1soft.esewa;end');
    assert.equal(redirectorLocation('BK-1', 'node'), 'https://esewa.com.np/');
  });

  test('string amounts signed as written, custom-scheme redirects, INTENT by default; the links host redirects three times alike and the booking stays payable at /app/', async () => {
    const sandbox = await startSandbox({ profile: 'esewa-uat' });
    const spec = await startSandbox();
    try {
      assert.deepEqual(sandbox.productCodes, ['INTENT']);
      const answer = await book(sandbox.baseUrl, { key: 'sandbox-access-key', product: 'INTENT', amount: '1000', redirectUrl: 'tiffincraft://payment-result' });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const id = answer.body.data!['booking_id']!;
      assert.equal(sandbox.getBooking(id)?.amount, 1000);
      const link = answer.body.data!['deeplink']!;
      const locations = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(link, { redirect: 'manual', headers: { 'user-agent': ANDROID } });
        assert.equal(response.status, 302);
        locations.push(response.headers.get('location'));
      }
      assert.deepEqual(new Set(locations).size, 1);
      assert.match(locations[0]!, /^intent:\/\/d\//);
      assert.equal((await fetch(link, { redirect: 'manual', headers: { 'user-agent': 'curl/8.0' } })).headers.get('location'), 'https://esewa.com.np/');
      assert.equal(sandbox.getBooking(id)?.status, 'BOOKED');
      assert.equal((await fetch(`${sandbox.linksUrl}/app/${id}`)).status, 200);
      const paid = await pay(sandbox.baseUrl, id);
      assert.match(paid.headers.get('location') ?? '', /^tiffincraft:\/\/payment-result\?booking_id=/);
      const wrongSignature = await book(sandbox.baseUrl, { key: 'other', product: 'INTENT', amount: '1000' });
      assert.equal(wrongSignature.body.code, 'IP-400');
      for (const unsafe of ['javascript:alert(1)', 'data:text/html,x']) {
        const refused = await book(sandbox.baseUrl, { key: 'sandbox-access-key', product: 'INTENT', redirectUrl: unsafe });
        assert.equal(refused.status, 422, unsafe);
      }

      // The default profile stays the spec: a string amount and an app scheme are refused.
      const strict = await book(spec.baseUrl, { key: 'sandbox-access-key', product: 'SANDBOX', amount: '1000' });
      assert.match(strict.body.error_message!, /"amount" must be a number/);
      const scheme = await book(spec.baseUrl, { key: 'sandbox-access-key', product: 'SANDBOX', redirectUrl: 'tiffincraft://x' });
      assert.equal(scheme.status, 422);
      assert.equal((await fetch(`${spec.linksUrl}/pay/${(await book(spec.baseUrl, { key: 'sandbox-access-key', product: 'SANDBOX' })).body.data!['booking_id']}`)).status, 200);
    } finally {
      await sandbox.close();
      await spec.close();
    }
  });
});
