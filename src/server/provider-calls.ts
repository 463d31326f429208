/**
 * The handler's providers as its routes use them: which provider books a channel of a wallet, which
 * made a stored booking, and each call's failure turned into the code the browser sees (a code the
 * browser can act on passes through; a refusal of the merchant's own set-up is explained to
 * `onError` with the option to fix). The core reaches a provider only through here.
 */
import { CODES, type Channel, type ResponseCode } from '../protocol/contract.js';
import { Refusal, type Route } from './http.js';
import type { PaymentProvider, ProviderBooking, ProviderBookInput, ProviderBookingRef, ProviderStatus } from './provider.js';
import { ServiceError } from './service-error.js';
import type { ErrorContext } from './types.js';

/** The handler's providers. */
export interface Providers {
  /** Every provider, in the merchant's order. */
  readonly list: readonly PaymentProvider[];
  /**
   * The provider that books `channel` (for `wallet`, when named), and the channel it books: the first
   * in the merchant's order that has the channel; else the first of the wallet that pays on the web
   * (a merchant with a web checkout only still takes a phone's payment). `undefined`: no provider of
   * that wallet.
   */
  pick(channel: Channel, wallet?: string): { provider: PaymentProvider; channel: Channel } | undefined;
  /** The provider that made a stored booking. */
  of(booking: { provider?: string }): PaymentProvider;
  /** Books; a failure is already the refusal the browser gets. */
  book(provider: PaymentProvider, input: ProviderBookInput): Promise<ProviderBooking>;
  /** A stored booking's status at its provider; a failure is already a refusal. */
  status(booking: ProviderBookingRef & { provider?: string }, route: Route): Promise<ProviderStatus>;
  /** Cancels a stored booking at its provider; `undefined` when its provider cannot cancel. A failure is already a refusal. */
  cancel(booking: ProviderBookingRef & { provider?: string }, route: Route): Promise<ProviderStatus | undefined>;
  /** A call's failure as the refusal the browser gets (a set-up fault told to `onError`). */
  refusalOf(error: unknown, route: Route, provider: PaymentProvider): unknown;
}

// The service's codes a browser can act on; other refusals are the merchant's set-up or the service's trouble.
const PASSED_THROUGH = new Set<string>([CODES.ALREADY_PROCESSED, CODES.UNKNOWN_BOOKING, CODES.IDEMPOTENCY_CONFLICT]);

/** The providers of one handler; `report` is the handler's `onError`. */
export function createProviders(list: readonly PaymentProvider[], report: (error: unknown, context: ErrorContext) => void): Providers {
  const byName = new Map(list.map((provider) => [provider.name, provider]));

  function of(booking: { provider?: string }): PaymentProvider {
    // A booking saved before bookings named their provider was made by the intent service.
    const provider = byName.get(booking.provider || 'esewa-intent');
    if (!provider) throw new Error(`No provider named "${booking.provider}" is configured, yet a stored booking names it: keep every provider a booking was made with in createPaymentHandler's providers until its bookings are settled.`);
    return provider;
  }

  function refusalOf(error: unknown, route: Route, provider: PaymentProvider): unknown {
    if (!(error instanceof ServiceError)) return error;
    if (error.kind === 'timeout') return new Refusal(CODES.UPSTREAM_TIMEOUT, 'The payment service did not answer in time; try again.');
    if (error.kind === 'rejected' && PASSED_THROUGH.has(error.code)) return new Refusal(error.code as ResponseCode, error.message);
    const named = { route, wallet: provider.wallet, provider: provider.name };
    if (isSetupFault(error)) {
      report(provider.explain?.(error) ?? error, named);
      return new Refusal(
        CODES.MERCHANT_SETUP,
        'The shop cannot take this payment now because of a problem in its own set-up; please contact the shop.',
      );
    }
    report(error, named);
    const detail = error.kind === 'rejected' ? ` (code ${error.code})` : '';
    return new Refusal(CODES.UPSTREAM_UNAVAILABLE, `The payment service could not process this request${detail}.`);
  }

  async function call<T>(provider: PaymentProvider, route: Route, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw refusalOf(error, route, provider);
    }
  }

  return {
    list,
    pick(channel, wallet) {
      const candidates = wallet === undefined ? list : list.filter((provider) => provider.wallet === wallet);
      const exact = candidates.find((provider) => provider.capabilities.channels.includes(channel));
      if (exact) return { provider: exact, channel };
      const web = candidates.find((provider) => provider.capabilities.channels.includes('web'));
      return web && { provider: web, channel: 'web' };
    },
    of,
    book: (provider, input) => call(provider, 'book', () => provider.book(input)),
    status(booking, route) {
      const provider = of(booking);
      return call(provider, route, () => provider.status(booking));
    },
    cancel(booking, route) {
      const provider = of(booking);
      if (!provider.cancel || !provider.capabilities.cancel) return Promise.resolve(undefined);
      const cancel = provider.cancel.bind(provider);
      return call(provider, route, () => cancel(booking));
    },
    refusalOf,
  };
}

/**
 * Whether a failed call shows a set-up fault of the merchant's server that no retry can cure: the
 * provider refused the signature (`IP-400`) or the account (`IP-401`), or another 4xx refusal of what
 * the kit sent; or the provider's URL answered 404 or with something that is not the provider (an HTML
 * page, a body without the envelope) below HTTP 500. Timeouts, 5xx, 408, 429 and unreachable hosts
 * stay transient.
 */
function isSetupFault(error: ServiceError): boolean {
  if (error.kind === 'timeout' || error.httpStatus === undefined) return false;
  if (error.kind === 'rejected' && (error.code === CODES.INVALID_SIGNATURE || error.code === CODES.UNKNOWN_MERCHANT)) return true;
  const status = error.httpStatus;
  return status < 500 && status !== 408 && status !== 429;
}
