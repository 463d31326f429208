/** ePay v2's part of the book proxy contract document (src/check/openapi.ts): its `x-epay` object. */

/** A backend in its ePay v2 mode, as the checker's `--provider epay` proves it. */
export const EPAY_MODE = {
  summary:
    'eSewa\'s web checkout instead of the intent service. book (web, and app answered web) makes no call: it answers { booking_id, correlation_id, channel: "web", wallet: "esewa", web_payment: { url: <form URL>, method: "POST", fields } } with eSewa\'s eleven fields, total_amount their sum, signed over total_amount,transaction_uuid,product_code (HMAC-SHA256, base64). /status asks GET {status base}/api/epay/transaction/status/?product_code=&total_amount=&transaction_uuid= and only its COMPLETE fulfils. eSewa sends no callback and has no cancel: /cancel ends an open booking locally, and a COMPLETE after it is still delivered. The return\'s data (base64 JSON) is verified on its raw text (1000.0 stays 1000.0; "," dropped from total_amount), in constant time, and is a hint only.',
  form_path: '/api/epay/main/v2/form',
  status_path: '/api/epay/transaction/status/',
  request_signed_field_names: 'total_amount,transaction_uuid,product_code',
  return_signed_field_names: 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names',
  statuses: { COMPLETE: 'SUCCESS', PENDING: 'PENDING', AMBIGUOUS: 'PENDING', NOT_FOUND: 'BOOKED, or CANCELED after the session\'s lifetime', FULL_REFUND: 'REVERTED', PARTIAL_REFUND: 'SUCCESS', CANCELED: 'REVERTED after a SUCCESS, else CANCELED' },
} as const;
