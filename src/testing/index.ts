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
import { parseDuration } from '../sandbox/clock.js';
import type { CallbackDelivery } from '../sandbox/esewa-intent/callbacks.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.js';
import { loadJourney, runJourney, type Journey, type JourneyResult, type JourneyTarget } from '../sandbox/esewa-intent/journey.js';
import { payOnPage, type PayOnPageOptions, type PayOnPageResult } from './pay-on-page.js';

export { loadJourney, runJourney } from '../sandbox/esewa-intent/journey.js';
export type { Journey } from '../sandbox/esewa-intent/journey.js';
export { payOnPage, type PayOnPageOptions } from './pay-on-page.js';

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

/** What {@link expectCallback} waits for. */
interface CallbackExpectation {
  /** Only callbacks reporting this payment status (`SUCCESS`, `REVERTED`, ...). */
  status?: string;
  /** Only deliveries in this state; default `delivered`, and with `count: 0` any state (a callback sent is one, answered or not). */
  state?: CallbackDelivery['state'];
  /** At least this many within the time; `0`: none within it, the whole time waited. Default 1. */
  count?: number;
  /** How long: milliseconds or a duration (`'500ms'`, `'15s'`, `'2m'`). Default 15 s. */
  within?: number | string;
}

/** The sandbox's callback desk, as {@link expectCallback} reads it. */
interface CallbackDesk {
  callbackDeliveries(filter?: { booking_id?: string }): CallbackDelivery[];
}

const POLL_MS = 25;

/**
 * Waits for a booking's callbacks at the sandbox's desk. With `count` n (default 1), resolves with the
 * matching deliveries once there are n, and rejects when the time runs out first. With `count: 0`,
 * "no callback within T": waits the whole time and rejects as soon as one matching callback is at
 * the desk, delivered or not. The rejection says what the desk holds.
 */
export async function expectCallback(desk: CallbackDesk, bookingId: string, expectation: CallbackExpectation = {}): Promise<CallbackDelivery[]> {
  const count = expectation.count ?? 1;
  if (!Number.isInteger(count) || count < 0) throw new TypeError(`expectCallback: count must be a whole number of at least 0; got ${String(count)}.`);
  const { within = 15_000, status } = expectation;
  const ms = typeof within === 'string' ? parseDuration(within) : within;
  if (!Number.isFinite(ms) || ms < 0) throw new TypeError(`expectCallback: within must be a duration such as 500ms or 15s; got ${String(within)}.`);
  const state = expectation.state ?? (count === 0 ? undefined : 'delivered');
  const what = `${status ? `${status} ` : ''}callback${state ? ` (${state})` : ''} of ${bookingId}`;
  const started = Date.now();
  for (;;) {
    const all = desk.callbackDeliveries({ booking_id: bookingId });
    const matching = all.filter((d) => (state === undefined || d.state === state) && (status === undefined || d.status === status));
    const elapsed = Date.now() - started;
    if (count === 0 && matching.length > 0) {
      const first = matching.at(-1)!;
      throw new Error(`expected no ${what} within ${ms} ms, but ${first.id} (${first.status}, ${first.state}) was at the desk after ${elapsed} ms.`);
    }
    if (count > 0 && matching.length >= count) return matching;
    if (elapsed >= ms) {
      if (count === 0) return [];
      const seen = all.map((d) => `${d.id} ${d.status} ${d.state}`).join(', ') || 'nothing';
      throw new Error(`expected ${count} ${what} within ${ms} ms; the desk has ${seen}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, ms - elapsed)));
  }
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
