/**
 * The English texts of the phone hand-off's panel: they load with the hand-off's module, not with the
 * button, as most shoppers never open it. Keys start with `handoff.` so a merchant's `strings` object
 * can carry them beside the element's own keys. The offer button's text (`handoff.offer`) shows before
 * the hand-off loads: it is the first module's (`labels.ts`).
 */
/** The English hand-off texts. */
export const HANDOFF_STRINGS_EN = {
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
