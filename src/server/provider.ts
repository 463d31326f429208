/**
 * The provider seam: what the kit's core asks of a payment provider, and nothing more. The core
 * (booking, the order lease, results, delivery, reconcile, the routes, the stores) speaks this
 * interface alone; each provider is an adapter in a folder of its own (`src/providers/<name>/`) that
 * holds its wire format, its signing, its status mapping and what it can do. A merchant may write an
 * adapter of their own: `wallet-pay-button/server/provider-suite` is the suite it must pass.
 *
 * Shaped after the small provider interfaces with optional capabilities of auth and payment
 * libraries: required calls every provider has (book, status), optional ones a provider may lack
 * (cancel, a signed server callback, refund), each answer normalised to one shape with the raw answer
 * beside it.
 */
import type { Channel, PaymentStatus, WebPaymentInstruction } from '../protocol/contract.js';

/** How a provider tells the outcome of a payment, besides the status check that always decides. */
export type OutcomeChannel =
  /** A signed server-to-server callback (the intent service). */
  | 'signed-callback'
  /** A signed hint on the shopper's return (eSewa ePay v2's `data`). */
  | 'signed-return'
  /** An unsigned hint on the shopper's return (Khalti): never a verdict. */
  | 'unsigned-return';

/** What a provider can do: the core asks these, never the provider's name. */
export interface ProviderCapabilities {
  /** The ways the shopper can pay: `app` (a deeplink the wallet app opens) and/or `web` (a payment page). */
  channels: readonly Channel[];
  /** Whether an open booking can be cancelled at the provider; without it, a left booking is superseded and checked until it expires. */
  cancel: boolean;
  /** How the outcome arrives besides the status check. */
  outcome: OutcomeChannel;
  /** Whether a payment can be refunded through the provider's API (else a refund is only seen in a status). */
  refund: boolean;
  /** How long an unpaid booking stays payable at the provider, in ms: reconcile checks a booking at least this long. */
  bookingLifetimeMs: number;
  /** The smallest amount the provider takes, in rupees (a book below it is refused before any call). */
  minAmount: number;
}

/** What the kit books. */
export interface ProviderBookInput {
  /** The amount to charge, in rupees (from the merchant's order; at most two decimals). */
  amount: number;
  /** The kit's unique reference of this booking (letters, digits, `-` and `_`; at most 64 characters). */
  reference: string;
  channel: Channel;
  /** Where the shopper comes back after paying or not (the merchant's `redirectUrl`). */
  returnUrl: string;
  /** Where a provider with signed callbacks reaches the kit. */
  callbackUrl: string;
  /** The merchant's order id, as `lookupOrder` gave it. */
  orderId: string;
  /** Shown to the shopper by the provider where it can: snake_case keys, string values. */
  properties: Record<string, string>;
}

/** A booking the provider made. */
export interface ProviderBooking {
  /** The provider's id of the booking (unique at the provider). */
  booking_id: string;
  /** The id the provider's callbacks name the booking by (the `booking_id` again where there is none). */
  correlation_id: string;
  /** The deeplink the wallet app opens (`app` channel). */
  deeplink?: string;
  /** Text the adapter keeps with the booking (saved by the store, never read by it). */
  data?: string;
}

/** The booking as the kit stored it, as an adapter reads it back. */
export interface ProviderBookingRef {
  booking_id: string;
  correlation_id: string;
  transaction_uuid: string;
  channel: Channel;
  amount: number;
  deeplink: string;
  provider_data: string;
  created_at: number;
}

/** A provider's answer about a booking, normalised. */
export interface ProviderStatus {
  status: PaymentStatus;
  /** What the provider says was paid, in rupees, when it says. */
  amount?: number;
  /**
   * A payment that stays `SUCCESS` with part of it refunded: `amount` in rupees when the provider says
   * how much (eSewa's status check does not).
   */
  partialRefund?: { amount?: number };
  /** The provider's own reference of the payment. */
  reference_code?: string;
  /** When the provider last changed it (ISO 8601), when it says. */
  updated_at?: string;
  /** The provider's raw answer, for logs. */
  raw?: unknown;
}

/** A verified server callback, normalised. */
export interface ProviderCallback {
  correlation_id: string;
  status: PaymentStatus;
  amount?: number;
  reference_code?: string;
}

/** A return address read: the status it claims, or why it was refused. */
export type ProviderReturn = { ok: true; status?: PaymentStatus } | { ok: false; reason: string; message: string };

/** What the shopper's browser follows for a booking: a deeplink, or a web payment. */
export type ProviderPayment = { deeplink: string } | { web_payment: WebPaymentInstruction };

/**
 * A payment provider. Every call that reaches the provider fails with a `ServiceError`
 * (`wallet-pay-button/server/providers`), whose `kind` says whether the provider refused, could not be
 * used, or did not answer in time; the core turns it into the code the browser sees.
 */
export interface PaymentProvider {
  /** The adapter's name, stored with each booking (`esewa-intent`, `esewa-epay`, `khalti`). */
  readonly name: string;
  /** The wallet the shopper pays with (`esewa`, `khalti`): what the element shows a button for. */
  readonly wallet: string;
  readonly capabilities: ProviderCapabilities;
  /** The merchant's id at the provider (a product code): named in what the kit signs with {@link secret}. */
  readonly account: string;
  /** A server-side secret of the merchant at this provider: the kit keys its receipts and order tags with the first provider's. */
  readonly secret: string;
  /** Books a payment. */
  book(input: ProviderBookInput): Promise<ProviderBooking>;
  /** What the browser follows for a stored booking (the same answer for a replay of its key). */
  payment(booking: ProviderBookingRef): Promise<ProviderPayment>;
  /** The booking's status at the provider now. */
  status(booking: ProviderBookingRef): Promise<ProviderStatus>;
  /** Cancels an open booking (with `capabilities.cancel`); a booking already processed fails with code `IP-410`. */
  cancel?(booking: ProviderBookingRef): Promise<ProviderStatus>;
  /** Verifies a server callback from its raw body (with `outcome: 'signed-callback'`); throws a `Refusal`-coded error otherwise. */
  callback?(rawBody: string): Promise<ProviderCallback>;
  /**
   * A booking the kit's store lost, asked by the ids the browser presents (only for a browser holding
   * the kit's receipt): its status and the `transaction_uuid` the kit made for it. Providers that cannot
   * find a booking by these ids leave it out.
   */
  find?(ids: { booking_id: string; correlation_id: string }): Promise<ProviderStatus & { transaction_uuid: string }>;
  /**
   * Reads the shopper's return address (its query, as the browser had it) for a stored booking, with
   * `outcome: 'signed-return'`: a hint, never a verdict (the status check decides). A return that is
   * not the provider's, or not this booking's, is refused by name, so the kit can tell the merchant.
   */
  readReturn?(query: string, booking: ProviderBookingRef): Promise<ProviderReturn>;
  /** Refunds a payment in full, or `amount` rupees of it (with `capabilities.refund`). */
  refund?(booking: ProviderBookingRef, amount?: number): Promise<void>;
  /**
   * What the merchant reads in `onError` when the provider refused the merchant's own set-up (a key
   * or account it does not know): the provider's words and the option to fix. Default: the error as it is.
   */
  explain?(error: unknown): Error;
}
