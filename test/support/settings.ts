/** Payment settings for unit tests of the core. */
import { bookingKey, type PaymentSettings } from '../../src/core/settings.js';

/** The settings of a test payment, with `overrides`; the storage key follows the endpoint and order. */
export function settingsOf(overrides: Partial<PaymentSettings> = {}): PaymentSettings {
  const base = {
    endpoint: 'https://shop.test/pay',
    order: { id: 'A-1' },
    environment: 'mobile' as const,
    successUrl: '/done',
    failureUrl: '/failed',
    pageUrl: 'https://shop.test/checkout',
    baseUrl: 'https://shop.test/checkout',
    allowedHosts: ['links.wallet.test', 'pay.wallet.test'],
    returnOrigins: [],
    bookTimeoutMs: 3500,
    ...overrides,
  };
  return { ...base, storageKey: bookingKey(base.endpoint, base.order) };
}
