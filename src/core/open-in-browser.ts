/**
 * The way from a third-party in-app browser to the phone's own browser, for the page the shopper is
 * on: a link where the platform has one that works (in-app-browsers.ts says which), else the page's
 * address to copy. Pure: the page's address and user agent come in as arguments.
 */
import { inAppBrowser } from './in-app-browsers.js';
import { checkReturnUrl, storePlatform } from './urls.js';

/** A link that opens the page in the phone's browser, or the address to copy, or nothing usable. */
export type BrowserWay = { kind: 'link'; href: string; url: string } | { kind: 'copy'; url: string } | null;

/**
 * The way out of the in-app browser named by `userAgent`, for `pageUrl`. The address is parsed and
 * checked first (an `http(s)` page, no user-info), and only its own origin is written into a link;
 * its fragment is dropped (an intent's `#Intent;…;end` takes its place).
 */
export function browserWay(pageUrl: string, userAgent: string): BrowserWay {
  const check = checkReturnUrl(pageUrl, pageUrl, []);
  if (!check.ok) return null;
  const page = check.url;
  page.hash = '';
  const url = page.href;
  const platform = storePlatform(userAgent);
  const app = inAppBrowser(userAgent);
  const escape = app && platform !== 'other' ? app[platform] : 'copy';
  const scheme = page.protocol.slice(0, -1);
  switch (escape) {
    case 'intent':
      return { kind: 'link', href: `intent://${page.host}${page.pathname}${page.search}#Intent;scheme=${scheme};end`, url };
    case 'x-safari':
      return { kind: 'link', href: `x-safari-${url}`, url };
    case 'line': {
      const line = new URL(url);
      line.searchParams.set('openExternalBrowser', '1');
      return { kind: 'link', href: line.href, url };
    }
    default:
      return { kind: 'copy', url };
  }
}
