/**
 * Every shopper-facing string, keyed, in one table per language. English and Nepali are built in; a
 * merchant replaces any text through the element's `strings` property. Developer-facing messages (the
 * error event's `message`) stay in English and are not here.
 */
export const STRINGS_EN = {
  'button.pay': 'Pay with wallet',
  'button.checkout': 'Check out with wallet',
  'button.buy': 'Buy with wallet',
  'button.donate': 'Donate with wallet',
  'status.booking': 'Preparing your payment…',
  'status.redirecting': 'Taking you to the payment page…',
  'status.opening-app': 'Opening the wallet app…',
  'status.app-fallback': 'Did the wallet app not open? Choose how to continue.',
  'status.verifying': 'Checking your payment…',
  'status.pending': 'Waiting for the payment to be confirmed…',
  'status.stalled': 'We have not received a final answer about your payment yet. You can check again or cancel the payment.',
  'status.cancelling': 'Cancelling your payment…',
  'status.success': 'Payment complete.',
  'status.failure': 'The payment did not go through.',
  'status.cancelled': 'Payment cancelled.',
  'status.webview': 'Continue the payment in the app.',
  'status.paid': 'This order is already paid.',
  'action.see-order': 'See your order',
  'action.open-app': 'Open the wallet app',
  'action.get-app': 'Get the wallet app',
  'action.pay-on-web': 'Pay on the web instead',
  'action.cancel': 'Cancel payment',
  'action.continue-web': 'Continue to the payment page',
  'action.check-again': 'Check again',
  'action.retry': 'Try again',
  'action.start-again': 'Start again',
  'panel.label': 'Other ways to pay',
  'error.timeout': 'The payment service took too long to answer. Please try again.',
  'error.network': 'We could not reach the payment service. Check your connection and try again.',
  'error.offline': 'You are offline. Connect to the internet and try again.',
  'error.http': 'The payment could not be started right now. Please try again.',
  'error.rejected': 'The shop could not start this payment. Please try again or contact the shop.',
  'error.invalid-json': 'The payment service sent an answer we could not read. Please try again.',
  'error.invalid-response': 'The payment service sent an incomplete answer. Please try again.',
  'error.url-refused': 'The payment address was refused for your safety. No payment was made.',
  'error.return-url-refused': 'We could not take you back to the shop: its address was refused for your safety.',
  'error.framed': 'This payment button cannot be used inside another website. Open the shop in its own tab.',
  'error.config': 'This payment button is not set up correctly. Please contact the shop.',
  'error.merchant-setup': 'The shop cannot take this payment right now. Please contact the shop.',
  'error.booking-lost': 'The shop cannot find this payment. If you paid, the shop will confirm it. You can start again.',
} as const;

/** A key of the string table. */
export type StringKey = keyof typeof STRINGS_EN;

/** A string table: one text per key. */
export type StringTable = Readonly<Record<StringKey, string>>;

/** Nepali (`ne`), in Devanagari: keyed like the English table, so no text can slip to another key. */
export const STRINGS_NE: StringTable = {
  'button.pay': 'वालेटबाट भुक्तानी गर्नुहोस्',
  'button.checkout': 'वालेटबाट चेकआउट गर्नुहोस्',
  'button.buy': 'वालेटबाट किन्नुहोस्',
  'button.donate': 'वालेटबाट दान गर्नुहोस्',
  'status.booking': 'तपाईंको भुक्तानी तयार हुँदैछ…',
  'status.redirecting': 'तपाईंलाई भुक्तानी पृष्ठमा लैजाँदैछौं…',
  'status.opening-app': 'वालेट एप खोल्दैछौं…',
  'status.app-fallback': 'वालेट एप खुलेन? कसरी अघि बढ्ने, छान्नुहोस्।',
  'status.verifying': 'तपाईंको भुक्तानी जाँच गर्दैछौं…',
  'status.pending': 'भुक्तानी पुष्टि हुन पर्खंदैछौं…',
  'status.stalled': 'तपाईंको भुक्तानीबारे अन्तिम जवाफ अझै आएको छैन। फेरि जाँच गर्न वा भुक्तानी रद्द गर्न सक्नुहुन्छ।',
  'status.cancelling': 'तपाईंको भुक्तानी रद्द गर्दैछौं…',
  'status.success': 'भुक्तानी सम्पन्न भयो।',
  'status.failure': 'भुक्तानी सफल भएन।',
  'status.cancelled': 'भुक्तानी रद्द गरियो।',
  'status.webview': 'एपमै भुक्तानी जारी राख्नुहोस्।',
  'status.paid': 'यो अर्डरको भुक्तानी भइसकेको छ।',
  'action.see-order': 'आफ्नो अर्डर हेर्नुहोस्',
  'action.open-app': 'वालेट एप खोल्नुहोस्',
  'action.get-app': 'वालेट एप डाउनलोड गर्नुहोस्',
  'action.pay-on-web': 'बरु वेबमै भुक्तानी गर्नुहोस्',
  'action.cancel': 'भुक्तानी रद्द गर्नुहोस्',
  'action.continue-web': 'भुक्तानी पृष्ठमा जारी राख्नुहोस्',
  'action.check-again': 'फेरि जाँच गर्नुहोस्',
  'action.retry': 'फेरि प्रयास गर्नुहोस्',
  'action.start-again': 'फेरि सुरु गर्नुहोस्',
  'panel.label': 'भुक्तानीका अन्य तरिका',
  'error.timeout': 'भुक्तानी सेवाले जवाफ दिन धेरै समय लियो। कृपया फेरि प्रयास गर्नुहोस्।',
  'error.network': 'भुक्तानी सेवासम्म पुग्न सकिएन। इन्टरनेट जडान जाँचेर फेरि प्रयास गर्नुहोस्।',
  'error.offline': 'तपाईं अफलाइन हुनुहुन्छ। इन्टरनेटमा जोडिएर फेरि प्रयास गर्नुहोस्।',
  'error.http': 'अहिले भुक्तानी सुरु गर्न सकिएन। कृपया फेरि प्रयास गर्नुहोस्।',
  'error.rejected': 'पसलले यो भुक्तानी सुरु गर्न सकेन। फेरि प्रयास गर्नुहोस् वा पसललाई सम्पर्क गर्नुहोस्।',
  'error.invalid-json': 'भुक्तानी सेवाको जवाफ पढ्न सकिएन। कृपया फेरि प्रयास गर्नुहोस्।',
  'error.invalid-response': 'भुक्तानी सेवाको जवाफ अधुरो छ। कृपया फेरि प्रयास गर्नुहोस्।',
  'error.url-refused': 'तपाईंको सुरक्षाका लागि भुक्तानी ठेगाना अस्वीकार गरियो। कुनै भुक्तानी भएको छैन।',
  'error.return-url-refused': 'तपाईंलाई पसलमा फर्काउन सकिएन: तपाईंको सुरक्षाका लागि पसलको ठेगाना अस्वीकार गरियो।',
  'error.framed': 'यो भुक्तानी बटन अर्को वेबसाइटभित्र प्रयोग गर्न मिल्दैन। पसललाई छुट्टै ट्याबमा खोल्नुहोस्।',
  'error.config': 'यो भुक्तानी बटन ठीकसँग मिलाइएको छैन। कृपया पसललाई सम्पर्क गर्नुहोस्।',
  'error.merchant-setup': 'पसलले अहिले यो भुक्तानी लिन सक्दैन। कृपया पसललाई सम्पर्क गर्नुहोस्।',
  'error.booking-lost': 'पसलले यो भुक्तानी फेला पार्न सकेन। तपाईंले भुक्तानी गर्नुभएको भए पसलले पुष्टि गर्नेछ। तपाईं फेरि सुरु गर्न सक्नुहुन्छ।',
};

/**
 * The table for a BCP 47 language tag (`ne`, `ne-NP` → Nepali; anything else, or none → English),
 * with the merchant's `overrides` on top.
 */
export function stringsFor(lang: string | null | undefined, overrides?: Partial<StringTable> | null): StringTable {
  const base = /^ne\b/i.test(lang ?? '') ? STRINGS_NE : STRINGS_EN;
  return overrides ? { ...base, ...overrides } : base;
}
