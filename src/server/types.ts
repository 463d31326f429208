/**
 * The public types of the payment handler: its options, what the merchant's hooks receive and
 * return, and what a reconcile pass reports.
 */
import type { Channel, OrderReference, PaymentStatus } from '../protocol/contract.js';
import type { PaymentProvider } from './provider.js';
import type { PaymentStore } from './store.js';

/** What the merchant's order lookup returns for a payable order. */
export interface OrderDetails {
  /**
   * The order's own id in the merchant's records (the canonical one: what `café-1`, `CAFÉ-1` or
   * `{ id: 7 }` and `{ id: "7" }` all find). "One payable booking per order" is kept by this id, so every
   * spelling of one order the lookup accepts books one payment.
   */
  id: string | number;
  /**
   * The amount to charge, from the merchant's own records: a number in rupees with at most two decimals
   * (`1250.5`). A `numeric` column read by node-postgres is a string: convert it (`Number(row.total)`).
   */
  amount: number;
  /**
   * What is still owed of `amount` by your records (a part paid at the counter, say), when you keep
   * one. The kit charges the total less the payments it delivered for this order, and never more than
   * `balance`: an order paid 1000 whose total grew to 1500 books 500, not 1500.
   */
  balance?: number;
  /** Not paid: omit, or `false` (a boolean: `1`, `"true"` or `"t"` are refused as a set-up error). */
  paid?: false;
  /** Shown to the shopper by the wallet: snake_case keys, string values. */
  properties?: Record<string, string>;
}

/** What the merchant's order lookup returns for an order that is already paid in full: the kit answers `IP-412`. */
export interface PaidOrder {
  paid: true;
}

/** What `redirectUrl` may depend on when it is a function. */
export interface RedirectContext {
  order: OrderReference;
  channel: Channel;
  transaction_uuid: string;
  amount: number;
  /**
   * True for an `app` booking a desktop checkout made for the shopper's phone (the QR hand-off): the
   * phone, not the checkout's browser, comes back to this URL, and it keeps no booking to follow. Send
   * it to a page that shows the result and says the computer continues (the playground's
   * `/phone.html`), not to a checkout.
   */
  handoff: boolean;
}

/** A verified final result, handed to `onPaymentResult`. */
export interface PaymentResult {
  /**
   * Where it was learned: the service's signed callback, a status check the element asked for, a
   * cancel the handler made, or {@link PaymentHandler.reconcile}'s own status check.
   */
  source: 'callback' | 'status' | 'cancel' | 'reconcile' | 'refund';
  /** A final status: SUCCESS, FAILED, CANCELED or REVERTED. */
  status: PaymentStatus;
  correlation_id: string;
  /** The wallet the shopper paid with (`esewa`, `khalti`), when the booking is known. */
  wallet?: string;
  /** The provider that made the booking (`esewa-epay`, `esewa-intent`, `khalti`), when the booking is known. */
  provider?: string;
  /** Absent only when a callback names a booking the store no longer holds. */
  booking_id?: string;
  /**
   * The merchant's order reference, as the browser sent it at booking. Absent when a callback names a
   * booking the store no longer holds, or when the kit confirmed a booking it had lost and the browser
   * did not present the order.
   */
  order?: OrderReference;
  /** The order's canonical id, as `lookupOrder` gave it at booking (absent as `order`, and for a lost booking). */
  order_id?: string;
  transaction_uuid?: string;
  /**
   * The booked amount (a callback or status that names another amount is told to `onError` as an
   * `AmountMismatchError`, with both). Compare it with the order's total before marking the order
   * paid: an order that grew after its booking is not paid in full.
   */
  amount?: number;
  /** The service's reference code, when the callback or status check gave one. */
  reference_code?: string;
  /**
   * A `SUCCESS` of an order its other payments had paid in full, whatever its amount: money taken
   * twice. Record it, do not ship twice, and refund it (docs/server.md). Absent otherwise.
   */
  duplicate?: true;
  /** With {@link duplicate}: the booking that paid the order first. */
  duplicate_of?: string;
  /**
   * A `SUCCESS` above what its order still needed when it arrived (a stale screen's payment after the
   * order's total fell, say): the rupees above it, to refund (told to `onError` as an
   * `OverpaymentError`). Absent otherwise, and on a duplicate, which is refunded whole.
   */
  overpayment?: number;
  /**
   * A `SUCCESS` the provider already reports partly refunded (eSewa's `PARTIAL_REFUND`, Khalti's
   * `Partially Refunded`): `amount` in rupees when the provider says. A partial refund seen after the
   * SUCCESS was delivered is told to `onError` (`PartialRefundNotice`) by the status check that sees it.
   */
  partial_refund?: { amount?: number };
}

/**
 * What `onError` is told with each error: the route it came from and, when known, the booking's
 * `correlation_id` and `booking_id` and the element's attempt id (the `Wallet-Pay-Attempt` header of
 * `/book`), so the error joins the browser's funnel events.
 */
export interface ErrorContext {
  route: string;
  /** The wallet and provider the error concerns, when one does. */
  wallet?: string;
  provider?: string;
  correlation_id?: string;
  booking_id?: string;
  attempt?: string;
}

/** What `lookupOrder` is given besides the order. */
export interface LookupContext {
  /** The shopper's request (`/book` or `/order`): its cookies, its session. */
  request: Request;
  /** The element's attempt id, from the `Wallet-Pay-Attempt` header, when it sent a valid one. */
  attempt?: string;
}

/** Options of {@link createPaymentHandler}. */
export interface PaymentHandlerOptions {
  /**
   * The providers the shop takes, in the order it prefers them: a booking goes to the first that has
   * the shopper's channel (and wallet, when the element names one), else to the first of the wallet
   * that pays on the web. `esewaEpay(...)` and `khalti(...)` from `wallet-pay-button/server/providers`.
   * The intent service's options below add its provider after these.
   */
  providers?: PaymentProvider[];
  /** The intent service's `{base_url}`, without the API path (`https://pay.example`, not `.../api/client/intent/payment`). */
  serviceUrl?: string;
  /** The intent service's product code. */
  productCode?: string;
  /** The intent service's access key: signs requests, verifies callbacks, never reaches the browser. */
  accessKey?: string;
  /** Absolute URL where the service reaches this handler's `/callback` (`https:` in production); required with the intent service. */
  callbackUrl?: string;
  /** Where the shopper lands after paying (the service adds `booking_id` and `status`). */
  redirectUrl: string | ((context: RedirectContext) => string);
  /**
   * Finds the merchant's order: its canonical `id` and `amount`, `{ paid: true }` when it is paid in full
   * (`IP-412`), `undefined` when unknown or not payable (`IP-424`). `context.request` is the shopper's
   * `/book` or `/order` request (its cookies, its session): refuse an order that is not theirs.
   */
  lookupOrder(
    order: OrderReference,
    context: LookupContext,
  ): Promise<OrderDetails | PaidOrder | undefined> | OrderDetails | PaidOrder | undefined;
  /**
   * Receives each verified final result once per booking and status (a later `REVERTED` after
   * `SUCCESS` is a new result). A callback is answered 2xx only after this
   * resolves; if it throws, the callback gets a 5xx so the service retries.
   */
  onPaymentResult(result: PaymentResult): Promise<void> | void;
  /** The intent service's web payment page. Default `${serviceUrl}/web/pay`. */
  webPayment?: { url?: string };
  /** Per call to the service. Default 10 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /**
   * Where bookings, keys and delivered results are kept; required. A real server:
   * `createPostgresStore(pool)` from `wallet-pay-button/server/postgres` (a PostgreSQL server, or PGlite in
   * a data folder for one process). Tests and demos: `createMemoryStore()` (lost on restart).
   */
  store: PaymentStore;
  /** The clock, in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
  /**
   * How long `onPaymentResult` may keep the shopper's `/status` (and `/cancel`) answer waiting. Past it
   * the answer goes out; the hook goes on, and if it fails the next status check, callback or
   * reconcile pass delivers again. Default 10 000 ms.
   */
  resultTimeoutMs?: number;
  /**
   * How long `lookupOrder` may take. Past it the `/book` (or `/order`) is answered `IP-503` with
   * `Retry-After` (the element tries again with the same key), the delay is told to `onError`, and
   * nothing is booked. Default 5 000 ms.
   */
  lookupTimeoutMs?: number;
  /**
   * How long one store call may take before the request is answered `IP-503`, for any store (the
   * PostgreSQL store's own `deadlineMs`, 5 000 by default, comes first). A booking the service made
   * while its save missed this is cancelled at the service. Default 10 000 ms.
   */
  storeTimeoutMs?: number;
  /**
   * How long a claim (delivering a result, checking an open booking) holds before another instance may
   * take it over: when a process dies inside `onPaymentResult`, the result is delivered again after
   * this. Keep it longer than the hook ever runs. Default 60 000 ms.
   */
  leaseMs?: number;
  /** How long bookings, keys and results are kept; {@link PaymentHandler.prune} drops older ones. Default 7 days. */
  retentionMs?: number;
  /** Largest accepted request body. Default 16 KiB. */
  maxBodyBytes?: number;
  /** Told about failures the response does not show in full (service refusals, hook errors). */
  onError?(error: unknown, context: ErrorContext): void;
  /**
   * Refund money taken beyond what an order needs, automatically, where the provider has a refund API
   * (Khalti): a second payment (`duplicate`) in full, an overpayment's excess in part, once the hook
   * took the result; the refund's `REVERTED` (of a duplicate) is delivered too. Without a refund API,
   * or when the refund fails, `onError` names the booking to refund by hand. Default `false`.
   */
  refundDuplicates?: boolean;
}

/** Options of {@link PaymentHandler.reconcile}. */
export interface ReconcileOptions {
  /** Only bookings at least this old are asked about. Default: the spec's five minutes (300 000 ms). */
  olderThanMs?: number;
  /** Status checks at once. Default 8. */
  concurrency?: number;
  /** No new check starts after this long; the rest wait for the next pass (`unfinished`). Default 50 000 ms. */
  timeBudgetMs?: number;
  /**
   * A booking any instance checked less than this long before the pass began is left out of it, so
   * instances whose passes overlap or follow closely do not ask about the same booking again. Keep it
   * below the interval between passes. Default 20 000 ms.
   */
  recheckAfterMs?: number;
  /**
   * A booking still open at the service this long after it was made is cancelled there, so a stale
   * app screen cannot pay it later, and its `CANCELED` is delivered (source `cancel`). Keep it at the
   * service's own expiry of an unpaid booking or above. Default 15 minutes (900 000 ms), the sandbox's.
   */
  cancelAfterMs?: number;
  /**
   * A booking settled `CANCELED` less than this long ago (by the store's clock) is asked about again on
   * each pass, since a payment can land after a cancel and its callback be lost: a `SUCCESS` is then
   * delivered (`duplicate: true` where the order was paid meanwhile), anything else leaves it. Default:
   * the longest `bookingLifetimeMs` of the handler's providers; 0 asks about none.
   */
  recheckCanceledForMs?: number;
}

/** What one {@link PaymentHandler.reconcile} pass did. */
export interface ReconcileReport {
  /** Bookings asked about: no final result delivered yet, and old enough (a recheck of a cancelled one counts when it delivers a SUCCESS or fails). */
  checked: number;
  /** Of those, final now and handed to `onPaymentResult`. */
  settled: number;
  /** Still `BOOKED` or `PENDING`: asked again on the next pass (an unpaid booking expires in time). */
  open: number;
  /** Status checks or hooks that failed (each told to `onError`): tried again on the next pass. */
  failed: number;
  /** Still open past `cancelAfterMs`, so cancelled at the service now (the shopper left without paying). */
  cancelled: number;
  /** The time budget ran out before every open booking was checked. */
  unfinished: boolean;
}

/** A handler from `Request` to `Response`, with the server-side status check the spec asks for. */
export interface PaymentHandler {
  (request: Request): Promise<Response>;
  /**
   * The wallets this handler's providers book (`esewa`, `khalti`), in the providers' order, each
   * once: what the checkout offers. Write it into the element as `wallets="${handler.wallets.join(' ')}"`.
   */
  readonly wallets: readonly string[];
  /**
   * The spec's "when no response arrives within five minutes, the merchant calls the status check
   * API": asks the service about every booking this handler made that has no final result yet and is
   * at least `olderThanMs` old, and hands each final status to `onPaymentResult` (source
   * `reconcile`). Run it on a timer (every minute or so): it settles the payments whose shopper closed
   * the tab and whose callback was lost.
   *
   * One pass at a time in each process: a call during a pass joins it and gets its report. At most
   * `concurrency` checks at once; no new check after `timeBudgetMs`; across instances sharing a store,
   * each open booking is checked by one instance at a time (a claim in the store).
   */
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
  /** Drops bookings, keys and results older than `retentionMs` from the store; returns how many bookings. Run it daily. */
  prune(): Promise<number>;
  /**
   * Refunds a payment in full, or `amount` rupees of it, through its provider's refund API (Khalti's;
   * eSewa has none: refund from its portal, and the kit sees it in a status). A full refund's
   * `REVERTED` is delivered to `onPaymentResult` (source `refund`). Rejects with the provider's refusal,
   * e.g. the limit Khalti puts on a new live account, named with its fix.
   */
  refund(request: RefundRequest): Promise<RefundReport>;
}

/** What {@link PaymentHandler.refund} is asked. */
export interface RefundRequest {
  /** The booking whose payment is refunded (`PaymentResult.booking_id`). */
  booking_id: string;
  /** Rupees to refund; the whole payment when left out. */
  amount?: number;
}

/** What a refund did. */
export interface RefundReport {
  /** The payment's status at the provider after the refund: `REVERTED` for a full one, `SUCCESS` for a part. */
  status: PaymentStatus;
  /** Rupees refunded by this call. */
  amount: number;
}
