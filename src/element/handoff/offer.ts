/**
 * The offer button's text ("Pay with the app on your phone", part `pay-on-phone`), per language: the
 * one hand-off text the button needs before the hand-off module loads. A module of its own, so the
 * element's first module can import these two strings statically and nothing else of the hand-off.
 */
export const OFFER_TEXT = {
  en: 'Pay with the app on your phone',
  ne: 'फोनको एपबाट भुक्तानी गर्नुहोस्',
} as const;
