/**
 * Sequences the generated runs found, replayed step by step on every store the model drives: each
 * failed on the kit of its day. (A generated sequence replays its steps, but not the timing that made
 * it fail; these pin it down.)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '../../support/poll.js';
import { memoryBackend, postgresBackend, startStage, within, type Backend, type Instance, type Run, type RunOptions, type Stage } from './world.js';

const settle = (run: Run) => within(run.heal(), 30_000, 'the requests in flight');
/** Instance `instance` takes the delivery of the run's `callback`th callback and stops inside the hook. */
async function stopInHook(run: Run, instance: Instance | undefined, callback: number): Promise<void> {
  instance!.trap = 'hook';
  await run.send(instance!, 'callback', run.callbacks[callback]!);
  await pollUntil(() => instance!.isFrozen, { what: `${instance!.name} to stop inside the hook`, timeoutMs: 10_000, intervalMs: 10 });
}
const book = (run: Run, instance: Instance | undefined, tab: 0 | 1) => run.send(instance!, 'book', { channel: 'app', order: { id: run.orderId } }, run.keys[tab]);

for (const [name, backend] of [
  ['memory', memoryBackend],
  ['PostgreSQL', postgresBackend],
] as Array<[string, () => Promise<Backend> | Backend]>) {
  describe(`${name} store`, () => {
    let stage: Stage;
    before(async () => {
      stage = await startStage(await backend());
    });
    after(async () => {
      await stage.close();
    });
    /** One replayed sequence on a run of its own; no invariant may break in it. */
    const replay = (name: string, steps: (run: Run) => Promise<void>, options?: RunOptions) =>
      test(name, async () => {
        const run = await stage.newRun(options);
        try {
          await steps(run);
          run.checkStep();
          assert.deepEqual(run.breaks, []);
        } finally {
          run.close();
        }
      });

    replay('a book priced before the order was paid, answered "already paid" after its total grew, is no break: the order it priced was paid (seed 312027, path 98)', async (run) => {
      const [a, b] = run.instances;
      run.total = 1500;
      await book(run, b, 0);
      await settle(run);
      const first = run.received[0];
      assert.ok(first, 'tab 1 was handed a booking');
      await run.atService(first.booking_id, 'pay');
      // Tab 2's book on a slow instance: priced at 1500 still owed, then left in flight.
      a!.slowMs = 300;
      await book(run, a, 1);
      await run.send(b!, 'callback', run.callbacks[0]!);
      run.total = 2000;
      await settle(run);
      assert.equal(run.merchantPaid(), 1500, 'the hook took the payment');
      assert.deepEqual(run.answers.map((answer) => `${answer.route} ${answer.code}`).sort(), ['book IP-201', 'book IP-412', 'callback IP-201'], 'tab 2 was told its order was paid');
    });

    for (const grown of [1500, 2000]) replay(`a book while another instance is inside the hook of the order's payment counts that payment once: the balance is booked, never "already paid" nor the paid booking (total 1000, then ${grown}; soak seed 400388315)`, async (run) => {
      const [a, b] = run.instances;
      await book(run, a, 0);
      await settle(run);
      const first = run.received[0];
      assert.ok(first, 'tab 1 was handed a booking');
      run.total = grown;
      await run.atService(first.booking_id, 'pay');
      // A claims the payment's delivery and stops inside the hook: the booking is paid and not settled.
      await stopInHook(run, a, 0);
      await book(run, b, 0);
      await settle(run);
      const answer = run.answers.filter(({ route }) => route === 'book')[1];
      assert.equal(answer?.code, 'IP-201', `the balance is booked: ${JSON.stringify(answer)}`);
      assert.notEqual(answer.data?.booking_id, first.booking_id, 'not the paid booking');
      assert.equal(run.serviceBookings().find((booking) => booking.booking_id === answer.data?.booking_id)?.amount, grown - 1000);
    });

    for (const grown of [2000, 2500]) replay(`a book while two instances are inside the hooks of two payments of the order counts each once (1000, then 500 of 1500 paid; total then ${grown})`, async (run) => {
      const [a, b, c] = run.instances;
      await book(run, a, 0);
      await settle(run);
      await run.atService(run.received[0]!.booking_id, 'pay');
      await stopInHook(run, a, 0);
      run.total = 1500;
      // Not settled: that would wake A.
      await book(run, b, 1);
      await pollUntil(() => run.received.length === 2, { what: "tab 2's booking", timeoutMs: 10_000, intervalMs: 10 });
      await run.atService(run.received[1]!.booking_id, 'pay');
      await stopInHook(run, b, 1);
      // Both payments are claimed and not settled: each is open and paid at once.
      run.total = grown;
      await book(run, c, 0);
      await settle(run);
      const answer = run.answers.filter(({ route }) => route === 'book')[2];
      assert.equal(answer?.code, 'IP-201', `what is still owed is booked, never "already paid": ${JSON.stringify(answer)}`);
      assert.equal(run.serviceBookings().find((booking) => booking.booking_id === answer.data?.booking_id)?.amount, grown - 1500, 'the balance after both payments');
    }, { instances: 3 });

    const shortLimitMs = 100;
    replay("a book whose process stops after the service answered, past the providers' time limit, is IP-504 once it goes on, never a set-up fault (IP-501): the process's fetch read a clone of the answer, whose body then ends empty (MySQL seed 312028, on a loaded machine)", async (run) => {
      const [a] = run.instances;
      a!.trap = 'service-book';
      await book(run, a, 0);
      await pollUntil(() => a!.isFrozen, { what: 'A to stop after the service answered its book', timeoutMs: 10_000, intervalMs: 10 });
      // Stopped past the time limit: the provider's client aborts before it reads the answer.
      await pollUntil(() => a!.trappedSignal?.aborted === true, { what: "the provider client's time limit to abort the stopped call", timeoutMs: 10_000, intervalMs: 10 });
      await settle(run);
      assert.deepEqual(run.answers.map((answer) => `${answer.route} ${answer.http} ${answer.code}`), ['book 504 IP-504']);
    }, { serviceTimeoutMs: shortLimitMs });

    replay('a tab books its paid key again after the total grew: the balance is booked, never "already paid"', async (run) => {
      const [a, b] = run.instances;
      run.total = 1500;
      await book(run, b, 0);
      await settle(run);
      const paid = run.received[0];
      assert.ok(paid, 'tab 1 was handed a booking');
      await run.atService(paid.booking_id, 'pay');
      run.total = 2000;
      await run.send(b!, 'callback', run.callbacks[0]!);
      await settle(run);
      assert.equal(run.merchantPaid(), 1500, 'the hook took the payment');
      // The same tab, the same key: 500 is still owed.
      await book(run, a, 0);
      await settle(run);
      assert.equal(run.received.length, 2, 'the tab was handed a booking of the balance');
      assert.equal(run.serviceBookings().find((booking) => booking.booking_id === run.received[1]!.booking_id)?.amount, 500);
    });
  });
}
