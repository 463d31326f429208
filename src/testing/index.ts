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
 * ```
 */
import type { Page } from 'playwright';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.js';
import { loadJourney, runJourney, type Journey, type JourneyResult, type JourneyTarget } from '../sandbox/journey.js';

export { loadJourney, runJourney, junitReport, JourneyError } from '../sandbox/journey.js';
export type { Journey, JourneyResult, JourneyStep, JourneyTarget, StepResult } from '../sandbox/journey.js';

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
   * Pays on the sandbox's wallet or web payment page in the test's browser page, as a shopper: opens
   * `url` (a deeplink or the web payment page), picks the scenario, types the MPIN, confirms.
   */
  payOnPage: (url: string, options?: { scenario?: string; mpin?: string }) => Promise<void>;
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
    await use(async (url, options = {}) => {
      await page.goto(url);
      if (options.scenario) await page.locator('select[name="scenario"]').selectOption(options.scenario);
      await page.locator('input[name="mpin"]').fill(options.mpin ?? '1234');
      await Promise.all([page.waitForURL((next) => next.href !== url), page.locator('button.confirm').click()]);
    });
  },
};
