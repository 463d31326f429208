/**
 * The Nepali texts beyond the button's labels: a module of their own, loaded only when an element's
 * language is Nepali, so English pages never download them.
 */
import type { TextKey } from '../en/messages.js';

/** Nepali (`ne`), in Devanagari: keyed like the English texts, so no text can be missing or slip to another key. */
export const TEXTS_NE: Readonly<Record<TextKey, string>> = {
  'status.booking': 'तपाईंको भुक्तानी तयार हुँदैछ…',
  'status.redirecting': 'तपाईंलाई भुक्तानी पृष्ठमा लैजाँदैछौं…',
  'status.opening-app': 'वालेट एप खोल्दैछौं…',
  'status.app-fallback': 'वालेट एप खुलेन? कसरी अघि बढ्ने, छान्नुहोस्।',
  'status.verifying': 'तपाईंको भुक्तानी जाँच गर्दैछौं…',
  'status.pending': 'भुक्तानी पुष्टि हुन पर्खंदैछौं…',
  'status.stalled': 'तपाईंको भुक्तानीबारे अन्तिम जवाफ अझै आएको छैन। फेरि जाँच गर्न वा भुक्तानी रद्द गर्न सक्नुहुन्छ।',
  'status.cancelling': 'तपाईंको भुक्तानी रद्द गर्दैछौं…',
  'status.reconnecting': 'पसलको सर्भरले अहिले जवाफ दिइरहेको छैन। तपाईंको भुक्तानी अझै पर्खंदैछौं: फेरि जोडिँदैछौं…',
  'status.reconnecting-offline': 'तपाईं अफलाइन हुनुहुन्छ। तपाईंको भुक्तानी अझै पर्खंदैछौं: इन्टरनेट फर्केपछि जारी रहन्छ…',
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
  'action.start-again': 'फेरि सुरु गर्नुहोस्',
  'panel.label': 'भुक्तानीका अन्य तरिका',
  'error.timeout': 'भुक्तानी सेवाले जवाफ दिन धेरै समय लियो। कृपया फेरि प्रयास गर्नुहोस्।',
  'error.http': 'अहिले भुक्तानी सुरु गर्न सकिएन। कृपया फेरि प्रयास गर्नुहोस्।',
  'error.rejected': 'पसलले यो भुक्तानी सुरु गर्न सकेन। फेरि प्रयास गर्नुहोस् वा पसललाई सम्पर्क गर्नुहोस्।',
  'error.invalid-json': 'भुक्तानी सेवाको जवाफ पढ्न सकिएन। कृपया फेरि प्रयास गर्नुहोस्।',
  'error.invalid-response': 'भुक्तानी सेवाको जवाफ अधुरो छ। कृपया फेरि प्रयास गर्नुहोस्।',
  'error.url-refused': 'तपाईंको सुरक्षाका लागि भुक्तानी ठेगाना अस्वीकार गरियो, त्यसैले भुक्तानी रद्द गरियो। कुनै रकम काटिएको छैन।',
  'error.return-url-refused': 'तपाईंलाई पसलमा फर्काउन सकिएन: तपाईंको सुरक्षाका लागि पसलको ठेगाना अस्वीकार गरियो।',
  'error.framed': 'यो भुक्तानी बटन अर्को वेबसाइटभित्र प्रयोग गर्न मिल्दैन। पसललाई छुट्टै ट्याबमा खोल्नुहोस्।',
  'error.config': 'यो भुक्तानी बटन ठीकसँग मिलाइएको छैन। कृपया पसललाई सम्पर्क गर्नुहोस्।',
  'error.merchant-setup': 'पसलले अहिले यो भुक्तानी लिन सक्दैन। कृपया पसललाई सम्पर्क गर्नुहोस्।',
  'error.booking-unconfirmed': 'पसलले यो भुक्तानी अझै फेला पार्न सकेन। फेरि भुक्तानी गर्नुअघि फेरि जाँच गर्नुहोस्: तपाईंले भुक्तानी गर्नुभएको भए पुष्टि हुनेछ।',
  'error.booking-lost': 'पसलले यो भुक्तानी फेला पार्न सकेन। तपाईंले भुक्तानी गर्नुभएको भए पसलले पुष्टि गर्नेछ। तपाईं फेरि सुरु गर्न सक्नुहुन्छ।',
};
