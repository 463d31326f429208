/**
 * The Nepali (`ne`) texts of the element's first module, in Devanagari: loaded with the English ones,
 * so a Nepali page never shows an English label while its other texts load.
 */
import type { LabelKey } from '../en/labels.js';

/** Keyed like the English texts, so no text can be missing or slip to another key. */
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
  'handoff.offer': 'फोनको एपबाट भुक्तानी गर्नुहोस्',
};
