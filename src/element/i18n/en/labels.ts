/**
 * The English texts of the element's first module: the button's labels, the offer to pay on the
 * phone, and the words for payment code that could not be loaded (offline, a dropped connection, a
 * missing file, a load only a reload can repeat), which must not depend on that code. The Nepali ones
 * (`ne/labels.ts`) load with them, so a Nepali page never shows an English label while its other
 * texts load.
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
  // The one hand-off text the button shows before the hand-off's texts load (part `pay-on-phone`).
  'handoff.offer': 'Pay with the app on your phone',
} as const;

/** A key of the first module's texts. */
export type LabelKey = keyof typeof LABELS_EN;
