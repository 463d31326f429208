/**
 * The English texts that come with the payment code: the status region's, the panel's and the errors'.
 * The button's labels are in `labels.ts`, loaded with the first module.
 */
export const TEXTS_EN = {
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
  'status.paid': 'This order is already paid.',
  'action.see-order': 'See your order',
  'action.open-app': 'Open the wallet app',
  'action.get-app': 'Get the wallet app',
  'action.pay-on-web': 'Pay on the web instead',
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
} as const;

/** A key of the texts that come with the payment code. */
export type TextKey = keyof typeof TEXTS_EN;
