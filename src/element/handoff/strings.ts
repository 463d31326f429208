/**
 * The hand-off's shopper-facing texts, in English and Nepali. They load with the hand-off module, not
 * with the button: most shoppers never open it (the offer button's own text is in `offer.ts`). Keys
 * start with `handoff.` so a merchant's `strings` object can carry them beside the element's own keys
 * and be passed here unchanged.
 */
import { isNepali } from '../look.js';
import { OFFER_TEXT } from './offer.js';

/** The English hand-off texts. */
export const HANDOFF_STRINGS_EN = {
  'handoff.offer': OFFER_TEXT.en,
  'handoff.label': 'Pay with your phone',
  'handoff.steps': 'Open the wallet app on your phone, scan this code and confirm the payment there. This page follows the payment by itself.',
  'handoff.qr': 'QR code of the payment link: scan it with the wallet app on your phone',
  'handoff.open-here': 'Open on this device',
  'handoff.use-computer': 'Use this computer instead',
  'handoff.cancel': 'Cancel payment',
  'handoff.waiting': 'Waiting for the payment on your phone…',
  'handoff.expired': 'This code has expired.',
  'handoff.new-code': 'Get a new code',
  'handoff.stalled': 'We have not received a final answer about your payment yet. You can check again or cancel the payment.',
  'handoff.check-again': 'Check again',
  'handoff.too-long': 'This payment link is too long to show as a code. Pay on this computer instead, or cancel the payment.',
} as const;

/** A key of the hand-off's texts. */
export type HandoffStringKey = keyof typeof HANDOFF_STRINGS_EN;

/** The hand-off's texts: one per key. */
export type HandoffStrings = Readonly<Record<HandoffStringKey, string>>;

/** The Nepali (`ne`) hand-off texts, in Devanagari: keyed like the English table, so no text can slip to another key. */
export const HANDOFF_STRINGS_NE: HandoffStrings = {
  'handoff.offer': OFFER_TEXT.ne,
  'handoff.label': 'फोनबाट भुक्तानी',
  'handoff.steps': 'फोनमा वालेट एप खोल्नुहोस्, यो कोड स्क्यान गर्नुहोस् र त्यहीँ भुक्तानी पुष्टि गर्नुहोस्। यो पृष्ठले भुक्तानी आफैं हेरिरहन्छ।',
  'handoff.qr': 'भुक्तानी लिङ्कको QR कोड: फोनको वालेट एपले स्क्यान गर्नुहोस्',
  'handoff.open-here': 'यही उपकरणमा खोल्नुहोस्',
  'handoff.use-computer': 'बरु यही कम्प्युटर प्रयोग गर्नुहोस्',
  'handoff.cancel': 'भुक्तानी रद्द गर्नुहोस्',
  'handoff.waiting': 'तपाईंको फोनबाट भुक्तानी हुन पर्खंदैछौं…',
  'handoff.expired': 'यो कोडको म्याद सकियो।',
  'handoff.new-code': 'नयाँ कोड लिनुहोस्',
  'handoff.stalled': 'तपाईंको भुक्तानीबारे अन्तिम जवाफ अझै आएको छैन। फेरि जाँच गर्न वा भुक्तानी रद्द गर्न सक्नुहुन्छ।',
  'handoff.check-again': 'फेरि जाँच गर्नुहोस्',
  'handoff.too-long': 'यो भुक्तानी लिङ्क कोडमा देखाउन धेरै लामो छ। बरु यही कम्प्युटरमा भुक्तानी गर्नुहोस्, वा भुक्तानी रद्द गर्नुहोस्।',
};

/**
 * The hand-off's texts for a BCP 47 language tag, by the element's rule (`ne`, `ne-NP` → Nepali;
 * anything else → English), with the `handoff.*` entries of `overrides` on top. The element's whole
 * `strings` object can be passed: keys that are not the hand-off's are ignored.
 */
export function handoffStringsFor(lang: string | null | undefined, overrides?: Readonly<Record<string, string | undefined>> | null): HandoffStrings {
  const base: HandoffStrings = isNepali(lang) ? HANDOFF_STRINGS_NE : HANDOFF_STRINGS_EN;
  if (!overrides) return base;
  const table = { ...base };
  for (const key of Object.keys(base) as HandoffStringKey[]) {
    const text = overrides[key];
    if (typeof text === 'string') table[key] = text;
  }
  return table;
}
