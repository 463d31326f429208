/**
 * Seeded chaos on its own: the same seed, the same faults to the same bookings, in the same order and
 * whatever other traffic runs beside them.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseChaos } from '../../../src/sandbox/chaos.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { book, control, pay, startReceiver, status, until } from './support.js';
import { initiateBody, khaltiPost } from './khalti/support.js';

const LIMIT = { signal: () => AbortSignal.timeout(5000) };

/** The HTTP status of a GET, its body read so the connection is free again. */
async function statusOf(url: string): Promise<number> {
  const response = await fetch(url, { signal: LIMIT.signal(), redirect: 'manual' });
  await response.arrayBuffer();
  return response.status;
}

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
    assert.ok(first.lines.some((line) => /^chaos #\d+ \(seed 42\) service POST \/api\/client\/intent\/payment\/book: timeout \(book tx-\d+, its #1\)$/.test(line)), first.lines.join('\n'));
    assert.ok(first.lines.some((line) => /^chaos #\d+ \(seed 42\) service GET \/web\/pay\/none: error \(web page none, its #\d+\)$/.test(line)), first.lines.join('\n'));
    assert.ok(first.answers.includes(500) && first.answers.includes(503) && first.answers.includes(0), 'API errors, page errors and dropped answers');
  });

  /**
   * Six orders, each booked (again until it is), checked twice, its wallet page opened, its ePay
   * status asked and a Khalti payment initiated for it; with `noise`, other orders' traffic of every
   * kind runs before and between them. Returns each order's answers, in its own order.
   */
  async function ordersOf(seed: number, noise: boolean): Promise<Record<string, number[]>> {
    const sandbox = await startSandbox({ accessKey: 'k', productCode: 'P', chaos: { errors: 0.3, seed } });
    const base = sandbox.baseUrl;
    const epay = (uuid: string) => statusOf(`${base}/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=100&transaction_uuid=${uuid}`);
    const khalti = async (order: string) => (await khaltiPost(base, '/api/v2/epayment/initiate/', initiateBody({ purchase_order_id: order }), { key: 'k' })).status;
    const other = async (tag: string) => {
      await book(base, { key: 'k', product: 'P', uuid: `noise-${tag}` }).catch(() => undefined);
      await statusOf(`${base}/web/pay/none`);
      await epay(`noise-${tag}`);
      await khalti(`noise-${tag}`);
    };
    const seen: Record<string, number[]> = {};
    try {
      if (noise) for (let j = 0; j < 4; j++) await other(`first-${j}`);
      for (let i = 0; i < 6; i++) {
        const uuid = `order-${i}`;
        const answers: number[] = (seen[uuid] = []);
        if (noise) for (let j = 0; j <= i % 3; j++) await other(`${i}-${j}`);
        let booked = await book(base, { key: 'k', product: 'P', uuid });
        answers.push(booked.status);
        for (let tries = 1; booked.status !== 200 && tries < 10; tries++) {
          booked = await book(base, { key: 'k', product: 'P', uuid });
          answers.push(booked.status);
        }
        assert.equal(booked.status, 200, `${uuid} was not booked in 10 tries: ${answers.join(', ')}`);
        const { booking_id: id = '', correlation_id: correlation = '', deeplink = '' } = booked.body.data ?? {};
        for (let k = 0; k < 2; k++) {
          const checked = await status(base, 'k', 'P', id, correlation);
          await checked.arrayBuffer();
          answers.push(checked.status);
        }
        answers.push(await statusOf(deeplink), await epay(uuid), await khalti(uuid));
        if (noise) await other(`${i}-last`);
      }
    } finally {
      await sandbox.close();
    }
    return seen;
  }

  test('the same seed gives each order the same faults whatever other traffic runs beside it, on every kind of request', async () => {
    const alone = await ordersOf(11, false);
    const crowded = await ordersOf(11, true);
    assert.deepEqual(crowded, alone);
    const all = Object.values(alone).flat();
    assert.ok(all.includes(500) && all.includes(503) && all.includes(200), `faults and answers both: ${JSON.stringify(alone)}`);
    assert.notDeepEqual(await ordersOf(12, false), alone, 'another seed, other faults');
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
    // With this seed the first callback attempt of order cb-order is an error, the second not.
    const sandbox = await startSandbox({ accessKey: 'k', productCode: 'P', chaos: { errors: 0.5, seed: 2 }, callbackRetry: { attempts: 5, baseDelayMs: 60_000 }, log: (line) => lines.push(line) });
    try {
      let booked;
      do booked = await book(sandbox.baseUrl, { key: 'k', product: 'P', uuid: 'cb-order', callbackUrl: receiver.url });
      while (booked.status !== 200);
      const id = booked.body.data!['booking_id']!;
      while (sandbox.getBooking(id)?.status === 'BOOKED') await pay(sandbox.baseUrl, id);
      await until(() => sandbox.callbackAttempts().length > 0, 'the first attempt');
      await sandbox.clock.advance('1h');
      await sandbox.whenCallbacksSettled();
      const attempts = sandbox.callbackAttempts();
      assert.ok(attempts.some((a) => a.error === 'connection refused (chaos)'), JSON.stringify(attempts));
      assert.equal(attempts.at(-1)!.delivered, true);
      assert.deepEqual(attempts.map((a) => a.error ?? 'delivered'), ['connection refused (chaos)', 'delivered']);
      assert.ok(lines.some((line) => /^chaos #\d+ \(seed 2\) callback CB-1 BK-\S+ attempt 1: error \(callback cb-order, its #1\)$/.test(line)), lines.join('\n'));
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });
});
