/**
 * The checker's clauses of a backend of the intent service (the clauses without a provider mark),
 * declared in the order they run; src/check/clauses.ts lists them first in `CLAUSES`.
 */
import type { Clause } from '../clauses.js';
import { SECTIONS } from '../sections.js';

/** Its clauses, in the order they run. */
export const INTENT_CLAUSES = [
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
] as const satisfies readonly Clause[];
