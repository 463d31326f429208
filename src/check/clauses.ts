/**
 * The conformance checker's clauses, declared once: the runner, the command's output, the OpenAPI
 * document's rules and docs/backends.md all follow this list (a test compares them).
 */

/** Where a clause's rule is written. */
const SECTIONS = {
  amount: 'backends.md rule 1 (the amount comes from your own order); contract.md "No price."',
  idempotency: 'backends.md rule 2 (one booking per Idempotency-Key); contract.md "One booking per attempt."',
  paid: 'backends.md rule 3 (one payable booking per order); contract.md "One payable booking per order."',
  callback: 'backends.md rule 4 (verify every callback); contract.md "Readings of the spec\'s gaps"',
  late: 'backends.md rule 4 (verify every callback: a SUCCESS after a cancel is delivered, never dropped)',
  handoff: 'backends.md "The desktop answer and the hand-off\'s return"',
  epay: 'backends.md "eSewa ePay v2"',
  khalti: 'backends.md "Khalti KPG-2"',
  status: 'backends.md rule 5 (the status comes from the service); contract.md "Both ids."',
  book: 'contract.md "Requests" (the book answer)',
  codes: 'contract.md "The codes"',
  answers: 'contract.md "Answers"',
  body: 'contract.md "The body."',
  order: 'backends.md "Is the order paid?"; contract.md "Requests" (the order answer)',
  publicUrl: 'backends.md "The check instance" (callbacks go to the proxy\'s public URL, PUBLIC_URL)',
  finality: 'backends.md rule 4 (verify every callback: a final status stays final, but for a refund)',
  reconcile: 'backends.md "Reconciliation: the five-minute rule"',
} as const;

/** One rule the checker proves from outside. */
export interface Clause {
  /** Stable id, printed first on the clause's line. */
  id: string;
  /** What must hold, in one sentence. */
  title: string;
  /** Where the rule is written; named when the clause fails. */
  section: string;
  /** Which backends it proves: the intent service's (no mark), ePay v2's (`epay`), Khalti's (`khalti`), or all (`any`). */
  provider?: 'epay' | 'khalti' | 'any';
}

/** Every clause, in the order they run. */
export const CLAUSES = [
  { id: 'book-app', title: 'book "app" answers booking_id, correlation_id and a deeplink, booked at the service', section: SECTIONS.book },
  { id: 'book-web', title: 'book "web" answers a web_payment instruction that opens the provider\'s page', section: SECTIONS.book },
  { id: 'book-handoff', title: 'book "app" with handoff: true (the phone hand-off) answers a deeplink', section: SECTIONS.book },
  { id: 'callback-url-origin', title: 'the callback URL the proxy registers is on --endpoint\'s origin (or one named by --callback-origin)', section: SECTIONS.publicUrl },
  { id: 'amount-from-merchant', title: 'the service is asked for the merchant\'s amount even when the order holds "amount" or "price"', section: SECTIONS.amount },
  { id: 'top-level-amount-refused', title: 'a book body with a top-level "amount" is refused with IP-422 and books nothing', section: SECTIONS.amount },
  { id: 'one-booking-per-key', title: 'one booking per Idempotency-Key: asked again in sequence and in 3 bursts of 20 at once', section: SECTIONS.idempotency },
  { id: 'key-conflict', title: 'the same Idempotency-Key with another order or channel is IP-409', section: SECTIONS.idempotency },
  { id: 'key-invalid', title: 'a missing or malformed Idempotency-Key is IP-422 and books nothing', section: SECTIONS.idempotency },
  { id: 'unknown-order', title: 'an order the merchant does not sell is IP-424 and books nothing', section: SECTIONS.codes },
  { id: 'status-wrong-correlation', title: 'status with the wrong correlation id is IP-404', section: SECTIONS.status },
  { id: 'cancel-wrong-correlation', title: 'cancel with the wrong correlation id is IP-404 and cancels nothing', section: SECTIONS.status },
  { id: 'status-follows-service', title: 'status follows the service: BOOKED, then SUCCESS after a payment at the service', section: SECTIONS.status },
  { id: 'cancel-open', title: 'cancelling an open booking is IP-210 and cancels it at the service', section: SECTIONS.status },
  { id: 'cancel-paid', title: 'cancelling a paid booking is IP-410', section: SECTIONS.codes },
  { id: 'paid-order-refused', title: 'after a SUCCESS, a new key for the same order is IP-412', section: SECTIONS.paid },
  { id: 'order-paid', title: '/order answers paid: false for an order never paid, and paid: true once its booking is paid', section: SECTIONS.order },
  { id: 'order-paid-before-callback', title: '/order answers paid: true within seconds, and /status SUCCESS, for a booking paid at the service whose callback has not come', section: SECTIONS.order },
  { id: 'open-booking-replaced', title: 'a new key while an older booking of the order is open books anew and cancels the older one at the service', section: SECTIONS.paid },
  { id: 'callback-signed', title: 'the service\'s signed callback is answered 2xx', section: SECTIONS.callback },
  { id: 'callback-replay', title: 'the same signed callback sent again is answered 2xx', section: SECTIONS.callback },
  { id: 'callback-amount-as-written', title: 'a signed callback is answered 2xx with its amount written as the service may write it (1000.0, 1250.50), verified as written', section: SECTIONS.callback },
  { id: 'callback-forgeries-refused', title: 'a forged signature, a changed amount and a changed status are each refused with a 4xx', section: SECTIONS.callback },
  { id: 'callback-unknown-booking', title: 'a callback for a booking the proxy never made is refused with a 4xx and changes no order', section: SECTIONS.callback },
  { id: 'forged-success-not-paid', title: 'a forged SUCCESS callback never makes the order paid (a new booking of it still works)', section: SECTIONS.callback },
  { id: 'success-replay-after-refund', title: 'the SUCCESS callback replayed after the REVERTED leaves the refunded order payable', section: SECTIONS.finality },
  { id: 'failed-after-success', title: 'a signed FAILED after a SUCCESS leaves the order paid', section: SECTIONS.finality },
  { id: 'paid-after-cancel', title: 'a payment that lands after the merchant\'s cancel (its SUCCESS callback) makes the order paid', section: SECTIONS.late },
  { id: 'handoff-page', title: 'the redirect_url of a hand-off booking is a page of its own, not the checkout', section: SECTIONS.handoff },
  { id: 'reconcile-asks-service', title: 'with its SUCCESS callback lost, the proxy\'s reconciliation asks the service and the order is paid', section: SECTIONS.reconcile },
  { id: 'epay-book', title: '(ePay) book "web" and "app" answer eSewa\'s eleven signed form fields, total_amount their sum', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-return-forged-refused', title: '(ePay) a forged or altered return is refused with a 4xx and fulfils nothing', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-return-raw-text', title: '(ePay) a return verifies on its raw text: total_amount 1000.0 (a number) or "2,700.0"', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-status-decides', title: '(ePay) a signed COMPLETE return fulfils nothing before the status check says COMPLETE', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-ambiguous-open', title: '(ePay) AMBIGUOUS is not fulfilled: /status answers PENDING', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-full-refund-reverted', title: '(ePay) FULL_REFUND is answered REVERTED and the order is unpaid again', section: SECTIONS.epay, provider: 'epay' },
  { id: 'khalti-book', title: '(Khalti) book "web" and "app" initiate in paisa with the Key header; payment_url opens by GET', section: SECTIONS.khalti, provider: 'khalti' },
  { id: 'khalti-return-not-trusted', title: '(Khalti) a return saying status=Completed fulfils nothing before the lookup does', section: SECTIONS.khalti, provider: 'khalti' },
  { id: 'khalti-lookup-400-canceled', title: '(Khalti) a lookup\'s HTTP 400 (User canceled) is CANCELED, not an error', section: SECTIONS.khalti, provider: 'khalti' },
  { id: 'khalti-forged-return', title: '(Khalti) a forged return (unknown pidx, another order, a paid one canceled) changes nothing', section: SECTIONS.khalti, provider: 'khalti' },
  { id: 'method-not-allowed', title: 'a method other than POST is 405 with Allow: POST', section: SECTIONS.answers, provider: 'any' },
  { id: 'payload-too-large', title: 'a body of 1 MiB is IP-413', section: SECTIONS.body, provider: 'any' },
  { id: 'unsupported-media-type', title: 'a body that is not application/json is IP-415', section: SECTIONS.body, provider: 'any' },
  { id: 'failure-not-2xx', title: 'a failure is never answered 2xx, and a 2xx is always a success envelope', section: SECTIONS.answers, provider: 'any' },
  { id: 'no-redirect', title: 'no answer is a redirect', section: SECTIONS.answers, provider: 'any' },
  { id: 'content-type-json', title: 'every answer is Content-Type: application/json; charset=utf-8', section: SECTIONS.answers, provider: 'any' },
  { id: 'no-store', title: 'every answer carries Cache-Control: no-store', section: SECTIONS.answers, provider: 'any' },
  { id: 'nosniff', title: 'every answer carries X-Content-Type-Options: nosniff', section: SECTIONS.answers, provider: 'any' },
] as const satisfies readonly Clause[];

/** The id of one clause. */
export type ClauseId = (typeof CLAUSES)[number]['id'];

/** The clauses a run proves: the intent service's backend (the default), or one in its ePay v2 or Khalti mode. */
export function clausesFor(provider: 'intent' | 'epay' | 'khalti' = 'intent'): readonly Clause[] {
  return CLAUSES.filter((clause: Clause) => (clause.provider ?? 'intent') === provider || clause.provider === 'any');
}
