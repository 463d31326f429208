/**
 * The sandbox's WPS-006 told step by step on the model's world, on every store it drives: tab 1 books
 * 1500 and its app screen takes the payment (PENDING); the total falls to 1000 and tab 2's book cancels
 * tab 1's booking; the payment lands anyway. Whichever lands first, every invariant holds after every
 * step: the one after the order was paid in full is a duplicate, an overpayment's excess is told.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lateLanding } from './commands.js';
import { memoryBackend, postgresBackend, startStage, within, type Backend, type Instance, type Run, type Stage } from './world.js';

const settle = (run: Run) => within(run.heal(), 30_000, 'the requests in flight');
const book = (run: Run, instance: Instance, tab: 0 | 1) => run.send(instance, 'book', { channel: 'app', order: { id: run.orderId } }, run.keys[tab]);
const status = (run: Run, instance: Instance, { booking_id, correlation_id }: { booking_id: string; correlation_id: string }) => run.send(instance, 'status', { booking_id, correlation_id });

/** Every invariant holds now, and no break was found on the way. */
function holds(run: Run): void {
  run.checkStep();
  assert.deepEqual(run.breaks, []);
}

/** Up to tab 2's booking: tab 1's payment is PENDING at the service, its booking cancelled by the kit. */
async function staleScreen(run: Run): Promise<{ tab1: { booking_id: string; correlation_id: string }; tab2: { booking_id: string; correlation_id: string } }> {
  const [a, b] = run.instances as [Instance, Instance];
  run.total = 1500;
  run.paidAfterCancelKeys.add(run.keys[0]);
  await book(run, a, 0);
  await settle(run);
  const tab1 = run.received[0]!;
  await run.atService(tab1.booking_id, 'pay');
  assert.equal(run.stage.sandbox.getBooking(tab1.booking_id)?.status, 'PENDING');
  run.total = 1000;
  await book(run, b, 1);
  await settle(run);
  const tab2 = run.received[1]!;
  assert.equal(run.stage.sandbox.getBooking(tab1.booking_id)?.status, 'CANCELED');
  holds(run);
  return { tab1, tab2 };
}

const successOf = (run: Run, held: { correlation_id: string }) => run.hookCalls.find((c) => c.returned && c.status === 'SUCCESS' && c.correlation_id === held.correlation_id);

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
    const story = (title: string, steps: (run: Run) => Promise<void>) =>
      test(title, async () => {
        const run = await stage.newRun();
        try {
          await steps(run);
          await run.finish();
          holds(run);
        } finally {
          run.close();
        }
      });

    story('tab 2 pays the new total, then the stale 1500 lands: a duplicate of tab 2', async (run) => {
      const [a, b] = run.instances as [Instance, Instance];
      const { tab1, tab2 } = await staleScreen(run);
      await run.atService(tab2.booking_id, 'pay');
      await status(run, a, tab2);
      await settle(run);
      holds(run);
      await lateLanding(run, b);
      await settle(run);
      holds(run);
      assert.equal(successOf(run, tab2)?.duplicate, false);
      assert.equal(successOf(run, tab1)?.duplicate, true);
      assert.ok(run.toldDuplicates.has(tab1.correlation_id));
    });

    story('the stale 1500 lands first: an overpayment of 500; tab 2 paying after it is the duplicate', async (run) => {
      const [a, b] = run.instances as [Instance, Instance];
      const { tab1, tab2 } = await staleScreen(run);
      await lateLanding(run, b);
      await settle(run);
      holds(run);
      assert.equal(successOf(run, tab1)?.overpayment, 500);
      assert.ok(run.toldOverpayments.has(tab1.correlation_id));
      await run.atService(tab2.booking_id, 'pay');
      await status(run, a, tab2);
      await settle(run);
      holds(run);
      assert.equal(successOf(run, tab2)?.duplicate, true);
    });
  });
}
