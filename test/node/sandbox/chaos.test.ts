/**
 * Seeded chaos on its own: the same seed, the same faults in the same order.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseChaos } from '../../../src/sandbox/chaos.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { book, control, pay, startReceiver, until } from './support.js';

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
