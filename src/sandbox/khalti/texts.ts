/**
 * The words of Khalti's stand-in pay page, in English and Nepali; the sandbox's page-texts.ts joins
 * them with the other providers' into one table per language.
 */

/** The English words. */
export const KHALTI_EN = {
  'khalti.error-login': 'Wrong Khalti ID, MPIN or OTP. Test IDs {first} to {last}, MPIN {mpin}, OTP {otp}.',
  'khalti.title': 'Khalti: pay',
  'khalti.heading': 'Pay with Khalti',
  'khalti.id': 'Khalti ID',
  'khalti.pay': 'Pay',
  'khalti.hint': "Sandbox: Khalti IDs {first} to {last}, MPIN {mpin}, OTP {otp} (Khalti's published test credentials).",
} as const;

/** The Nepali words: the same keys as English (a missing or extra key does not type-check). */
export const KHALTI_NE: Readonly<Record<keyof typeof KHALTI_EN, string>> = {
  'khalti.error-login': 'खल्ती आईडी, MPIN वा OTP मिलेन। परीक्षण आईडी {first} देखि {last}, MPIN {mpin}, OTP {otp}।',
  'khalti.title': 'खल्ती: भुक्तानी',
  'khalti.heading': 'खल्तीबाट भुक्तानी गर्नुहोस्',
  'khalti.id': 'खल्ती आईडी',
  'khalti.pay': 'भुक्तानी गर्नुहोस्',
  'khalti.hint': 'स्यान्डबक्स: खल्ती आईडी {first} देखि {last}, MPIN {mpin}, OTP {otp} (खल्तीले प्रकाशित गरेका परीक्षण विवरण)।',
};
