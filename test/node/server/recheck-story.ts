/**
 * The sandbox's WPS-006 with its callback lost, for reconcile's recheck of cancelled bookings on each
 * store: a booking the kit cancelled (the shopper's `/cancel`, or a new book of its order) whose stale
 * app screen pays 30 s later, and whose callback never comes. Every status call the handler makes to
 * the service is counted, so a test sees which passes asked about a booking.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PaymentStore } from '../../../src/server/store.js';
import type { ReconcileOptions, ReconcileReport } from '../../../src/server/types.js';
import { openShop, PRODUCT, type Booked, type Shop } from './shop.js';

/** A shop whose stale bookings' callbacks are lost, with its status calls counted. */
export interface RecheckShop extends Shop {
  /** The ids of the bookings asked about at the service, one per status call. */
  asked: string[];
  /** Bookings whose callbacks the sandbox never sends. */
  lost: Set<string>;
  /** While set, every status call fails as a network error would. */
  faults: { statusDown: boolean };
  /** `reconcile()` with the recheck's option, which the handler's type does not name. */
  reconcile(options: ReconcileOptions): Promise<ReconcileReport>;
  /** Books with WPS-006, pays (PENDING) and cancels at `/cancel`: CANCELED at the service and delivered; its callbacks lost. */
  staleBooking(orderId: string): Promise<Booked>;
}

/** A shop on `store` (default: a memory store on the moved clock), the handler's clock moved by `shift()`. */
export async function openRecheckShop(shift: () => number, store?: PaymentStore): Promise<RecheckShop> {
  const asked: string[] = [];
  const lost = new Set<string>();
  const faults = { statusDown: false };
  const counting: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/status') && typeof init?.body === 'string') {
      asked.push(String((JSON.parse(init.body) as { booking_id?: unknown }).booking_id));
      if (faults.statusDown) throw new TypeError('fetch failed');
    }
    return fetch(input, init);
  };
  const shop = await openShop(
    { now: () => Date.now() + shift(), fetch: counting, ...(store && { store }) },
    { sendCallback: (booking) => !lost.has(booking.booking_id) },
  );
  return {
    ...shop,
    asked,
    lost,
    faults,
    reconcile: (options) => shop.handler.reconcile(options as ReconcileOptions),
    async staleBooking(orderId) {
      shop.sandbox.setScenario(PRODUCT, 'WPS-006');
      const stale = await shop.book('app', orderId);
      shop.sandbox.setScenario(PRODUCT, null);
      lost.add(stale.booking_id);
      assert.equal(await shop.pay(stale), 303);
      assert.equal(shop.sandbox.getBooking(stale.booking_id)?.status, 'PENDING');
      const cancelled = await shop.post('cancel', { booking_id: stale.booking_id, correlation_id: stale.correlation_id, order: { id: orderId } });
      assert.equal(cancelled.body.code, 'IP-210');
      assert.equal(shop.sandbox.getBooking(stale.booking_id)?.status, 'CANCELED');
      return stale;
    },
  };
}

/** The results delivered of one booking, as `[source, status]`. */
export const resultsOf = (shop: Shop, booked: Booked) => shop.results.filter((r) => r.booking_id === booked.booking_id).map((r) => [r.source, r.status]);

/** Moves the sandbox's clock 30 s on, so WPS-006's payment lands (its callback lost), within a time limit. */
export async function landLate(shop: RecheckShop, stale: Booked): Promise<void> {
  await shop.sandbox.clock.advance('30s');
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      shop.sandbox.whenCallbacksSettled(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("the sandbox's callbacks did not settle within 5 s")), 5_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
  assert.equal(shop.sandbox.getBooking(stale.booking_id)?.status, 'SUCCESS', 'the stale screen paid after the cancel');
  assert.deepEqual(resultsOf(shop, stale), [['cancel', 'CANCELED']], 'its callback was lost: only the cancel is known');
}

const NONE = { checked: 0, settled: 0, open: 0, failed: 0, cancelled: 0, unfinished: false };

/**
 * The recheck on a database store, whose clock is its server's: the late SUCCESS delivered once, and a
 * cancelled booking asked about within the window (narrowed here instead of waiting) and not past it.
 */
export function storeRecheckTests(name: string, store: () => Promise<PaymentStore>): void {
  test(`${name}: reconcile() delivers once the SUCCESS that landed after /cancel with its callback lost`, async () => {
    const shop = await openRecheckShop(() => 0, await store());
    try {
      const stale = await shop.staleBooking('PR-1');
      await landLate(shop, stale);
      assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), { ...NONE, checked: 1, settled: 1 });
      assert.deepEqual(resultsOf(shop, stale), [['cancel', 'CANCELED'], ['reconcile', 'SUCCESS']]);
      const asked = shop.asked.length;
      assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), NONE);
      assert.equal(shop.asked.length, asked, 'settled by its SUCCESS: not asked again');
      assert.deepEqual((await shop.post('order', { order: { id: 'PR-1' } })).body.data, { paid: true, status: 'SUCCESS' });
    } finally {
      await shop.close();
    }
  });

  test(`${name}: a cancelled booking is asked about within the recheck window, and not past it`, async () => {
    const shop = await openRecheckShop(() => 0, await store());
    try {
      const unpaid = await shop.staleBooking('PR-2');
      const askedOf = () => shop.asked.filter((id) => id === unpaid.booking_id).length;
      const before = askedOf();
      assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0 }), NONE);
      assert.equal(askedOf(), before + 1, "within the default window (the provider's 15 minutes): asked");
      await new Promise((resolve) => setTimeout(resolve, 60));
      assert.deepEqual(await shop.reconcile({ olderThanMs: 0, recheckAfterMs: 0, recheckCanceledForMs: 50 }), NONE);
      assert.equal(askedOf(), before + 1, 'cancelled more than 50 ms ago: not asked');
      assert.deepEqual(resultsOf(shop, unpaid), [['cancel', 'CANCELED']]);
    } finally {
      await shop.close();
    }
  });
}
