/**
 * The words of eSewa ePay v2's stand-in login page, in English and Nepali; the sandbox's
 * page-texts.ts joins them with the other providers' into one table per language.
 */

/** The English words. */
export const EPAY_EN = {
  'epay.error-login': 'Wrong eSewa ID, password or token. Use a test ID ({first} to {last}), password {password} and token {token}.',
  'epay.title': 'eSewa: sign in to pay',
  'epay.transaction': 'Transaction',
  'epay.id': 'eSewa ID',
  'epay.password': 'Password',
  'epay.token': 'Token',
  'epay.pay': 'Pay',
  'epay.fail': 'Fail the payment',
  'epay.hint': "Sandbox test login (eSewa's published UAT values): eSewa ID {ids}; password {password}; token {token}. Fail and Cancel go to the merchant's failure_url.",
} as const;

/** The Nepali words: the same keys as English (a missing or extra key does not type-check). */
export const EPAY_NE: Readonly<Record<keyof typeof EPAY_EN, string>> = {
  'epay.error-login': 'इसेवा आईडी, पासवर्ड वा टोकन मिलेन। परीक्षण आईडी ({first} देखि {last}), पासवर्ड {password} र टोकन {token} प्रयोग गर्नुहोस्।',
  'epay.title': 'इसेवा: भुक्तानी गर्न साइन इन गर्नुहोस्',
  'epay.transaction': 'कारोबार',
  'epay.id': 'इसेवा आईडी',
  'epay.password': 'पासवर्ड',
  'epay.token': 'टोकन',
  'epay.pay': 'भुक्तानी गर्नुहोस्',
  'epay.fail': 'भुक्तानी असफल गराउनुहोस्',
  'epay.hint': 'स्यान्डबक्सको परीक्षण लगइन (इसेवाले प्रकाशित गरेका UAT मान): इसेवा आईडी {ids}; पासवर्ड {password}; टोकन {token}। असफल र रद्द गर्दा व्यापारीको failure_url मा फर्किन्छ।',
};
