/**
 * What the handler's parts share, each piece built once by the handler from its options: the merchant
 * key (its product code, and the one holder of the access key), the order lookup under its deadline, the
 * service client and its refusing caller, the guarded store, this instance's name and clock, and the
 * error reporter. No part receives the options themselves.
 */
import type { MerchantKey } from './order-tag.js';
import type { Lookup } from './guards.js';
import type { ServiceCaller, ServiceClient } from './service-client.js';
import type { PaymentStore } from './store.js';
import type { ErrorContext } from './types.js';

/** The handler's shared parts. */
export interface Kit {
  /** The merchant's product code, and what its secret (`accessKey`) signs and checks: receipts, order tags, web forms, callbacks. */
  key: MerchantKey;
  /** `lookupOrder` under its deadline (`lookupTimeoutMs`). */
  lookup: Lookup;
  client: ServiceClient;
  /** The routes' calls to the service, failures already refusals. */
  service: ServiceCaller;
  store: PaymentStore;
  /** This handler's name in the store's claims and leases. */
  owner: string;
  /** How long a claim or lease holds before another instance may take it over. */
  leaseMs: number;
  now(): number;
  report(error: unknown, context: ErrorContext): void;
}
