/**
 * Known third-party in-app browsers, as data: the browser a social or chat app opens a link in. None
 * of them hands a payment to anyone (they are not the spec's "WebView container handled separately"),
 * and a script-made navigation to an app link there only loads the link's web page. The element
 * shows its in-app actions instead (strategies.ts, `inapp`).
 *
 * Matched by the apps' own tokens, never by `wv`: Meta's own WebView and TikTok send Android user
 * agents without it, and new iOS ones end in `Safari/604.1` like Safari's. The order matters where
 * tokens overlap: Messenger, Instagram and Threads carry Facebook's `FBAV/` or `IABMV/1` too.
 * Sources of each token and of what works in each app: docs/webview.md.
 */

/** How the page can be opened in the phone's own browser from an in-app browser. */
export type BrowserEscape =
  /** Android: `intent://HOST/PATH#Intent;scheme=https;end` hands the page to the default browser. */
  | 'intent'
  /** iOS: `x-safari-https://HOST/PATH` opens the page in Safari. */
  | 'x-safari'
  /** LINE: the page's own address with `openExternalBrowser=1` in its query. */
  | 'line'
  /** Nothing known to work: the shopper copies the page's address. */
  | 'copy';

/** One app whose in-app browser the element recognises. */
export interface InAppBrowser {
  /** A stable name for events and logs. */
  id: string;
  /** The tokens of the app's user agents (case-sensitive, as the apps write them). */
  token: RegExp;
  /** The way out on Android. */
  android: BrowserEscape;
  /** The way out on iOS. */
  ios: BrowserEscape;
}

/**
 * The table, first match wins. `android`/`ios` follow field reports: the `intent:` form opened the
 * browser from Facebook, Messenger, Instagram, Threads and LINE; `x-safari-https:` worked in Facebook,
 * Messenger, TikTok, LINE and LinkedIn but stopped in Instagram 424; X accepts no browser scheme;
 * Snapchat, X and LinkedIn open links in Chrome Custom Tabs on Android, whose own menu opens Chrome.
 */
export const IN_APP_BROWSERS: readonly InAppBrowser[] = [
  { id: 'messenger', token: /FB_IAB\/MESSENGER|FB_IAB\/Orca-Android|FBAN\/MessengerForiOS/, android: 'intent', ios: 'x-safari' },
  { id: 'instagram', token: /\bInstagram \d/, android: 'intent', ios: 'copy' },
  { id: 'threads', token: /\bBarcelona \d/, android: 'intent', ios: 'copy' },
  { id: 'facebook', token: /FB_IAB\/|FBAN\/|FBAV\/|IABMV\/|MetaIAB/, android: 'intent', ios: 'x-safari' },
  { id: 'tiktok', token: /musical_ly_|trill_|BytedanceWebview\/|ByteLocale\/|ultralite/, android: 'copy', ios: 'x-safari' },
  { id: 'snapchat', token: /Snapchat\/?\d/, android: 'copy', ios: 'copy' },
  { id: 'line', token: /\bLine\/\d/, android: 'line', ios: 'line' },
  { id: 'x', token: /TwitterAndroid|Twitter for iP/, android: 'copy', ios: 'copy' },
  { id: 'linkedin', token: /LinkedInApp|\bLinkedIn\/\d/, android: 'copy', ios: 'x-safari' },
  { id: 'pinterest', token: /\[Pinterest\/(Android|iOS)\]/, android: 'copy', ios: 'copy' },
  { id: 'wechat', token: /MicroMessenger\//, android: 'copy', ios: 'copy' },
  { id: 'viber', token: /\bViber\/\d/, android: 'copy', ios: 'copy' },
  { id: 'whatsapp', token: /\bWA4A\/|\bWAiOS\//, android: 'copy', ios: 'copy' },
];

/** The in-app browser a user agent names, or `null`. */
export function inAppBrowser(userAgent: string): InAppBrowser | null {
  return IN_APP_BROWSERS.find((entry) => entry.token.test(userAgent)) ?? null;
}
