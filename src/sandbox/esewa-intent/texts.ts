/**
 * The words of the intent service's stand-in pages (the wallet page and the web payment page), in
 * English and Nepali; the sandbox's page-texts.ts joins them with the other providers' into one table
 * per language.
 */

/** The English words. */
export const INTENT_EN = {
  'error.mpin': 'Enter an MPIN of 4 to 6 digits.',
  'error.method': 'Choose a payment method: wallet balance or linked bank account.',
  'intent.title-wallet': 'Wallet: confirm payment',
  'intent.title-web': 'Web payment: confirm payment',
  'intent.booking': 'Booking',
  'intent.reference': 'Reference',
  'intent.pay-with': 'Pay with',
  'intent.method-wallet_balance': 'Wallet balance',
  'intent.method-bank_account': 'Linked bank account (direct debit)',
  'intent.hint': 'Sandbox: a scenario decides the outcome; without one, MPIN {mpin} fails the payment and any other 4 to 6 digits succeed.',
  'intent.confirm': 'Confirm payment',
  'intent.closed': 'Payment closed',
  'intent.expired': 'This booking expired before it was paid.',
  'intent.processed': 'This booking is already {status} (since {since} UTC).',
  'intent.return': 'Return to the merchant',
  'property.merchant_order': 'Order',
  'property.sandbox_scenario': 'Sandbox scenario',
  'property.sandbox_outcome': 'Sandbox outcome',
  'property.sandbox_callback': 'Sandbox callback',
} as const;

/** The Nepali words: the same keys as English (a missing or extra key does not type-check). */
export const INTENT_NE: Readonly<Record<keyof typeof INTENT_EN, string>> = {
  'error.mpin': '4 देखि 6 अङ्कको MPIN लेख्नुहोस्।',
  'error.method': 'भुक्तानीको माध्यम छान्नुहोस्: वालेटको मौज्दात वा जोडिएको बैंक खाता।',
  'intent.title-wallet': 'वालेट: भुक्तानी पुष्टि गर्नुहोस्',
  'intent.title-web': 'वेब भुक्तानी: भुक्तानी पुष्टि गर्नुहोस्',
  'intent.booking': 'बुकिङ',
  'intent.reference': 'सन्दर्भ',
  'intent.pay-with': 'भुक्तानीको माध्यम',
  'intent.method-wallet_balance': 'वालेटको मौज्दात',
  'intent.method-bank_account': 'जोडिएको बैंक खाता (सिधै डेबिट)',
  'intent.hint': 'स्यान्डबक्स: परिदृश्यले नतिजा तय गर्छ; परिदृश्य नछानेमा MPIN {mpin} ले भुक्तानी असफल गर्छ र अरू कुनै पनि 4 देखि 6 अङ्कले भुक्तानी सफल हुन्छ।',
  'intent.confirm': 'भुक्तानी पुष्टि गर्नुहोस्',
  'intent.closed': 'भुक्तानी बन्द भयो',
  'intent.expired': 'भुक्तानी हुनुअघि नै यो बुकिङको म्याद सकियो।',
  'intent.processed': 'यो बुकिङको स्थिति {status} हो ({since} UTC देखि)।',
  'intent.return': 'पसलमा फर्कनुहोस्',
  'property.merchant_order': 'अर्डर',
  'property.sandbox_scenario': 'स्यान्डबक्स परिदृश्य',
  'property.sandbox_outcome': 'स्यान्डबक्स नतिजा',
  'property.sandbox_callback': 'स्यान्डबक्स कलब्याक',
};
