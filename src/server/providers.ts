/**
 * `wallet-pay-button/server/providers`: the payment providers the kit ships, to list in
 * `createPaymentHandler({ providers: [...] })`, and the error their calls fail with. The interface an
 * adapter of your own implements is `wallet-pay-button/server/provider-suite`'s, beside its checks.
 *
 * ```ts
 * import { createPaymentHandler } from 'wallet-pay-button/server';
 * import { esewaEpay, khalti } from 'wallet-pay-button/server/providers';
 * const handler = createPaymentHandler({
 *   providers: [esewaEpay({ productCode, secretKey, environment: 'live' }), khalti({ secretKey: khaltiKey, websiteUrl: 'https://shop.example', environment: 'live' })],
 *   ...
 * });
 * ```
 */

/** eSewa's web checkout, ePay v2: a signed form the browser posts, settled by eSewa's status check. */
export { esewaEpay, type EsewaEpayOptions } from '../providers/epay/adapter.js';
/** Khalti's web checkout, KPG-2: Khalti's page by GET on every device, settled by a lookup with the secret key; refunds in full or in part. */
export { khalti, type KhaltiOptions } from '../providers/khalti/adapter.js';
/** eSewa's intent payment service: signed book, status and cancel calls, a deeplink, a signed callback. */
export { esewaIntent, type EsewaIntentOptions } from '../providers/esewa-intent/adapter.js';
/** What a provider's call fails with: `kind` says refused, unusable or too slow; `code` is the provider's or the kit's. */
export { ServiceError } from './service-error.js';
