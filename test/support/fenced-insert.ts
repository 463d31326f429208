/**
 * A booking's insert sent to a database that pauses (or dies) on the way: the kit waits its deadline,
 * cancels the booking at the service and answers IP-503; the server resumes and the insert lands late.
 * The shopper's retry with the same key must get a payable booking (never the cancelled one) or a clear
 * answer, and the store must hold no booking the service cancelled. The same test for every store on a
 * server, each given its own way to stop and start it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, type Answer } from '../node/server/shop.js';
import type { PaymentStore } from '../../src/server/store.js';

/** A store on a server of the test's own, and the way to hold that server up mid-call. */
export interface HaltableStore {
  store: PaymentStore;
  /** Stops the server answering (paused, or killed); what was sent to it waits. */
  halt(): Promise<void>;
  /** Lets it answer again: what was sent while it was halted runs now. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** `halting`'s store, but the insert after `haltNextInsert()` halts the server first (once). */
export function haltingOnInsert(halting: HaltableStore): { store: PaymentStore; haltNextInsert(): void } {
  let haltNext = false;
  return {
    store: {
      ...halting.store,
      async insertBooking(insert) {
        if (haltNext) {
          haltNext = false;
          await halting.halt();
        }
        return halting.store.insertBooking(insert);
      },
    },
    haltNextInsert: () => void (haltNext = true),
  };
}

/**
 * The answer of `post`, asked again while it is IP-503: the server may still be coming back, and the
 * element retries after Retry-After too (20 more tries, 250 ms apart).
 */
export async function bookOnceUp(post: () => Promise<{ body: Answer }>): Promise<{ body: Answer }> {
  let answer = await post();
  for (let tries = 0; answer.body.code === 'IP-503' && tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    answer = await post();
  }
  return answer;
}

/** Registers the test for one store; `open` gives it with a store deadline of about a second. */
export function fencedInsertTest(name: string, open: () => Promise<HaltableStore>): void {
  test(`${name}: an insert the kit gave up on (its booking cancelled) is not saved when the server comes back; the retry books anew`, async () => {
    const halting = await open();
    const { store, haltNextInsert } = haltingOnInsert(halting);
    const shop = await openShop({ store });
    try {
      const key = crypto.randomUUID();
      haltNextInsert();
      const first = await shop.post('book', { channel: 'app', order: { id: 'FENCE-1' } }, { 'idempotency-key': key });
      assert.equal(first.body.code, 'IP-503', JSON.stringify(first.body));
      const cancelled = shop.sandbox.listBookings().filter((b) => b.status === 'CANCELED');
      assert.equal(cancelled.length, 1, 'the unsaved booking was cancelled at the service');
      await halting.resume();

      const retry = await bookOnceUp(() => shop.post('book', { channel: 'app', order: { id: 'FENCE-1' } }, { 'idempotency-key': key }));
      assert.equal(retry.body.code, 'IP-201', JSON.stringify(retry.body));
      assert.equal(await halting.store.findBookingByCorrelationId({ correlationId: cancelled[0]!.correlation_id }), undefined, 'the cancelled booking was never saved');
      const bookingId = retry.body.data?.booking_id;
      assert.notEqual(bookingId, cancelled[0]!.booking_id, 'the retry is not handed the cancelled booking');
      assert.equal(shop.sandbox.listBookings().find((b) => b.booking_id === bookingId)?.status, 'BOOKED', 'the retry is payable');
    } finally {
      await shop.close();
      await halting.close();
    }
  });
}
