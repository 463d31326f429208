/**
 * The words of the sandbox's stand-in pages (the intent service's wallet and web payment pages,
 * eSewa ePay v2's login page, Khalti's pay page), one table per language, and the page's language.
 *
 * Neither provider documents a language parameter for its page (shared spec, providers.md), so the
 * language is the sandbox's own: `?lang=ne` on a page's address, English otherwise. The forms carry
 * it on to the next page; the routes word a refused form's error from the same table (`error.*`). Nepali uses the element's words for the same things
 * (src/element/i18n/ne.ts: भुक्तानी, वालेट, इसेवा, खल्ती, रद्द गर्नुहोस्), one spelling each.
 */
import { EPAY_EN, EPAY_NE } from './epay/texts.js';
import { INTENT_EN, INTENT_NE } from './esewa-intent/texts.js';
import { KHALTI_EN, KHALTI_NE } from './khalti/texts.js';

/** The languages the pages are written in. */
export const PAGE_LANGUAGES = ['en', 'ne'] as const;

/** A page's language. */
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** The English words of the pages: every key a page reads (each provider's own from its folder's texts.ts). */
const EN = {
  'lang.label': 'Language',
  'lang.name': 'English',
  'page.sandbox': 'Sandbox',
  'page.merchant': 'Merchant',
  'page.scenario': 'Scenario',
  'page.none': 'None',
  'page.cancel': 'Cancel',
  'error.scenario': 'Choose a scenario of the list (or none).',
  ...INTENT_EN,
  ...EPAY_EN,
  ...KHALTI_EN,
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
  ...INTENT_NE,
  ...EPAY_NE,
  ...KHALTI_NE,
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
