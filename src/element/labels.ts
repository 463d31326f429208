/**
 * The texts of the element's first module: the button's labels, and the words for payment code that
 * could not be loaded (offline, a dropped connection, a missing file, a load only a reload can repeat), which must not
 * depend on that code. Both languages are here so a Nepali page never shows an English label while
 * its other texts load.
 */
export const LABELS_EN = {
  'button.pay': 'Pay with wallet',
  'button.checkout': 'Check out with wallet',
  'button.buy': 'Buy with wallet',
  'button.donate': 'Donate with wallet',
  'action.retry': 'Try again',
  'error.network': 'We could not reach the payment service. Check your connection and try again.',
  'error.offline': 'You are offline. Connect to the internet and try again.',
  'error.missing': 'This payment button is not set up completely. Please contact the shop.',
  'error.reload': 'Reload the page to continue with your payment.',
  'action.reload': 'Reload the page',
} as const;

/** A key of the first module's texts. */
export type LabelKey = keyof typeof LABELS_EN;

/** The first module's texts in Nepali (`ne`), in Devanagari. */
export const LABELS_NE: Readonly<Record<LabelKey, string>> = {
  'button.pay': 'वालेटबाट भुक्तानी गर्नुहोस्',
  'button.checkout': 'वालेटबाट चेकआउट गर्नुहोस्',
  'button.buy': 'वालेटबाट किन्नुहोस्',
  'button.donate': 'वालेटबाट दान गर्नुहोस्',
  'action.retry': 'फेरि प्रयास गर्नुहोस्',
  'error.network': 'भुक्तानी सेवासम्म पुग्न सकिएन। इन्टरनेट जडान जाँचेर फेरि प्रयास गर्नुहोस्।',
  'error.offline': 'तपाईं अफलाइन हुनुहुन्छ। इन्टरनेटमा जोडिएर फेरि प्रयास गर्नुहोस्।',
  'error.missing': 'यो भुक्तानी बटन पूरा मिलाइएको छैन। कृपया पसललाई सम्पर्क गर्नुहोस्।',
  'error.reload': 'भुक्तानी जारी राख्न पृष्ठ फेरि लोड गर्नुहोस्।',
  'action.reload': 'पृष्ठ फेरि लोड गर्नुहोस्',
};
