/**
 * The intent service's adapter on the local sandbox, as the provider suite drives it: a shopper pays
 * on the wallet page its deeplink opens, and an unpaid booking expires on the sandbox's clock.
 */
import type { Sandbox } from '../../../../src/sandbox/index.js';
import type { ProviderSuiteOptions } from '../../../../src/server/provider-suite.js';
import { esewaIntent } from '../../../../src/server/providers.js';
import { closedPortUrl } from '../../server/helpers.js';
import { payAtWallet } from '../../../support/pay-at-wallet.js';

/** What the suite needs besides its runner, for the intent adapter on `sandbox()` (read when a test runs). */
export function intentOnSandbox(sandbox: () => Sandbox): Omit<ProviderSuiteOptions, 'name' | 'test' | 'assert'> {
  const make = (serviceUrl: string) => esewaIntent({ serviceUrl, productCode: sandbox().productCodes[0]!, accessKey: sandbox().accessKey, timeoutMs: 2_000 });
  return {
    makeProvider: () => make(sandbox().baseUrl),
    makeUnreachableProvider: async () => make(await closedPortUrl()),
    now: () => sandbox().clock.now(),
    async payBooking(_payment, booking) {
      // The app channel's deeplink, or the deeplink the web booking has too: the wallet page pays both.
      await payAtWallet(booking.deeplink);
    },
    async expireBooking(_booking, provider) {
      await sandbox().clock.advance(provider.capabilities.bookingLifetimeMs + 60_000);
    },
  };
}
