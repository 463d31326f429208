/**
 * The settings of one payment, read and checked once, when the shopper acts. The attempt and the kept
 * booking carry this snapshot, so coming back, checking, cancelling and finishing use the settings the
 * payment started with, whatever the page's attributes say later.
 */
import type { OrderReference } from '../protocol/contract.js';
import { canonical, isRecord } from '../protocol/values.js';
import { isEnvironmentSetting, resolveEnvironment, type Environment, type EnvironmentSignals } from './environment.js';
import { BOOKING_PREFIX } from './kept.js';
import { checkReturnUrl, parseList, resolveEndpoint } from './urls.js';

export { isBookingKey } from './kept.js';

/**
 * The storage key of one endpoint + order pair. The order is written in canonical order (keys sorted
 * at every depth), as the server keys it: an order rebuilt with its keys in another order is the same
 * order and finds its kept booking. Here, with the payment code, not in kept.ts: the first module only
 * tells our keys by their prefix.
 */
export function bookingKey(endpoint: string, order: unknown): string {
  return `${BOOKING_PREFIX}${endpoint}|${JSON.stringify(canonical(order))}`;
}

/** The raw settings, as the element's attributes and properties hold them. */
export interface SettingsInput {
  endpoint?: string | null | undefined;
  orderId?: string | null | undefined;
  order?: OrderReference | null | undefined;
  environment?: string | null | undefined;
  successUrl?: string | null | undefined;
  failureUrl?: string | null | undefined;
  allowedHosts?: string | null | undefined;
  returnOrigins?: string | null | undefined;
  /** A number of ms; an attribute that is no number arrives as its text, so the problem can name it. */
  bookingTimeout?: number | string | null | undefined;
  allowFramed?: boolean | null | undefined;
}

/** What the page tells about itself. */
export interface PageContext {
  /** The page's address. */
  pageUrl: string;
  /** The document's base URL: relative settings resolve against it, as the page's own links do. */
  baseUrl: string;
  /** What the environment rule reads. */
  signals: EnvironmentSignals;
  /** True when the page is inside a frame of another origin. */
  framed: boolean;
}

/** The checked settings of one payment. */
export interface PaymentSettings {
  /** Absolute base URL of the merchant's proxy (empty only in a WebView without one). */
  readonly endpoint: string;
  readonly order: OrderReference;
  readonly environment: Environment;
  /** As written: resolved against `baseUrl` and checked when it is followed. */
  readonly successUrl: string | null;
  readonly failureUrl: string | null;
  readonly pageUrl: string;
  readonly baseUrl: string;
  readonly allowedHosts: readonly string[];
  readonly returnOrigins: readonly string[];
  /** Timeout of the book request, in ms. */
  readonly bookTimeoutMs: number;
  /** Where the booking of this endpoint and order is kept in the tab. */
  readonly storageKey: string;
  /**
   * The wallet the shopper pressed (`esewa`, `khalti`), sent as the book request's `wallet`; absent
   * with one button, so the server books its first. Kept with the booking, so the way back knows it.
   */
  readonly wallet?: string;
}

/** One set-up mistake: the attribute, its value, and a sentence that names both and the fix. */
export interface SettingsProblem {
  /** `framed` stops a payment inside another site's frame; `config` is every other mistake. */
  kind: 'config' | 'framed';
  attribute: string;
  value: string;
  message: string;
}

/**
 * The settings, or every problem found. With problems, `storageKey` still names where a booking of
 * the endpoint and order would be kept (when both are readable): a booking kept with its own settings
 * can still be followed home.
 */
export type SettingsResult =
  | { ok: true; settings: PaymentSettings }
  | { ok: false; problems: SettingsProblem[]; storageKey?: string };

/** Default timeout of the book request: the app must open within the click's 5 s activation. */
const DEFAULT_BOOK_TIMEOUT_MS = 3500;

const problem = (attribute: string, value: unknown, message: string, kind: SettingsProblem['kind'] = 'config'): SettingsProblem => ({
  kind,
  attribute,
  value: value === undefined || value === null ? '' : String(value),
  message,
});

/** Reads and checks the settings of a payment. Pure: the page's facts come in `page`. */
export function readSettings(input: SettingsInput, page: PageContext): SettingsResult {
  const problems: SettingsProblem[] = [];
  if (page.framed && !input.allowFramed) {
    problems.push(problem('allow-framed', '', 'The element is inside a cross-origin frame without allow-framed.', 'framed'));
  }
  const setting = input.environment ?? 'auto';
  if (!isEnvironmentSetting(setting)) {
    problems.push(problem('environment', setting, `environment="${setting}" is not auto, desktop, mobile, webview or inapp: use one of those, or remove it for auto.`));
  }
  const environment = resolveEnvironment(isEnvironmentSetting(setting) ? setting : 'auto', page.signals);
  const webview = environment === 'webview';
  const endpoint = input.endpoint ? resolveEndpoint(input.endpoint, page.baseUrl) : null;
  if (input.endpoint && !endpoint) {
    problems.push(problem('endpoint', input.endpoint, `endpoint="${input.endpoint}" is not an http(s) URL: give the base URL of your payment routes, e.g. "/api/pay".`));
  } else if (!input.endpoint && !webview) {
    problems.push(problem('endpoint', '', 'endpoint is missing: give the base URL of your payment routes, e.g. endpoint="/api/pay".'));
  }
  const order = input.order ?? (input.orderId ? { id: input.orderId } : null);
  if (!order && !webview) {
    problems.push(problem('order-id', '', 'order-id is missing: set the order-id attribute or the order property.'));
  }
  const timeout = input.bookingTimeout ?? DEFAULT_BOOK_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !(timeout > 0) || !Number.isFinite(timeout)) {
    problems.push(problem('booking-timeout', input.bookingTimeout, `booking-timeout="${input.bookingTimeout}" is not a positive number of ms: write e.g. booking-timeout="3500", or remove it.`));
  }
  const allowedHosts = parseList(input.allowedHosts);
  // Refused before booking: with no host allowed, every payment address would be refused after it.
  if (!webview && !allowedHosts.length) {
    problems.push(problem('allowed-hosts', '', 'allowed-hosts is empty: list the hosts of the wallet links and the web payment page.'));
  }
  for (const entry of allowedHosts) {
    // A host, or host:port: a scheme or a path never matches a URL's host.
    if (!/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(entry)) {
      problems.push(problem('allowed-hosts', input.allowedHosts, `allowed-hosts entry "${entry}" is not a host: write host names (or host:port) separated by spaces.`));
    }
  }
  const returnOrigins = parseList(input.returnOrigins);
  // Checked now, not after the shopper paid: a refused way back would strand them on this page.
  for (const [attribute, raw] of [['success-url', input.successUrl], ['failure-url', input.failureUrl]] as const) {
    if (!raw) continue;
    const check = checkReturnUrl(raw, page.pageUrl, returnOrigins, page.baseUrl);
    if (check.ok) continue;
    problems.push(
      problem(
        attribute,
        raw,
        check.reason === 'origin-not-allowed'
          ? `${attribute}="${raw}" is on another origin than this page (${new URL(page.pageUrl).origin}): use a page of this site, or list its origin in return-origins.`
          : `${attribute}="${raw}" is not a usable address (${check.reason}): use an http(s) page of this site, e.g. "/checkout/done".`,
      ),
    );
  }
  const endpointHref = endpoint?.href ?? '';
  const reference = order ?? {};
  if (problems.length) return endpoint && order ? { ok: false, problems, storageKey: bookingKey(endpointHref, reference) } : { ok: false, problems };
  return {
    ok: true,
    settings: {
      endpoint: endpointHref,
      order: reference,
      environment,
      successUrl: input.successUrl || null,
      failureUrl: input.failureUrl || null,
      pageUrl: page.pageUrl,
      baseUrl: page.baseUrl,
      allowedHosts,
      returnOrigins,
      bookTimeoutMs: timeout as number,
      storageKey: bookingKey(endpointHref, reference),
    },
  };
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringOrNull = (value: unknown) => value === null || isString(value);
const isStringList = (value: unknown) => Array.isArray(value) && value.every(isString);

/** True when a value read back from storage has the shape of {@link PaymentSettings}. */
export function isPaymentSettings(value: unknown): value is PaymentSettings {
  if (!isRecord(value)) return false;
  const v = value;
  return (
    isString(v.endpoint) &&
    isRecord(v.order) &&
    isEnvironmentSetting(v.environment) && v.environment !== 'auto' &&
    isStringOrNull(v.successUrl) &&
    isStringOrNull(v.failureUrl) &&
    isString(v.pageUrl) &&
    isString(v.baseUrl) &&
    isStringList(v.allowedHosts) &&
    isStringList(v.returnOrigins) &&
    typeof v.bookTimeoutMs === 'number' &&
    v.bookTimeoutMs > 0 &&
    isString(v.storageKey) &&
    (v.wallet === undefined || isString(v.wallet))
  );
}
