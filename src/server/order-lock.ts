/**
 * The order lock: the books of one order one at a time, in this process by a queue, across instances
 * by a short fenced lease in the store.
 */
import { CODES, IDEMPOTENCY_HEADER } from '../protocol/contract.js';
import type { Kit } from './context.js';
import { Refusal } from './http.js';
import type { StoreUnavailableError } from './store-errors.js';
import { asStoreOutage } from './guards.js';
import type { LeaseHold, OrderState, StoredBooking } from './store.js';

/**
 * How long an order's lease holds without renewal: its holder renews it every quarter of this while it
 * books, so another instance takes over the order of a process that died within this time.
 */
export const ORDER_LEASE_MS = 4_000;
/** The order's lease as a book holds it (see `withOrderLock`). */
export interface OrderLease {
  /** The hold, for writes the store must refuse once another instance took the order over. */
  readonly hold: LeaseHold;
  /** Refuses the book when a renewal already found the order taken over: nothing more is sent to the service. */
  check(): void;
  /** Stops renewing and hands the hold to the write that ends the lease. */
  end(): LeaseHold;
}

/** Runs `work` holding the order `orderKey` for the key `key`, or answers the key's booking at once when it has one. */
export type OrderLock = (key: string, orderKey: string, work: (state: OrderState, lease: OrderLease) => Promise<StoredBooking>) => Promise<StoredBooking>;

/** The order lock of one handler; a book waits its turn at most `orderWaitMs`. */
export function createOrderLock(kit: Kit, orderWaitMs: number): OrderLock {
  // Per order, the end of its last book in this process: the store outage it met, if it met one.
  const orderQueues = new Map<string, Promise<StoreUnavailableError | undefined>>();
  let books = 0;

  /**
   * Serializes the books of one order: in this process by a queue, across instances by a short fenced
   * lease in the store, renewed while the work runs, so a process that died holds the order for at most
   * {@link ORDER_LEASE_MS} (by the store's clock). A holder that stalls past its lease (paused, or its
   * renewals failing) while another instance takes the order over finds its token stale: the store
   * refuses what it writes under it. Answers the key's booking at once when it has one.
   */
  async function withOrderLock(key: string, orderKey: string, work: (state: OrderState, lease: OrderLease) => Promise<StoredBooking>): Promise<StoredBooking> {
    const previous = orderQueues.get(orderKey) ?? Promise.resolve(undefined);
    const run = previous.then(async (outage) => {
      // The book before this one met a store that is late or gone: so would this one, after waiting its
      // turn. Answered at once (IP-503), so books queued behind a locked table do not wait one deadline each.
      if (outage) throw outage;
      const name = `order:${orderKey}`;
      // Each book holds the lease as an owner of its own. A store takes a lease again for the owner that
      // holds it, so under the process's one owner a late start of an earlier book (a command a client
      // sends again once it reconnects, as ioredis does by default) took the order from the book that
      // held it now, which then failed as overtaken.
      const owner = `${kit.owner}:book-${(books += 1)}`;
      // The wait is counted in the time slept between tries, not read from `now()`: a handler's clock
      // that stands still (or jumps) must neither keep a book waiting for ever nor cut it short.
      let waited = 0;
      let state: OrderState;
      let hold: LeaseHold;
      for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
        const opening = await kit.store.beginBooking({ key, orderKey, lease: name, owner, leaseMs: ORDER_LEASE_MS });
        if (opening.status === 'booked') return opening.booking;
        if (opening.status === 'leased') {
          state = opening.order;
          hold = { lease: name, owner, token: opening.token };
          break;
        }
        if (waited >= orderWaitMs) throw new Refusal(CODES.UPSTREAM_TIMEOUT, 'Another payment of this order is being booked; try again.');
        const pause = wait * (0.5 + Math.random());
        await new Promise((resolve) => setTimeout(resolve, pause));
        waited += pause;
      }
      let held = true;
      let lost = false;
      const renewal = setInterval(() => {
        kit.store.renewLease({ ...hold, leaseMs: ORDER_LEASE_MS }).then(
          (renewed) => {
            if (!renewed && held) lost = true;
          },
          (error: unknown) => kit.report(error, { route: 'book' }),
        );
      }, ORDER_LEASE_MS / 4);
      const lease: OrderLease = {
        hold,
        check() {
          if (lost) throw overtaken();
        },
        end() {
          held = false;
          clearInterval(renewal);
          return hold;
        },
      };
      try {
        return await work(state, lease);
      } finally {
        clearInterval(renewal);
        if (held) await kit.store.releaseLease(hold).catch((error: unknown) => kit.report(error, { route: 'book' }));
      }
    });
    const settled = run.then(
      () => undefined,
      (error: unknown) => asStoreOutage(error),
    );
    orderQueues.set(orderKey, settled);
    void settled.then(() => {
      if (orderQueues.get(orderKey) === settled) orderQueues.delete(orderKey);
    });
    return run;
  }

  return withOrderLock;
}

/**
 * What a book that lost its order's lease answers: nothing of it was saved or handed out, and the key is
 * spent at the service (its booking cancelled), so the element retries with a new key, once, by itself.
 */
export function overtaken(): Refusal {
  return new Refusal(
    CODES.IDEMPOTENCY_CONFLICT,
    `Another payment attempt of this order took it over while this one was being booked; send a new ${IDEMPOTENCY_HEADER} to try again.`,
  );
}

