/**
 * What the handler's parts share, each piece built once by the handler from its options: the merchant
 * key (the one holder of the secret it signs receipts and order tags with), the order lookup under its
 * deadline, the providers and their refusing calls, the guarded store, this instance's name and clock, and the
 * error reporter. No part receives the options themselves.
 */
import type { MerchantKey } from './order-tag.js';
import type { Lookup } from './guards.js';
import type { Providers } from './provider-calls.js';
import type { PaymentStore } from './store.js';
import type { ErrorContext } from './types.js';

/** The handler's shared parts. */
export interface Kit {
  /** What the first provider's secret signs and checks: receipts and order tags. */
  key: MerchantKey;
  /** `lookupOrder` under its deadline (`lookupTimeoutMs`). */
  lookup: Lookup;
  /** The providers, and the routes' calls to them (failures already refusals). */
  providers: Providers;
  store: PaymentStore;
  /** This handler's name in the store's claims and leases. */
  owner: string;
  /** How long a claim or lease holds before another instance may take it over. */
  leaseMs: number;
  now(): number;
  report(error: unknown, context: ErrorContext): void;
}
