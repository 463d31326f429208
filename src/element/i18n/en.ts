/**
 * Every English text of the element, keyed: the table a translator reads and edits. Each section is
 * the texts of one bundle, so each bundle carries only its own: `npm run texts` (scripts/texts.ts)
 * writes a section to the module that bundle imports (`en/labels.ts`, `en/texts.ts`, `en/handoff.ts`,
 * marked as generated), and a test fails when one differs from this table. The element never imports
 * this module: one module cannot be split across chunks, and all texts in the first module would
 * outgrow its budget. Developer-facing messages (the error event's `message`) stay in English and are
 * not here.
 */
export const EN = {
  /**
   * The element's first module (the button's first paint, also server-side rendering): the button's
   * labels, the offer to pay on the phone, and the words for payment code that could not be loaded
   * (offline, a dropped connection, a missing file, a load only a reload can repeat), which must not
   * depend on that code. Nepali's labels load with them, so a Nepali page never shows an English
   * label; its words for a failed load (`AFTER_FAILED_LOAD`) come with its own chunk.
   */
  labels: {
    'button.pay': 'Pay with wallet',
    'button.checkout': 'Check out with wallet',
    'button.buy': 'Buy with wallet',
    'button.donate': 'Donate with wallet',
    // One button per wallet where the shop offers several (the `wallets` attribute): the wallet by name.
    'wallet.esewa': 'Pay with eSewa',
    'wallet.khalti': 'Pay with Khalti',
    'action.retry': 'Try again',
    'error.network': 'We could not reach the payment service. Check your connection and try again.',
    'error.offline': 'You are offline. Connect to the internet and try again.',
    'error.missing': 'This payment button is not set up completely. Please contact the shop.',
    'error.reload': 'Reload the page to continue with your payment.',
    'action.reload': 'Reload the page',
    // The one hand-off text the button shows before the hand-off's texts load (part `pay-on-phone`).
    'handoff.offer': 'Pay with the app on your phone',
    // The button in someone else's in-app browser (Facebook's, TikTok's, ...), also server-rendered: the one path that completes there.
    'button.pay-web': 'Pay on the web',
  },
  /** With the payment code: the status region's, the panel's and the errors' (Nepali's: a chunk of its own). */
  payment: {
    'status.booking': 'Preparing your payment…',
    'status.redirecting': 'Taking you to the payment page…',
    'status.opening-app': 'Opening the wallet app…',
    'status.app-fallback': 'Did the wallet app not open? Choose how to continue.',
    'status.verifying': 'Checking your payment…',
    'status.pending': 'Waiting for the payment to be confirmed…',
    'status.stalled': 'We have not received a final answer about your payment yet. You can check again or cancel the payment.',
    'status.cancelling': 'Cancelling your payment…',
    'status.reconnecting': "The shop's server is not answering right now. Still waiting for your payment: reconnecting…",
    'status.reconnecting-offline': 'You are offline. Still waiting for your payment: it goes on once you are back online…',
    'status.success': 'Payment complete.',
    'status.failure': 'The payment did not go through.',
    'status.cancelled': 'Payment cancelled.',
    'status.webview': 'Continue the payment in the app.',
    'status.inapp': "Pay in the wallet app or on the web. We'll update this page when your payment is done.",
    'status.link-copied': 'Link copied. Paste it in your browser to continue there.',
    'status.copy-manually': 'Copy this link and open it in your browser:',
    'status.paid': 'Payment received, thank you.',
    'action.see-order': 'See your order',
    'action.open-app': 'Open the wallet app',
    'action.get-app': 'Get the wallet app',
    'action.pay-on-web': 'Pay on the web instead',
    'action.pay-web': 'Pay on the web',
    'action.open-browser': 'Open in your browser',
    'action.copy-link': 'Copy link',
    'action.cancel': 'Cancel payment',
    'action.continue-web': 'Continue to the payment page',
    'action.check-again': 'Check again',
    'action.start-again': 'Start again',
    'panel.label': 'Other ways to pay',
    'error.timeout': 'The payment service took too long to answer. Please try again.',
    'error.http': 'The payment could not be started right now. Please try again.',
    'error.rejected': 'The shop could not start this payment. Please try again or contact the shop.',
    'error.invalid-json': 'The payment service sent an answer we could not read. Please try again.',
    'error.invalid-response': 'The payment service sent an incomplete answer. Please try again.',
    'error.url-refused': 'The payment address was refused for your safety, so the payment was cancelled. Nothing was charged.',
    'error.return-url-refused': 'We could not take you back to the shop: its address was refused for your safety.',
    'error.framed': 'This payment button cannot be used inside another website. Open the shop in its own tab.',
    'error.config': 'This payment button is not set up correctly. Please contact the shop.',
    'error.merchant-setup': 'The shop cannot take this payment right now. Please contact the shop.',
    'error.booking-unconfirmed': 'The shop cannot find this payment yet. Check again before paying again: if you paid, it will be confirmed.',
    'error.booking-lost': 'The shop cannot find this payment. If you paid, the shop will confirm it. You can start again.',
  },
  /**
   * The phone hand-off's panel, loaded with its module, as most shoppers never open it. Keys start with
   * `handoff.` so a merchant's `strings` object can carry them beside the element's own keys.
   */
  handoff: {
    'handoff.label': 'Pay with your phone',
    'handoff.steps': "Open the wallet app on your phone, scan this code and confirm the payment there. We'll update this page when your payment is done.",
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
  },
} as const;

/**
 * The words for a failed load, but "Try again" (the way forward's label): in the first module in English
 * only. Every other language has them in its `payment` section, its own chunk, which loads beside the
 * payment code: they show only after a load failed, and English stands in where that chunk failed too.
 */
export const AFTER_FAILED_LOAD = ['error.network', 'error.offline', 'error.missing', 'error.reload', 'action.reload'] as const;

/** A key of {@link AFTER_FAILED_LOAD}. */
export type AfterFailedLoadKey = (typeof AFTER_FAILED_LOAD)[number];

/** The keys of a section of a table other than English's: English's, with {@link AFTER_FAILED_LOAD} moved to `payment`. */
type KeysOf<Section extends keyof typeof EN> = Section extends 'labels'
  ? Exclude<keyof typeof EN.labels, AfterFailedLoadKey>
  : Section extends 'payment'
    ? keyof typeof EN.payment | AfterFailedLoadKey
    : keyof (typeof EN)[Section];

/** A language's table: English's sections and keys, one text each, so no text can be missing or extra. */
export type LanguageTable = { readonly [Section in keyof typeof EN]: { readonly [Key in KeysOf<Section>]: string } };
