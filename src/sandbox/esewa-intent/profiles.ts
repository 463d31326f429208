/**
 * Profiles: how far the sandbox departs from the spec to behave like a real test service. `spec`
 * (the default) is the spec as the project reads it; `esewa-uat` follows what public merchant
 * clients and fetches show of the provider's test service (each behaviour's source is in
 * docs/sandbox.md).
 */
import type { RequestRules } from './request.js';

/** The profiles' names. */
export type ProfileName = 'spec' | 'esewa-uat';

/** What a profile changes. */
export interface Profile {
  name: ProfileName;
  rules: RequestRules;
  /** The product code known when none is given. */
  productCode?: string;
  /** The links host is a redirector that answers by user agent; the wallet page moves to `/app/{id}`. */
  linksRedirector: boolean;
}

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  spec: { name: 'spec', rules: {}, linksRedirector: false },
  'esewa-uat': {
    name: 'esewa-uat',
    rules: { stringAmounts: true, appSchemeRedirects: true },
    productCode: 'INTENT',
    linksRedirector: true,
  },
};

/** Where the test service's links host sends a user agent that is not a phone's (its marketing site). */
export const MARKETING_URL = 'https://esewa.com.np/';
/** The wallet app's Android package, as the `intent://` form names it. */
export const WALLET_PACKAGE = 'com.f1soft.esewa';

/**
 * The redirector's answer for one user agent: Android gets the `intent://` form that opens the
 * wallet app (`scheme=esewa`), anything else the marketing site. Following the link changes nothing.
 */
export function redirectorLocation(bookingId: string, userAgent: string): string {
  if (!/android/i.test(userAgent)) return MARKETING_URL;
  const slug = encodeURIComponent(bookingId);
  return `intent://d/${slug}?referralId=${slug}#Intent;scheme=esewa;package=${WALLET_PACKAGE};end`;
}
