import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bookPayAndAsk, startTraffic, withTraffic } from '../../support/traffic.js';
import type { Answer } from '../../support/handler-processes.js';

test('shoppers run rounds side by side until stopped, each round numbered once', async () => {
  const seen: Array<[number, number]> = [];
  const traffic = startTraffic({ shoppers: 3, pauseMs: 1, round: async (index, round) => void seen.push([index, round]) });
  await new Promise((resolve) => setTimeout(resolve, 50));
  await traffic.stop();
  const after = seen.length;
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(seen.length, after, 'no round after stop');
  assert.deepEqual(new Set(seen.map(([index]) => index)), new Set([0, 1, 2]), 'every shopper shopped');
  assert.equal(new Set(seen.map(([, round]) => round)).size, seen.length, 'round numbers are unique');
  assert.equal(traffic.rounds, seen.length);
});

test('shoppers stop by themselves at maxRounds or at the deadline', async () => {
  const counted = startTraffic({ shoppers: 2, maxRounds: 3, pauseMs: 0, round: async () => {} });
  await counted.done();
  assert.equal(counted.rounds, 6);
  const timed = startTraffic({ shoppers: 2, until: Date.now() + 40, pauseMs: 5, round: async () => {} });
  const started = Date.now();
  await timed.done();
  assert.ok(Date.now() - started < 1_000, 'the deadline ended the traffic');
  assert.ok(timed.rounds > 0);
});

test("a round's error ends its shopper and is the traffic's error", async () => {
  const traffic = startTraffic({
    shoppers: 2,
    pauseMs: 1,
    round: async (index) => {
      if (index === 1) throw new Error('the worker answered nonsense');
    },
  });
  await assert.rejects(traffic.stop(), { message: 'the worker answered nonsense' });
  assert.throws(() => startTraffic({ shoppers: 0, round: async () => {} }), /shoppers must be a whole number above 0; got 0/);
});

test('withTraffic runs the fault inside traffic, before and after it', async () => {
  const times: number[] = [];
  let faultAt = 0;
  let faultEnd = 0;
  await withTraffic(
    async () => {
      faultAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 30));
      faultEnd = Date.now();
    },
    { shoppers: 2, pauseMs: 2, leadMs: 30, tailMs: 30, round: async () => void times.push(Date.now()) },
  );
  assert.ok(times.some((t) => t < faultAt), 'traffic before the fault');
  assert.ok(times.some((t) => t >= faultAt && t <= faultEnd), 'traffic during the fault');
  assert.ok(times.some((t) => t > faultEnd), 'traffic after the fault');
});

test("withTraffic stops the traffic when the fault throws, and the fault's error wins", async () => {
  let rounds = 0;
  await assert.rejects(
    withTraffic(
      async () => {
        throw new Error('the database did not come back');
      },
      { shoppers: 1, pauseMs: 1, leadMs: 5, tailMs: 5, round: async () => {
        rounds++;
        throw new Error('a round failed too');
      } },
    ),
    { message: 'the database did not come back' },
  );
  const seen = rounds;
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(rounds, seen, 'no shopper runs on');
});

/** Two stub processes answering from scripted lists (the round's retry logic is pure). */
function stubWorkers(book: number[], status: number[]) {
  const asked: string[] = [];
  const paid: string[] = [];
  const booked: string[] = [];
  const answer = (status: number): Answer => ({ status, code: status === 200 ? 'IP-200' : 'IP-503', ms: 1, data: { booking_id: 'B-1', correlation_id: 'C-1', deeplink: 'http://127.0.0.1:9/pay/B-1' } });
  const round = bookPayAndAsk({
    workers: ['w0', 'w1'],
    retryMs: 0,
    tries: 3,
    post: async (worker, route) => {
      asked.push(`${worker} ${route}`);
      return answer((route === 'book' ? book : status).shift() ?? 503);
    },
    pay: async (deeplink) => void paid.push(deeplink),
    onBooked: (key) => void booked.push(key),
  });
  return { round, asked, paid, booked };
}

test('a shopper retries a failed book with the same key on the next process, pays on even turns, asks until answered', async () => {
  const even = stubWorkers([503, 200], [503, 200]);
  await even.round(0, 7);
  assert.deepEqual(even.asked, ['w0 book', 'w1 book', 'w0 status', 'w1 status']);
  assert.deepEqual(even.paid, ['http://127.0.0.1:9/pay/B-1']);
  assert.equal(even.booked.length, 1);
  assert.match(even.booked[0]!, /^shop-7-0-/);
  const odd = stubWorkers([200], [200]);
  await odd.round(1, 8);
  assert.deepEqual(odd.asked, ['w1 book', 'w0 status']);
  assert.deepEqual(odd.paid, [], 'an odd shopper does not pay');
});

test('a shopper gives an order up after its tries, and a round with no process fails', async () => {
  const refused = stubWorkers([], []);
  await refused.round(0, 1);
  assert.deepEqual(refused.asked, ['w0 book', 'w1 book', 'w0 book']);
  assert.deepEqual(refused.booked, []);
  const none = bookPayAndAsk({ workers: [], post: async () => ({ status: 200, code: 'IP-200', ms: 0 }), pay: async () => {} });
  await assert.rejects(none(0, 0), { message: 'the shoppers have no process to ask' });
});
