/**
 * Whether a user agent is a known third-party in-app browser, as one regular expression: the
 * element's first module reads "Pay on the web" there from its first render, before the in-app
 * browsers' table (in-app-browsers.ts), which names the app and comes with the payment code.
 * The union of the table's tokens, written shorter where two share a stem (Messenger's tokens are
 * Facebook's too); test/node/core/in-app-test.test.ts runs every user agent of the table's fixtures
 * through both, so the two cannot drift apart.
 */

const IN_APP = /FB(_IAB|AN|AV)\/|IABMV\/|MetaIAB|\b(Instagram|Barcelona) \d|musical_ly_|trill_|Byte(danceWebview|Locale)\/|ultralite|Snapchat\/?\d|\b(Line|Viber)\/\d|Twitter(Android| for iP)|LinkedInApp|\bLinkedIn\/\d|\[Pinterest\/(Android|iOS)]|MicroMessenger\/|\bWA(4A|iOS)\//;

/** True when `userAgent` carries the token of an app of the in-app browsers' table. */
export const isInAppBrowser = (userAgent: string): boolean => IN_APP.test(userAgent);
