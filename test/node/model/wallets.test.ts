/**
 * The wallet dimension told step by step on the model's world (memory store): a switch leaves the web
 * checkout's booking open at its provider, a stale page pays it after the order was paid, a refund
 * makes the order owe again, and the sandbox's clock expires what was not paid. Each story asserts
 * what the providers and the hook saw, and that no invariant broke on the way.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { atWebPage, bookBody, readWebBooking, refundAtEsewa, type Via } from './wallets.js';
import { memoryBackend, startStage, within, type Instance, type Run, type Stage } from './world.js';

let stage: Stage;
before(async () => {
  stage = await startStage(memoryBackend());
});
after(async () => {
  await stage.close();
});

const settle = (run: Run) => within(run.heal(), 30_000, 'the requests in flight');
const book = (run: Run, instance: Instance, tab: 0 | 1, via: Via) => run.send(instance, 'book', { ...bookBody(via), order: { id: run.orderId } }, run.keys[tab]);
const status = (run: Run, instance: Instance, { booking_id, correlation_id }: { booking_id: string; correlation_id: string }) =>
  run.send(instance, 'status', { booking_id, correlation_id });
const statusOf = (run: Run, bookingId: string) => run.serviceBookings().find((b) => b.booking_id === bookingId)?.status;
const delivered = (run: Run, correlationId: string, state: string) => run.hookCalls.find((c) => c.returned && c.status === state && c.correlation_id === correlationId);

/** Every invariant holds now, and none broke on the way. */
async function holds(run: Run): Promise<void> {
  await run.refreshWallets();
  run.checkStep();
  assert.deepEqual(run.breaks, []);
}

const story = (title: string, steps: (run: Run, a: Instance, b: Instance) => Promise<void>) =>
  test(title, async () => {
    const run = await stage.newRun();
    try {
      await steps(run, run.instances[0]!, run.instances[1]!);
      await run.finish();
      await holds(run);
    } finally {
      run.close();
    }
  });

story("a switch from eSewa's web checkout to Khalti leaves the ePay booking open; paid on a stale page after Khalti's payment, it is the duplicate", async (run, a, b) => {
  await book(run, a, 0, 'esewa-web');
  await settle(run);
  run.keys[0] = run.newKey(1);
  await book(run, b, 0, 'khalti');
  await settle(run);
  const [epay, khalti] = run.received;
  assert.equal(epay?.provider, 'esewa-epay');
  assert.equal(khalti?.provider, 'khalti');
  await run.refreshWallets();
  assert.equal(statusOf(run, epay.booking_id), 'BOOKED', 'eSewa cannot cancel: the form can still be posted');
  assert.deepEqual([...run.stillCurrent()], [khalti.booking_id], 'the superseded web booking is not the order\'s payable one');
  await holds(run);
  await run.atService(khalti.booking_id, 'pay');
  await status(run, a, khalti);
  await settle(run);
  assert.equal(delivered(run, khalti.correlation_id, 'SUCCESS')?.duplicate, false);
  await run.atService(epay.booking_id, 'pay');
  await run.refreshWallets();
  assert.equal(statusOf(run, epay.booking_id), 'SUCCESS', 'the stale page paid at eSewa');
  await status(run, b, epay);
  await settle(run);
  assert.equal(delivered(run, epay.correlation_id, 'SUCCESS')?.duplicate, true);
  assert.ok(run.toldDuplicates.has(epay.correlation_id));
  await holds(run);
});

story("Khalti's payment refunded through handler.refund: REVERTED reaches the hook and the order is booked and paid again, not as a duplicate", async (run, a, b) => {
  await book(run, a, 0, 'khalti');
  await settle(run);
  const first = run.received[0]!;
  await run.atService(first.booking_id, 'pay');
  await status(run, a, first);
  await settle(run);
  const report = await within(b.handler.refund({ booking_id: first.booking_id }), 10_000, 'the refund');
  assert.equal(report.status, 'REVERTED');
  assert.ok(delivered(run, first.correlation_id, 'REVERTED'), 'the hook took the REVERTED');
  await holds(run);
  run.keys[1] = run.newKey(2);
  await book(run, b, 1, 'esewa-web');
  await settle(run);
  const second = run.received[1];
  assert.equal(second?.provider, 'esewa-epay', `the refunded order is booked again: ${JSON.stringify(run.answers.at(-1))}`);
  await run.atService(second.booking_id, 'pay');
  await status(run, a, second);
  await settle(run);
  assert.equal(delivered(run, second.correlation_id, 'SUCCESS')?.duplicate, false);
  await holds(run);
});

story("eSewa's payment refunded in its portal is a payment until a status check delivers the REVERTED; then the order is not paid", async (run, a) => {
  await book(run, a, 0, 'esewa-web');
  await settle(run);
  const held = run.received[0]!;
  await run.atService(held.booking_id, 'pay');
  await status(run, a, held);
  await settle(run);
  assert.match(await refundAtEsewa(run.stage.sandbox, held.booking_id), /FULL_REFUND/);
  await run.refreshWallets();
  assert.equal(statusOf(run, held.booking_id), 'SUCCESS', 'not delivered yet: the merchant refunded it outside the kit');
  await status(run, a, held);
  await settle(run);
  assert.ok(delivered(run, held.correlation_id, 'REVERTED'));
  await run.refreshWallets();
  assert.equal(statusOf(run, held.booking_id), 'REVERTED');
  await run.send(a, 'order', { order: { id: run.orderId } });
  await settle(run);
  assert.equal(run.answers.at(-1)?.data?.paid, false, 'a fresh tab is told the order is not paid');
  await holds(run);
});

story("the sandbox's clock past every lifetime: Khalti's link and the intent service's booking expire unpaid, and nothing is owed twice", async (run, a, b) => {
  await book(run, a, 0, 'khalti');
  await settle(run);
  run.keys[1] = run.newKey(2);
  await book(run, b, 1, 'esewa-app');
  await settle(run);
  const [link, app] = run.received;
  assert.ok(link && app, 'both tabs were handed a booking');
  await run.stage.sandbox.clock.advance('31m');
  await run.refreshWallets();
  // Expired unpaid, in the intent service's words: CANCELED.
  assert.equal(statusOf(run, link.booking_id), 'CANCELED');
  assert.equal(statusOf(run, app.booking_id), 'CANCELED');
  await run.atService(link.booking_id, 'pay');
  await run.refreshWallets();
  assert.equal(statusOf(run, link.booking_id), 'CANCELED', 'an expired link takes no payment');
  await holds(run);
});

test("the wallets' own failures are told, not hidden: an unknown Khalti payment, a page without a web payment, a refund of an unpaid ePay booking", async () => {
  const { sandbox } = stage;
  await assert.rejects(readWebBooking(sandbox, { booking_id: 'no-such-pidx', correlation_id: 'x', amount: 100, wallet: 'khalti', provider: 'khalti' }), /no Khalti payment no-such-pidx/);
  const unposted = await readWebBooking(sandbox, { booking_id: 'never-posted', correlation_id: 'x', amount: 100, wallet: 'esewa', provider: 'esewa-epay' });
  assert.equal(unposted.status, 'BOOKED', 'an ePay form not posted yet can still be paid');
  assert.equal(await atWebPage({ booking_id: 'b', correlation_id: 'c', wallet: 'esewa', provider: 'esewa-epay' }, sandbox, 'pay'), 'no web payment');
  assert.match(await refundAtEsewa(sandbox, 'never-posted'), /IP-404/);
});
