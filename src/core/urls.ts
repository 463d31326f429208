/**
 * URL safety checks for every address the element would follow. Pure functions: no DOM, so they run
 * in Node and in unit tests with any input.
 */

/** Why a URL was refused; each reason maps to one shopper-facing message and one error event. */
export type UrlRefusal =
  | 'unparsable'
  | 'scheme'
  | 'insecure'
  | 'credentials'
  | 'host-not-allowed'
  | 'origin-not-allowed';

/** The result of a check: the parsed URL, or the reason it was refused. */
type UrlCheck = { ok: true; url: URL } | { ok: false; reason: UrlRefusal };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for the loopback host names on which plain `http:` is tolerated (local development). */
function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/** Splits a space-separated list attribute (`allowed-hosts`, `return-origins`) into lower-case entries. */
export function parseList(value: string | null | undefined): string[] {
  // Split on whitespace, the entries hold none: only the empty ends are left to drop.
  return (value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

const refuse = (reason: UrlRefusal): UrlCheck => ({ ok: false, reason });

/**
 * Parses `raw` (against `base` when given) and applies the checks every address shares: `http(s):`
 * only, plain `http:` only on loopback when `secure`, and no user-info
 * (`https://allowed.example@evil.example` is a classic way to confuse a reader).
 */
function parse(raw: string, base: string | URL | undefined, secure: boolean): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return refuse('unparsable');
  }
  const http = url.protocol === 'http:';
  if (!http && url.protocol !== 'https:') return refuse('scheme');
  if (secure && http && !isLoopbackHost(url.hostname)) return refuse('insecure');
  return url.username || url.password ? refuse('credentials') : { ok: true, url };
}

/**
 * Checks a URL handed to us by the merchant's server (the deeplink or the web-payment page).
 *
 * It is parsed WITHOUT a base, so relative and protocol-relative values (`//evil.example`) fail to
 * parse instead of silently resolving against the page. Only `https:` is accepted, `http:` only on
 * loopback; `javascript:`, `data:`, `blob:`, `file:` and every other scheme are refused. The host must
 * be listed in `allowedHosts` (an entry may carry a port, `host:port`, to allow only that port).
 */
export function checkProviderUrl(raw: unknown, allowedHosts: readonly string[]): UrlCheck {
  if (typeof raw !== 'string' || raw.trim() !== raw || !raw) return refuse('unparsable');
  const check = parse(raw, undefined, true);
  if (!check.ok) return check;
  // URL already lower-cases the host of http(s) URLs.
  const { hostname, host } = check.url;
  return allowedHosts.some((entry) => entry === hostname || entry === host) ? check : refuse('host-not-allowed');
}

/**
 * Checks a merchant return address (`success-url`, `failure-url`). Relative values resolve against
 * `baseUrl` (the document's base URL, as an `<a href>` would; the page itself by default); the result
 * must be `http(s):` and same-origin with the page unless its origin is listed in `returnOrigins`: a
 * `<base>` on another origin does not widen that.
 */
export function checkReturnUrl(raw: string, pageUrl: string, returnOrigins: readonly string[], baseUrl: string = pageUrl): UrlCheck {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return refuse('unparsable');
  }
  const check = parse(raw, baseUrl, false);
  if (!check.ok) return check;
  const { origin } = check.url;
  return origin === page.origin || returnOrigins.includes(origin) ? check : refuse('origin-not-allowed');
}

/**
 * Resolves the `endpoint` attribute against `baseUrl` (the document's base URL, as `fetch` would); it
 * must be `http(s):` (a relative path is fine).
 */
export function resolveEndpoint(raw: string, baseUrl: string): URL | null {
  const check = parse(raw, baseUrl, false);
  return check.ok ? check.url : null;
}

/** Returns a copy of `url` with the given query parameters set (existing ones are kept). */
export function withQuery(url: URL, params: Record<string, string | undefined>): string {
  const copy = new URL(url.href);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) copy.searchParams.set(name, value);
  }
  return copy.href;
}

/** The shopper's mobile platform, as far as the store link is concerned. */
type StorePlatform = 'android' | 'ios' | 'other';

/** Reads the platform from a user agent (iPadOS with a desktop user agent reads as `other`). */
export function storePlatform(userAgent: string): StorePlatform {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent)) return 'ios';
  return 'other';
}

const ANDROID_PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const IOS_APP_ID = /^[0-9]{1,15}$/;

/**
 * The store listing of the wallet app for the shopper's platform, or `null` when the merchant gave no
 * (valid) identifier for that platform: the option is then hidden rather than a broken link.
 */
export function storeListingUrl(
  platform: StorePlatform,
  androidPackage: string | null | undefined,
  iosAppId: string | null | undefined,
): string | null {
  if (platform === 'android' && androidPackage && ANDROID_PACKAGE.test(androidPackage)) {
    return `https://play.google.com/store/apps/details?id=${encodeURIComponent(androidPackage)}`;
  }
  if (platform === 'ios' && iosAppId && IOS_APP_ID.test(iosAppId)) {
    return `https://apps.apple.com/app/id${iosAppId}`;
  }
  return null;
}
