/**
 * `wallet-pay-button/testing`: the sandbox as Playwright fixtures, and journey files from a test.
 * Playwright is an optional peer dependency of this entry alone (types only; nothing here imports it
 * at run time).
 *
 * ```ts
 * import { test as base, expect } from '@playwright/test';
 * import { walletPayFixtures, type WalletPayFixtures } from 'wallet-pay-button/testing';
 *
 * const test = base.extend<WalletPayFixtures>(walletPayFixtures);
 * test('a late callback', async ({ walletPaySandbox, runJourneyFile }) => {
 *   const result = await runJourneyFile('examples/journeys/late-callback-then-refunds.json', { endpoint: 'http://127.0.0.1:8080/api/pay' });
 *   expect(result.ok).toBe(true);
 * });
 * test('a cancelled payment sends no callback', async ({ expectCallback }) => {
 *   // ... book and cancel `bookingId` ...
 *   await expectCallback(bookingId, { count: 0, within: '2s' }); // fails as soon as one comes
 * });
 * ```
 */
import type { Page } from 'playwright';
import type { CallbackDelivery } from '../sandbox/esewa-intent/callbacks.js';
import { expectCallback, type CallbackExpectation } from '../sandbox/esewa-intent/expect-callback.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.js';
import { loadJourney, runJourney, type Journey, type JourneyResult, type JourneyTarget } from '../sandbox/esewa-intent/journey.js';
import { payOnPage, type PayOnPageOptions, type PayOnPageResult } from './pay-on-page.js';

export { loadJourney, runJourney } from '../sandbox/esewa-intent/journey.js';
export type { Journey } from '../sandbox/esewa-intent/journey.js';
export { payOnPage, type PayOnPageOptions } from './pay-on-page.js';
export { expectCallback } from '../sandbox/esewa-intent/expect-callback.js';

/** What the fixtures give a test. */
export interface WalletPayFixtures {
  /** Options of the test's sandbox (a Playwright option: `test.use({ walletPaySandboxOptions: { ... } })`). */
  walletPaySandboxOptions: SandboxOptions;
  /** A sandbox of its own for each test, on free loopback ports, closed after it. */
  walletPaySandbox: Sandbox;
  /**
   * Runs a journey file (or a journey object) against a merchant's endpoint and the test's sandbox;
   * resolves with the result whether it passed or not.
   */
  runJourneyFile: (journey: string | Journey, target: Omit<JourneyTarget, 'sandboxUrl'> & { sandboxUrl?: string }) => Promise<JourneyResult>;
  /**
   * {@link payOnPage} in the test's browser page: pays, fails or cancels as a shopper on any sandbox
   * payment page (intent wallet and web payment pages, eSewa ePay v2's login page, Khalti's pay
   * page), opening `url` first when given; fails naming the page it found when it is none of them.
   */
  payOnPage: (url?: string, options?: PayOnPageOptions) => Promise<PayOnPageResult>;
  /** {@link expectCallback} on the test's sandbox. */
  expectCallback: (bookingId: string, expectation?: CallbackExpectation) => Promise<CallbackDelivery[]>;
}

type Use<T> = (value: T) => Promise<void>;

/**
 * The fixtures, for `test.extend<WalletPayFixtures>(walletPayFixtures)`. Each is a plain function of
 * Playwright's fixture shape, so a test runner other than Playwright's can call them too.
 */
export const walletPayFixtures = {
  walletPaySandboxOptions: [{} as SandboxOptions, { option: true }] as const,
  walletPaySandbox: async ({ walletPaySandboxOptions }: { walletPaySandboxOptions: SandboxOptions }, use: Use<Sandbox>): Promise<void> => {
    const sandbox = await startSandbox(walletPaySandboxOptions);
    try {
      await use(sandbox);
    } finally {
      await sandbox.close();
    }
  },
  runJourneyFile: async ({ walletPaySandbox }: { walletPaySandbox: Sandbox }, use: Use<WalletPayFixtures['runJourneyFile']>): Promise<void> => {
    await use(async (journey, target) =>
      runJourney(typeof journey === 'string' ? await loadJourney(journey) : journey, { sandboxUrl: walletPaySandbox.baseUrl, ...target }),
    );
  },
  payOnPage: async ({ page }: { page: Page }, use: Use<WalletPayFixtures['payOnPage']>): Promise<void> => {
    await use((url, options) => payOnPage(page, url, options));
  },
  expectCallback: async ({ walletPaySandbox }: { walletPaySandbox: Sandbox }, use: Use<WalletPayFixtures['expectCallback']>): Promise<void> => {
    await use((bookingId, expectation) => expectCallback(walletPaySandbox, bookingId, expectation));
  },
};
