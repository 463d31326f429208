/** handler.refund()'s logic on stubs: the booking, the provider's refund API, the amount, and what is delivered after. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRefund } from '../../../src/server/refund.js';
import { ImpossibleTransition, ResultBusy, type Delivery } from '../../../src/server/delivery-terms.js';
import { ServiceError } from '../../../src/server/service-error.js';
import type { Kit } from '../../../src/server/context.js';

const BOOKING = { booking_id: 'B-1', correlation_id: 'C-1', transaction_uuid: 'T-1', fingerprint: '["v2","app","O-1"]', order: { id: 'o-1' }, amount: 1000, provider: 'khalti' };

/** A refund on stubs: the provider answers `after` once refunded; `deliver` as given. */
function stage(options: { refund?: boolean; after?: string; refundError?: Error; deliver?: Delivery['deliver']; explain?: (error: ServiceError) => Error | undefined } = {}) {
  const refunded: Array<number | undefined> = [];
  const delivered: unknown[] = [];
  const provider = {
    name: 'khalti',
    capabilities: { refund: options.refund ?? true },
    ...(options.refund === false
      ? {}
      : {
          refund: async (_booking: unknown, amount?: number) => {
            if (options.refundError) throw options.refundError;
            refunded.push(amount);
          },
        }),
    status: async () => ({ status: options.after ?? 'REVERTED', reference_code: 'R-1' }),
    ...(options.explain ? { explain: options.explain } : {}),
  };
  const kit = {
    store: { getBookingState: async ({ bookingId }: { bookingId: string }) => (bookingId === 'B-1' ? { booking: BOOKING } : undefined) },
    providers: { of: () => provider },
  } as unknown as Kit;
  const delivery: Delivery = { deliver: options.deliver ?? (async (result) => void delivered.push(result)) };
  return { refund: createRefund(kit, delivery), refunded, delivered };
}

test('a full refund is asked of the provider and its final status delivered, source refund, with the booking\'s facts', async () => {
  const { refund, refunded, delivered } = stage();
  assert.deepEqual(await refund({ booking_id: 'B-1' }), { status: 'REVERTED', amount: 1000 });
  assert.deepEqual(refunded, [undefined]);
  assert.deepEqual(delivered, [{ source: 'refund', status: 'REVERTED', correlation_id: 'C-1', reference_code: 'R-1', booking_id: 'B-1', order: { id: 'o-1' }, order_id: 'O-1', transaction_uuid: 'T-1', amount: 1000, provider: 'khalti' }]);
});

test('a part refund: the provider\'s SUCCESS goes to delivery (once per status there); a status not final yet is not delivered', async () => {
  const part = stage({ after: 'SUCCESS' });
  assert.deepEqual(await part.refund({ booking_id: 'B-1', amount: 250.5 }), { status: 'SUCCESS', amount: 250.5 });
  assert.deepEqual(part.refunded, [250.5]);
  assert.deepEqual((part.delivered as Array<{ status: string; source: string }>).map((r) => `${r.source} ${r.status}`), ['refund SUCCESS']);
  const open = stage({ after: 'PENDING' });
  assert.deepEqual(await open.refund({ booking_id: 'B-1' }), { status: 'PENDING', amount: 1000 });
  assert.deepEqual(open.delivered, []);
});

test('an unknown booking, a provider without a refund API and an amount out of range are refused by name', async () => {
  await assert.rejects(stage().refund({ booking_id: 'B-9' }), { name: 'RangeError', message: 'refund: no booking "B-9" in this handler\'s store.' });
  await assert.rejects(stage({ refund: false }).refund({ booking_id: 'B-1' }), { name: 'TypeError', message: /^refund: khalti has no refund API; refund booking B-1 from the provider's merchant portal/ });
  for (const amount of [0, -1, 1000.01, Number.NaN, '10' as unknown as number]) {
    await assert.rejects(stage().refund({ booking_id: 'B-1', amount }), { name: 'RangeError', message: /^refund: amount must be a positive number of rupees up to the booked 1000; got / }, String(amount));
  }
});

test("the provider's refusal comes through its own words, explained where the adapter knows the fix", async () => {
  const refusal = new ServiceError('refund', 'rejected', 'IP-410', 409, 'Already refunded.');
  await assert.rejects(stage({ refundError: refusal }).refund({ booking_id: 'B-1' }), (error) => error === refusal);
  const explained = new Error('Ask Khalti to raise the limit.');
  await assert.rejects(stage({ refundError: refusal, explain: () => explained }).refund({ booking_id: 'B-1' }), (error) => error === explained);
  const other = new TypeError('bug');
  await assert.rejects(stage({ refundError: other, explain: () => explained }).refund({ booking_id: 'B-1' }), (error) => error === other, 'only a ServiceError is explained');
});

test('a delivery another instance holds, or one that cannot follow, is no failure of the refund; any other is', async () => {
  for (const error of [new ResultBusy('held'), new ImpossibleTransition('no')]) {
    assert.deepEqual(await stage({ deliver: async () => Promise.reject(error) }).refund({ booking_id: 'B-1' }), { status: 'REVERTED', amount: 1000 });
  }
  await assert.rejects(stage({ deliver: async () => Promise.reject(new Error('hook threw')) }).refund({ booking_id: 'B-1' }), { message: 'hook threw' });
});
