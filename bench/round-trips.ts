/**
 * Database round trips per new booking, for each provider the kit books through, on one store: a
 * handler per provider on the store the caller opened, its bookings counted by the counting client
 * around the store's real client (test/support/counting.ts). A booking must cost at most
 * {@link MAX_ROUND_TRIPS} round trips whichever provider makes it; renewals of an order lease (a
 * book slower than a second renews once a second) are counted apart, as the other store figures are.
 */
import type { Sandbox } from '../src/sandbox/index.js';
import type { PaymentStore } from '../src/server/store.js';
import { BENCH_PROVIDERS, startMerchant, type BenchProvider, type Merchant } from './merchant.js';
import { serve } from './postgres.js';
import { bookThroughHandler } from './server.js';

/** The most database round trips a new booking may cost, on any store, with any provider. */
export const MAX_ROUND_TRIPS = 2;

/** What counts a store's round trips: a counting client of test/support/counting.ts. */
export interface RoundTripCounter {
  readonly count: number;
  readonly statements: string[];
  reset(): void;
}

/** One provider's round trips on one store. */
export interface ProviderRoundTrips {
  provider: BenchProvider;
  /** Round trips per booking, lease renewals apart, over {@link bookings}. */
  perBooking: number;
  renewalsPerBooking: number;
  /** Bookings counted (failed ones left out). */
  bookings: number;
  /** Bookings that failed (their `/book` answered other than 200): a healthy run has none. */
  bookingErrors: number;
  /** What the first booking asked of the store, one entry per round trip (for a failure message). */
  sample: string[];
}

/** How many bookings each provider makes: `clients` at a time, `perClient` each. */
export interface RoundTripOptions {
  concurrentClients: number;
  bookingsPerClient: number;
}

/** `store` with its lease renewals counted: each is a round trip of its own, beside the bookings'. */
function countingRenewals(store: PaymentStore): { store: PaymentStore; renewals: { count: number } } {
  const renewals = { count: 0 };
  // A proxy, not a copy: every call still runs on the store itself (whatever its methods close over).
  const wrapped = new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (property === 'renewLease') renewals.count++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: wrapped, renewals };
}

/**
 * Each provider's round trips per new booking on `store` (ready, its client counted by `counter`),
 * with providers played by `sandbox`: one booking alone first (its round trips are the sample), then
 * the rest from concurrent clients. A failed booking's queries stay in the count (a healthy run has
 * none; {@link ProviderRoundTrips.bookingErrors} says when there were).
 */
export async function providerRoundTrips(
  store: PaymentStore,
  counter: RoundTripCounter,
  sandbox: Sandbox,
  o: RoundTripOptions,
  providers: readonly BenchProvider[] = BENCH_PROVIDERS,
): Promise<ProviderRoundTrips[]> {
  const rows: ProviderRoundTrips[] = [];
  for (const provider of providers) {
    const counted = countingRenewals(store);
    let merchant: Merchant | undefined;
    const kit = await serve(() => merchant);
    try {
      merchant = await startMerchant(kit.url, { store: counted.store, sandbox, provider });
      const m = merchant;
      counter.reset();
      // The first booking alone: what it asked is the sample a failure message shows. If it fails, the bench does.
      await bookThroughHandler(kit.url, m.book);
      const sample = counter.statements;
      let attempted = 0;
      let failed = 0;
      const client = async () => {
        for (let i = 0; i < o.bookingsPerClient; i++) {
          attempted++;
          await bookThroughHandler(kit.url, m.book).catch(() => {
            failed++;
          });
        }
      };
      await Promise.all(Array.from({ length: o.concurrentClients }, client));
      const bookings = 1 + attempted - failed;
      rows.push({
        provider,
        perBooking: (counter.count - counted.renewals.count) / bookings,
        renewalsPerBooking: counted.renewals.count / bookings,
        bookings,
        bookingErrors: failed,
        sample,
      });
    } finally {
      await merchant?.close();
      await kit.close();
    }
  }
  return rows;
}
