/**
 * What each of the intent service's clauses does (src/check/esewa-intent/clause-list.ts declares them):
 * the runner (src/check/run.ts) takes these beside ePay's, Khalti's and the transport's.
 */
import type { ClauseId } from '../clauses.js';
import type { ClauseBody } from '../steps.js';
import * as book from './clauses-book.js';
import * as callback from './clauses-callback.js';
import * as late from './clauses-late.js';
import * as order from './clauses-order.js';
import * as replays from './clauses-replays.js';
import * as results from './clauses-results.js';

/** Each intent clause's body, by its id. */
export const INTENT_BODIES = {
  'book-app': book.bookApp,
  'book-web': book.bookWeb,
  'book-handoff': book.bookHandoff,
  'callback-url-origin': callback.callbackUrlOrigin,
  'amount-from-merchant': book.amountFromMerchant,
  'top-level-amount-refused': book.topLevelAmount,
  'one-booking-per-key': book.oneBookingPerKey,
  'key-conflict': book.keyConflict,
  'key-invalid': book.keyInvalid,
  'unknown-order': book.unknownOrder,
  'status-wrong-correlation': (s) => results.wrongCorrelation(s, 'status'),
  'cancel-wrong-correlation': (s) => results.wrongCorrelation(s, 'cancel'),
  'status-follows-service': results.statusFollowsService,
  'cancel-open': results.cancelOpen,
  'cancel-paid': results.cancelPaid,
  'paid-order-refused': results.paidOrderRefused,
  'order-paid': order.orderPaid,
  'order-paid-before-callback': order.orderPaidBeforeCallback,
  'open-booking-replaced': results.openBookingReplaced,
  'callback-signed': callback.callbackSigned,
  'callback-replay': callback.callbackReplay,
  'callback-amount-as-written': callback.callbackAmountAsWritten,
  'callback-forgeries-refused': callback.callbackForgeries,
  'callback-unknown-booking': callback.callbackUnknownBooking,
  'forged-success-not-paid': callback.forgedSuccessNotPaid,
  'success-replay-after-refund': replays.successReplayAfterRefund,
  'failed-after-success': replays.failedAfterSuccess,
  'paid-after-cancel': late.paidAfterCancel,
  'handoff-page': book.handoffPage,
  'reconcile-asks-service': replays.reconcileAsksService,
} satisfies Partial<Record<ClauseId, ClauseBody>>;
