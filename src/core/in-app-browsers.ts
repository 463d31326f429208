/**
 * Known third-party in-app browsers, as data: the browser a social or chat app opens a link in. None
 * of them hands a payment to anyone (they are not the spec's "WebView container handled separately"),
 * and a script-made navigation to an app link there only loads the link's web page. The element
 * reads "Pay on the web" there and pays on the web page at once (strategies.ts, `inapp`).
 *
 * Matched by the apps' own tokens, never by `wv`: Meta's own WebView and TikTok send Android user
 * agents without it, and new iOS ones end in `Safari/604.1` like Safari's. The order matters where
 * tokens overlap: Messenger, Instagram and Threads carry Facebook's `FBAV/` or `IABMV/1` too.
 * Sources of each token and of what works in each app: docs/webview.md.
 */

/** One app whose in-app browser the element recognises. */
interface InAppBrowser {
  /** A stable name for events and logs; `BROWSER_ESCAPES` (open-in-browser.ts) gives its way out, by this name. */
  id: InAppId;
  /** The tokens of the app's user agents (case-sensitive, as the apps write them). */
  token: RegExp;
}

/** The apps of the table, by name. */
export type InAppId = 'messenger' | 'instagram' | 'threads' | 'facebook' | 'tiktok' | 'snapchat' | 'line' | 'x' | 'linkedin' | 'pinterest' | 'wechat' | 'viber' | 'whatsapp';

/**
 * The table, first match wins. What works in each app (its way out to the phone's browser) lives
 * beside the code that uses it, `BROWSER_ESCAPES` in open-in-browser.ts: the first module, which
 * detects the environment, carries the tokens alone.
 */
export const IN_APP_BROWSERS: readonly InAppBrowser[] = [
  { id: 'messenger', token: /FB_IAB\/MESSENGER|FB_IAB\/Orca-Android|FBAN\/MessengerForiOS/ },
  { id: 'instagram', token: /\bInstagram \d/ },
  { id: 'threads', token: /\bBarcelona \d/ },
  { id: 'facebook', token: /FB_IAB\/|FBAN\/|FBAV\/|IABMV\/|MetaIAB/ },
  { id: 'tiktok', token: /musical_ly_|trill_|BytedanceWebview\/|ByteLocale\/|ultralite/ },
  { id: 'snapchat', token: /Snapchat\/?\d/ },
  { id: 'line', token: /\bLine\/\d/ },
  { id: 'x', token: /TwitterAndroid|Twitter for iP/ },
  { id: 'linkedin', token: /LinkedInApp|\bLinkedIn\/\d/ },
  { id: 'pinterest', token: /\[Pinterest\/(Android|iOS)\]/ },
  { id: 'wechat', token: /MicroMessenger\// },
  { id: 'viber', token: /\bViber\/\d/ },
  { id: 'whatsapp', token: /\bWA4A\/|\bWAiOS\// },
];

/** The in-app browser a user agent names, or `null`. */
export function inAppBrowser(userAgent: string): InAppBrowser | null {
  return IN_APP_BROWSERS.find((entry) => entry.token.test(userAgent)) ?? null;
}
