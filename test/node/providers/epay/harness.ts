/**
 * eSewa ePay v2's adapter on the local sandbox, as the provider suite and the adapter's tests drive
 * it: the browser's form POST, the login page's pay (or its cancel), and time on the sandbox's clock.
 */
import type { Sandbox } from '../../../../src/sandbox/index.js';
import type { ProviderPayment } from '../../../../src/server/provider.js';
import type { ProviderSuiteOptions } from '../../../../src/server/provider-suite.js';
import { esewaEpay, type EsewaEpayOptions } from '../../../../src/server/providers.js';
import { closedPortUrl } from '../../server/helpers.js';
import { LOGIN, PUBLISHED_KEY, actionsOf, postForm } from '../../sandbox/epay/support.js';

export { LOGIN, PUBLISHED_KEY, actionsOf, postForm };

/** The test service's adapter on `sandbox`, on its clock. */
export function epayOn(sandbox: Sandbox, extra: Partial<EsewaEpayOptions> = {}) {
  return esewaEpay({ productCode: 'EPAYTEST', secretKey: PUBLISHED_KEY, baseUrl: sandbox.baseUrl, now: () => sandbox.clock.now(), timeoutMs: 2_000, ...extra });
}

/** The web payment's form as the browser posts it: the login page's HTML. */
export async function openForm(payment: ProviderPayment | { web_payment?: { url: string; fields?: Record<string, string> } }): Promise<string> {
  const web = 'web_payment' in payment ? payment.web_payment : undefined;
  if (!web) throw new Error(`not a web payment: ${JSON.stringify(payment)}`);
  const page = await postForm(web.url, web.fields ?? {});
  if (page.status !== 200) throw new Error(`the form POST answered ${page.status}: ${page.text}`);
  return page.text;
}

/** Posts the form and pays on the login page with the published test login (`scenario` picks one). */
export async function payForm(baseUrl: string, payment: Parameters<typeof openForm>[0], scenario = ''): Promise<string> {
  const page = await openForm(payment);
  const answer = await postForm(`${baseUrl}${actionsOf(page)['pay']}`, { ...LOGIN, scenario });
  if (answer.status !== 302) throw new Error(`the pay answered ${answer.status}: ${answer.text}`);
  return answer.response.headers.get('location')!;
}

/** What the suite needs besides its runner, for the ePay adapter on `sandbox()` (read when a test runs). */
export function epayOnSandbox(sandbox: () => Sandbox): Omit<ProviderSuiteOptions, 'name' | 'test' | 'assert'> {
  return {
    makeProvider: () => epayOn(sandbox()),
    makeUnreachableProvider: async () => epayOn(sandbox(), { statusUrl: await closedPortUrl() }),
    now: () => sandbox().clock.now(),
    statusNamesAmount: true,
    async payBooking(payment) {
      await payForm(sandbox().baseUrl, payment);
    },
    async leaveBooking(payment) {
      await openForm(payment);
    },
    async expireBooking(_booking, provider) {
      await sandbox().clock.advance(provider.capabilities.bookingLifetimeMs + 60_000);
    },
  };
}
