/**
 * The shopper's part on every payment page the sandbox serves, in a Playwright page: the intent
 * service's wallet page and web payment page, eSewa ePay v2's login page, Khalti's pay page, in
 * English or Nepali. It recognises the page it is on by its form's fields and buttons (names and
 * classes, never words), and when the tab holds none of them it says what it found instead, so a test
 * fails on the real cause (a redirect, a closed booking, another profile).
 */
import type { Page } from 'playwright';
import { parseDuration } from '../sandbox/clock.js';
import { fillEpayForm } from '../sandbox/epay/pay-form.js';
import { fillIntentForm } from '../sandbox/esewa-intent/pay-form.js';
import { fillKhaltiForm } from '../sandbox/khalti/pay-form.js';

/** What the shopper does: pay, fail the payment, or cancel it. */
export type PayAction = 'pay' | 'fail' | 'cancel';

/** The sandbox's payment pages, as {@link payOnPage} tells them apart. */
export type SandboxPageKind = 'wallet' | 'web' | 'epay' | 'khalti';

/** What {@link payOnPage} does on the page. */
export interface PayOnPageOptions {
  /** Default `pay`. Khalti's page has no failure of its own: `fail` pays with `KHALTI-004` (Pending, Failed 2 min later). */
  action?: PayAction;
  /** A scenario of the page's picker (`WPS-…`, `EPAY-…`, `KHALTI-…`); the page's own choice otherwise. */
  scenario?: string;
  /** The MPIN: default `1234` on the intent pages (`0000` to fail), `1111` on Khalti's. */
  mpin?: string;
  /** eSewa ID or Khalti ID; default the first published test ID. */
  id?: string;
  /** eSewa password and token, Khalti OTP; default the published test values. */
  password?: string;
  token?: string;
  otp?: string;
  /** Time for each step (open, act, leave): milliseconds or a duration (`'15s'`). Default 15 s. */
  within?: number | string;
}

/** Where the shopper ended. */
export interface PayOnPageResult {
  /** The page acted on. */
  page: SandboxPageKind;
  /** The URL the tab went to after the action (the merchant's return, success or failure URL). */
  url: string;
}

const NAMES: Readonly<Record<SandboxPageKind, string>> = {
  wallet: "the intent service's wallet page",
  web: "the intent service's web payment page",
  epay: "eSewa ePay v2's login page",
  khalti: "Khalti's pay page",
};
const EXPECTED = `one of the sandbox's payment pages (${Object.values(NAMES).join(', ')})`;

/** A payment page's form as each provider's filler (src/sandbox/<provider>/pay-form.ts) sees it. */
export interface PageForm {
  /** Types into the input of this name. */
  fill(name: string, value: string): Promise<void>;
  /** Picks a scenario in the page's picker, or fails saying which ones it offers. */
  pick(scenario: string): Promise<void>;
}

/** Each page's filler: fills the form for the action and returns the button to press. */
const FILLERS: Readonly<Record<SandboxPageKind, (form: PageForm, action: PayAction, options: PayOnPageOptions) => Promise<string>>> = {
  wallet: fillIntentForm,
  web: fillIntentForm,
  epay: fillEpayForm,
  khalti: fillKhaltiForm,
};

/** What the tab shows, read in the page. */
interface Seen {
  url: string;
  title: string;
  heading: string;
  alert: string;
  kind: SandboxPageKind | undefined;
}

/**
 * Read in the page as a string: a function would be sent as its transpiled text, which may call
 * helpers of the test's own bundler that the page does not have.
 */
const READ_PAGE = `(() => {
  const text = (selector) => document.querySelector(selector)?.textContent?.trim() ?? '';
  const has = (selector) => document.querySelector(selector) !== null;
  return {
    title: document.title,
    heading: text('h1'),
    alert: text('[role=alert]'),
    epay: has('input[name="esewa_id"]'),
    khalti: has('input[name="khalti_id"]'),
    intent: has('input[name="mpin"]') && has('button.confirm'),
    page: document.body?.dataset.sandboxPage ?? '',
  };
})()`;

async function look(page: Page): Promise<Seen> {
  const url = page.url();
  const shown = await page
    .evaluate<{ title: string; heading: string; alert: string; epay: boolean; khalti: boolean; intent: boolean; page: string }>(READ_PAGE)
    .catch((error: Error) => ({ title: `a page that could not be read (${error.message.split('\n')[0]})`, heading: '', alert: '', epay: false, khalti: false, intent: false, page: '' }));
  const kind: SandboxPageKind | undefined = shown.epay
    ? 'epay'
    : shown.khalti
      ? 'khalti'
      : shown.intent
        ? // The page says which it is in any language; the English title is the older pages' only sign.
          shown.page === 'web' || (shown.page === '' && /^web payment/i.test(shown.title))
          ? 'web'
          : 'wallet'
        : undefined;
  return { url, title: shown.title, heading: shown.heading, alert: shown.alert, kind };
}

/** `"Payment closed" at http://…, saying "…"`: what a test needs to see of a page. */
function described(seen: Seen): string {
  const name = seen.title || seen.heading || 'an untitled page';
  return `"${name}" at ${seen.url}${seen.alert ? `, saying "${seen.alert}"` : ''}`;
}

/** The hint for a deeplink that went elsewhere, as under `--profile esewa-uat`. */
function profileHint(opened: string): string {
  return /\/pay\/[^/?#]+$/.test(new URL(opened).pathname)
    ? ' (under --profile esewa-uat the links host redirects /pay/{id} by user agent; the wallet page is at {links_url}/app/{id})'
    : '';
}

/** `; X was redirected to Y (hint)` when the link went through a redirect. */
function redirectHint(opened: string | undefined, at: string): string {
  return !opened || opened === at ? '' : `; ${opened} was redirected to ${at}${profileHint(opened)}`;
}

function ms(within: number | string | undefined): number {
  const value = within === undefined ? 15_000 : typeof within === 'string' ? parseDuration(within) : within;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`payOnPage: within must be a duration such as 500ms or 15s; got ${String(within)}.`);
  return value;
}

/** Picks a scenario in the page's picker, or says which ones it offers. */
async function pick(page: Page, kind: SandboxPageKind, scenario: string, timeout: number): Promise<void> {
  const picker = page.locator('select[name="scenario"]');
  // The options' values, not their words: "None" is written in the page's language.
  const offered = (await picker.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))).filter(Boolean);
  if (!offered.includes(scenario)) throw new Error(`payOnPage: ${NAMES[kind]} offers no scenario "${scenario}"; it offers ${offered.join(', ') || 'none'}.`);
  await picker.selectOption(scenario, { timeout });
}

/** Fills the page's fields for the action, through its provider's filler, and returns the button to press. */
async function prepare(page: Page, kind: SandboxPageKind, action: PayAction, options: PayOnPageOptions, timeout: number): Promise<string> {
  const form: PageForm = {
    fill: (name, value) => page.locator(`input[name="${name}"]`).fill(value, { timeout }),
    pick: (scenario) => pick(page, kind, scenario, timeout),
  };
  return FILLERS[kind](form, action, options);
}

/**
 * Pays, fails or cancels on the sandbox payment page in `page`: opens `url` first when given (a
 * deeplink, a wallet or web payment page, Khalti's `payment_url`), else acts on the page the tab
 * shows (after a form POST: the web payment page, ePay's login page). Resolves once the page has
 * sent the shopper on; rejects, naming what the tab shows, when it is no sandbox payment page, when
 * the page refuses the form, or when a step takes longer than `within`.
 */
export async function payOnPage(page: Page, url?: string, options: PayOnPageOptions = {}): Promise<PayOnPageResult> {
  const timeout = ms(options.within);
  const action = options.action ?? 'pay';
  if (url !== undefined) {
    // Each hop of the main frame's navigation, so a redirect off the sandbox is named even when its target does not load.
    const hops: string[] = [];
    const onRequest = (request: { isNavigationRequest(): boolean; frame(): unknown; url(): string }) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) hops.push(request.url());
    };
    page.on('request', onRequest);
    try {
      await page.goto(url, { timeout, waitUntil: 'domcontentloaded' });
    } catch (error) {
      const reason = (error as Error).message.split('\n')[0]!.replace(/^page\.goto: /, '').replace(/ at \S+$/, '');
      const last = hops.at(-1) ?? url;
      const where = last === url ? 'it' : `${url} was redirected to ${last}, which${profileHint(url)}`;
      throw new Error(`payOnPage: expected ${EXPECTED} at ${url}, but ${where} did not load (${reason}).`);
    } finally {
      page.off('request', onRequest);
    }
  }
  const seen = await look(page);
  if (!seen.kind) throw new Error(`payOnPage: expected ${EXPECTED}, found ${described(seen)}${redirectHint(url, seen.url)}.`);
  const kind = seen.kind;
  const button = await prepare(page, kind, action, options, timeout);
  const left = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout });
  try {
    await Promise.all([left, page.locator(button).first().click({ timeout })]);
  } catch (error) {
    const now = await look(page);
    throw new Error(`payOnPage: pressed ${button} on ${NAMES[kind]} to ${action}, but the tab did not move on within ${timeout} ms; it shows ${described(now)} (${(error as Error).message.split('\n')[0]}).`);
  }
  await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => undefined);
  const after = await look(page);
  if (after.kind === kind && after.alert) throw new Error(`payOnPage: ${NAMES[kind]} refused the ${action}: "${after.alert}" (at ${after.url}).`);
  return { page: kind, url: after.url };
}
