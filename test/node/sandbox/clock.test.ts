/**
 * The sandbox's clock on its own: its control, its rules, callback retries and the kit's five-minute
 * reconcile following it.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration, SandboxClock } from '../../../src/sandbox/clock.js';
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
      // The first attempt recorded with its answer, so its retry is scheduled: the receiver alone can
      // see the request before the sandbox read the 500 and set the retry on the clock.
      await until(() => receiver.received.length === 1 && sandbox.callbackDeliveries()[0]?.attempts.length === 1, 'the first attempt and its answer');
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
