/**
 * The way from a third-party in-app browser to the phone's own browser, for the address that carries
 * the shopper's payment there: a link where the platform has one that works (`BROWSER_ESCAPES`), else
 * the address to copy. Pure: the address and the user agent come in as arguments.
 */
import type { Continuation } from './continuation.js';
import { inAppBrowser, type InAppId } from './in-app-browsers.js';
import { CONTINUATION_PREFIX } from './kept.js';
import { checkReturnUrl, storePlatform } from './urls.js';

/** How the page can be opened in the phone's own browser from an in-app browser. */
type BrowserEscape =
  /** Android: `intent://HOST/PATH#Intent;scheme=https;end` hands the page to the default browser. */
  | 'intent'
  /** iOS: `x-safari-https://HOST/PATH` opens the page in Safari. */
  | 'x-safari'
  /** LINE: the page's own address with `openExternalBrowser=1` in its query. */
  | 'line'
  /** Nothing known to work: the shopper copies the page's address. */
  | 'copy';

/**
 * Each app's way out, on Android and on iOS, from field reports (sources in docs/webview.md): the
 * `intent:` form opened the browser from Facebook, Messenger, Instagram, Threads and LINE;
 * `x-safari-https:` worked in Facebook, Messenger, TikTok, LINE and LinkedIn but stopped in Instagram
 * 424; X accepts no browser scheme; Snapchat, X and LinkedIn open links in Chrome Custom Tabs on
 * Android, whose own menu opens Chrome.
 */
export const BROWSER_ESCAPES: Readonly<Record<InAppId, { android: BrowserEscape; ios: BrowserEscape }>> = {
  messenger: { android: 'intent', ios: 'x-safari' },
  instagram: { android: 'intent', ios: 'copy' },
  threads: { android: 'intent', ios: 'copy' },
  facebook: { android: 'intent', ios: 'x-safari' },
  tiktok: { android: 'copy', ios: 'x-safari' },
  snapchat: { android: 'copy', ios: 'copy' },
  line: { android: 'line', ios: 'line' },
  x: { android: 'copy', ios: 'copy' },
  linkedin: { android: 'copy', ios: 'x-safari' },
  pinterest: { android: 'copy', ios: 'copy' },
  wechat: { android: 'copy', ios: 'copy' },
  viber: { android: 'copy', ios: 'copy' },
  whatsapp: { android: 'copy', ios: 'copy' },
};

/** A link that opens the page in the phone's browser, or the address to copy, or nothing usable. */
export type BrowserWay = { kind: 'link'; href: string; url: string } | { kind: 'copy'; url: string } | null;

/**
 * The way out of the in-app browser named by `userAgent`, for `pageUrl` (the continuation address of
 * the booking, continuation.ts). The address is parsed and checked first (an `http(s)` page, no
 * user-info), and only its own origin is written into a link. A continuation's fragment, which
 * carries the payment, stays in every form (an intent's data ends at its last `#`, Android's
 * `Intent.parseUri`, so `…#wallet-pay=…#Intent;…;end` opens the address with it); any other is dropped.
 */
export function browserWay(pageUrl: string, userAgent: string): BrowserWay {
  const check = checkReturnUrl(pageUrl, pageUrl, []);
  if (!check.ok) return null;
  const page = check.url;
  // A fragment of the page's own (an anchor, a route) is not the payment's: only a continuation stays.
  if (!page.hash.startsWith(CONTINUATION_PREFIX)) page.hash = '';
  const url = page.href;
  const platform = storePlatform(userAgent);
  const app = inAppBrowser(userAgent);
  const escape = app && platform !== 'other' ? BROWSER_ESCAPES[app.id][platform] : 'copy';
  const scheme = page.protocol.slice(0, -1);
  switch (escape) {
    case 'intent':
      return { kind: 'link', href: `intent://${page.host}${page.pathname}${page.search}${page.hash}#Intent;scheme=${scheme};end`, url };
    case 'x-safari':
      return { kind: 'link', href: `x-safari-${url}`, url };
    case 'line':
      // The page itself, its address kept in `url` above.
      page.searchParams.set('openExternalBrowser', '1');
      return { kind: 'link', href: page.href, url };
    default:
      return { kind: 'copy', url };
  }
}

/**
 * `pageUrl` with `continuation` as its fragment (any fragment of its own replaced), the address every
 * way out carries (continuation.ts reads it), or `null` when the page is not an `http(s)` address. The
 * JSON is percent-encoded: no `#` (an intent's data ends at its last `#`), nothing a parser rewrites.
 */
export function continuationAddress(pageUrl: string, continuation: Continuation): string | null {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(page.protocol)) return null;
  const { booking_id, correlation_id, receipt, web_payment, deeplink } = continuation;
  page.hash = '';
  return page.href + CONTINUATION_PREFIX + encodeURIComponent(JSON.stringify({ booking_id, correlation_id, receipt, web_payment, deeplink }));
}
