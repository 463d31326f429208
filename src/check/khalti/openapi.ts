/** Khalti KPG-2's part of the book proxy contract document (src/check/openapi.ts): its `x-khalti` object. */

/** A backend in its Khalti KPG-2 mode, as the checker's `--provider khalti` proves it. */
export const KHALTI_MODE = {
  summary:
    'Khalti\'s web checkout instead of the intent service. book (web, and app answered web) POSTs {base}/api/v2/epayment/initiate/ with Authorization: Key <secret key> and the order\'s amount in paisa (an integer, at least 1000), return_url the proxy\'s /return, and answers { booking_id: pidx, correlation_id: pidx, channel: "web", wallet: "khalti", web_payment: { url: payment_url, method: "GET" } }. /status POSTs {base}/api/v2/epayment/lookup/ { pidx }; only its Completed, of the booking\'s paisa, fulfils. Khalti signs nothing: the return\'s query (status=Completed included) is a hint naming a pidx, looked up. Khalti sends no callback and has no cancel: /cancel ends an open booking locally, and a Completed after it is still delivered.',
  initiate_path: '/api/v2/epayment/initiate/',
  lookup_path: '/api/v2/epayment/lookup/',
  authorization: 'Key <secret key>',
  amount_unit: 'paisa',
  statuses: { Initiated: 'BOOKED', Pending: 'PENDING', Completed: 'SUCCESS', 'Partially Refunded': 'SUCCESS', Refunded: 'REVERTED', Expired: 'CANCELED (lookup HTTP 400)', 'User canceled': 'CANCELED (lookup HTTP 400)' },
} as const;
