/**
 * The spec's client-side environment rule, as a pure function: no DOM, so it runs in Node,
 * in workers and in tests with any inputs. Apart from the settings' helpers and the in-app browsers'
 * table (environment.ts) so the element's first module, which needs the rule alone (the phone offer
 * shows on desktops), carries nothing else.
 */

/**
 * The payment path a shopper's environment calls for: the spec's three, and `inapp`, a known
 * third-party in-app browser (Facebook's, TikTok's, ...), which no host app takes the payment from.
 */
export type Environment = 'desktop' | 'mobile' | 'webview' | 'inapp';

/** What the element can force; `auto` applies the spec's rule. */
export type EnvironmentSetting = Environment | 'auto';

/** The browser signals the rule reads. */
export interface EnvironmentSignals {
  /** `navigator.userAgent`. */
  userAgent: string;
  /** `navigator.maxTouchPoints`. */
  maxTouchPoints: number;
  /** `window.innerWidth`, in CSS pixels. */
  innerWidth: number;
}

/** Widest viewport, in CSS pixels, that still counts as a mobile browser (inclusive). */
export const MOBILE_MAX_WIDTH = 768;

// The spec writes "the service" for Android (see the reading notes); every token is case-insensitive.
const MOBILE_UA = /android|iphone|ipad|ipod|mobile/i;
// Android WebViews carry "; wv)"; the spec matches the bare substring, and so do we.
const WEBVIEW_UA = /wv|flutter/i;

/**
 * Chooses the payment path from the shopper's environment; `inApp` tells a known in-app browser by
 * its user agent (environment.ts's `detectEnvironment` passes the table's).
 *
 * A known in-app browser on a phone or tablet first, by its app's token (many carry `wv` too, and
 * some no longer do); then WebView (a WebView user agent also carries Android and Mobile); then a mobile browser,
 * only when the user agent matches a mobile token AND there is a touch point AND the viewport is at
 * most 768 px wide; anything else is a desktop browser.
 */
export function pathOf(signals: EnvironmentSignals, inApp: (userAgent: string) => unknown): Environment {
  const { userAgent, maxTouchPoints, innerWidth } = signals;
  const mobileToken = MOBILE_UA.test(userAgent);
  if (mobileToken && inApp(userAgent)) return 'inapp';
  if (WEBVIEW_UA.test(userAgent)) return 'webview';
  if (mobileToken && maxTouchPoints > 0 && innerWidth <= MOBILE_MAX_WIDTH) {
    return 'mobile';
  }
  return 'desktop';
}

/** True when a string names an environment setting. */
export function isEnvironmentSetting(value: unknown): value is EnvironmentSetting {
  return value === 'auto' || value === 'desktop' || value === 'mobile' || value === 'webview' || value === 'inapp';
}
