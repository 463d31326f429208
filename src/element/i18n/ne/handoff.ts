/** The Nepali (`ne`) texts of the phone hand-off, in Devanagari: they load with the hand-off's module. */
import type { HandoffStrings } from '../en/handoff.js';

/** Keyed like the English table, so no text can be missing or slip to another key. */
export const HANDOFF_STRINGS_NE: HandoffStrings = {
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
