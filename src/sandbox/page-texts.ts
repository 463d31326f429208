/**
 * The words of the sandbox's stand-in pages (the intent service's wallet and web payment pages,
 * eSewa ePay v2's login page, Khalti's pay page), one table per language, and the page's language.
 *
 * Neither provider documents a language parameter for its page (shared spec, providers.md), so the
 * language is the sandbox's own: `?lang=ne` on a page's address, English otherwise. The forms carry
 * it on to the next page; the routes word a refused form's error from the same table (`error.*`). Nepali uses the element's words for the same things
 * (src/element/i18n/ne.ts: भुक्तानी, वालेट, इसेवा, खल्ती, रद्द गर्नुहोस्), one spelling each.
 */

/** The languages the pages are written in. */
export const PAGE_LANGUAGES = ['en', 'ne'] as const;

/** A page's language. */
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** The English words of the pages: every key a page reads. */
const EN = {
  'lang.label': 'Language',
  'lang.name': 'English',
  'page.sandbox': 'Sandbox',
  'page.merchant': 'Merchant',
  'page.scenario': 'Scenario',
  'page.none': 'None',
  'page.cancel': 'Cancel',
  'error.scenario': 'Choose a scenario of the list (or none).',
  'error.mpin': 'Enter an MPIN of 4 to 6 digits.',
  'error.method': 'Choose a payment method: wallet balance or linked bank account.',
  'epay.error-login': 'Wrong eSewa ID, password or token. Use a test ID ({first} to {last}), password {password} and token {token}.',
  'khalti.error-login': 'Wrong Khalti ID, MPIN or OTP. Test IDs {first} to {last}, MPIN {mpin}, OTP {otp}.',
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
  'epay.title': 'eSewa: sign in to pay',
  'epay.transaction': 'Transaction',
  'epay.id': 'eSewa ID',
  'epay.password': 'Password',
  'epay.token': 'Token',
  'epay.pay': 'Pay',
  'epay.fail': 'Fail the payment',
  'epay.hint': "Sandbox test login (eSewa's published UAT values): eSewa ID {ids}; password {password}; token {token}. Fail and Cancel go to the merchant's failure_url.",
  'khalti.title': 'Khalti: pay',
  'khalti.heading': 'Pay with Khalti',
  'khalti.id': 'Khalti ID',
  'khalti.pay': 'Pay',
  'khalti.hint': "Sandbox: Khalti IDs {first} to {last}, MPIN {mpin}, OTP {otp} (Khalti's published test credentials).",
} as const;

/** A key of the pages' words. */
export type PageTextKey = keyof typeof EN;

/** The Nepali words: the same keys as English (a missing or extra key does not type-check). */
const NE: Readonly<Record<PageTextKey, string>> = {
  'lang.label': 'भाषा',
  'lang.name': 'नेपाली',
  'page.sandbox': 'स्यान्डबक्स',
  'page.merchant': 'व्यापारी',
  'page.scenario': 'परिदृश्य',
  'page.none': 'कुनै पनि होइन',
  'page.cancel': 'रद्द गर्नुहोस्',
  'error.scenario': 'सूचीबाट परिदृश्य छान्नुहोस् (वा कुनै पनि होइन)।',
  'error.mpin': '4 देखि 6 अङ्कको MPIN लेख्नुहोस्।',
  'error.method': 'भुक्तानीको माध्यम छान्नुहोस्: वालेटको मौज्दात वा जोडिएको बैंक खाता।',
  'epay.error-login': 'इसेवा आईडी, पासवर्ड वा टोकन मिलेन। परीक्षण आईडी ({first} देखि {last}), पासवर्ड {password} र टोकन {token} प्रयोग गर्नुहोस्।',
  'khalti.error-login': 'खल्ती आईडी, MPIN वा OTP मिलेन। परीक्षण आईडी {first} देखि {last}, MPIN {mpin}, OTP {otp}।',
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
  'epay.title': 'इसेवा: भुक्तानी गर्न साइन इन गर्नुहोस्',
  'epay.transaction': 'कारोबार',
  'epay.id': 'इसेवा आईडी',
  'epay.password': 'पासवर्ड',
  'epay.token': 'टोकन',
  'epay.pay': 'भुक्तानी गर्नुहोस्',
  'epay.fail': 'भुक्तानी असफल गराउनुहोस्',
  'epay.hint': 'स्यान्डबक्सको परीक्षण लगइन (इसेवाले प्रकाशित गरेका UAT मान): इसेवा आईडी {ids}; पासवर्ड {password}; टोकन {token}। असफल र रद्द गर्दा व्यापारीको failure_url मा फर्किन्छ।',
  'khalti.title': 'खल्ती: भुक्तानी',
  'khalti.heading': 'खल्तीबाट भुक्तानी गर्नुहोस्',
  'khalti.id': 'खल्ती आईडी',
  'khalti.pay': 'भुक्तानी गर्नुहोस्',
  'khalti.hint': 'स्यान्डबक्स: खल्ती आईडी {first} देखि {last}, MPIN {mpin}, OTP {otp} (खल्तीले प्रकाशित गरेका परीक्षण विवरण)।',
};

/** The pages' words, by language. */
export const PAGE_TEXTS: Readonly<Record<PageLanguage, Readonly<Record<PageTextKey, string>>>> = { en: EN, ne: NE };

/** The text of `key` in `lang`, each `{name}` replaced by `values[name]` (left as it is when not given). */
export function pageText(lang: PageLanguage, key: PageTextKey, values: Readonly<Record<string, string>> = {}): string {
  return PAGE_TEXTS[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The language a page's address asks for with `?lang=`: Nepali for `ne`, English for anything else or none. */
export function languageOf(url: string | undefined): PageLanguage {
  const query = url?.split('#')[0]?.split('?')[1];
  return query !== undefined && new URLSearchParams(query).get('lang') === 'ne' ? 'ne' : 'en';
}

/** `path` with the page's language carried on (`?lang=ne`); an English page's paths stay as they are. */
export function withLanguage(path: string, lang: PageLanguage): string {
  return lang === 'en' ? path : `${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
}

/**
 * The language switch: a link to the same page in each language, the current one marked. `hrefOf`
 * gives the page's address in a language; `escape` is the pages' HTML escape.
 */
export function languageSwitch(lang: PageLanguage, hrefOf: (lang: PageLanguage) => string, escape: (value: unknown) => string): string {
  const links = PAGE_LANGUAGES.map((other) =>
    other === lang
      ? `<strong lang="${other}" aria-current="page">${escape(PAGE_TEXTS[other]['lang.name'])}</strong>`
      : `<a lang="${other}" hreflang="${other}" href="${escape(hrefOf(other))}">${escape(PAGE_TEXTS[other]['lang.name'])}</a>`,
  );
  return `<nav class="lang" aria-label="${escape(PAGE_TEXTS[lang]['lang.label'])}">${links.join(' · ')}</nav>`;
}
