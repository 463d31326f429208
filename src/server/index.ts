/**
 * `wallet-pay-button/server`: the merchant server kit. A fetch-style request handler for the element's
 * contract, its stores' contract, a typed client of the payment service, callback verification and
 * signatures: what docs/server.md lists under "What this entry exports", and nothing else.
 * Web APIs only, so it runs in Node 20 and edge runtimes; the `node:http` adapter (`toNodeListener`)
 * lives in `./node.ts`, outside this entry, so an edge bundle never pulls in Node modules.
 */
export {
  createSignature,
  verifySignature,
  SignatureInputError,
  SIGNED_FIELDS,
  type SignedValue,
  type SignedPayload,
} from '../protocol/signature.js';
export { verifyCallback, CallbackVerificationError, type CallbackPayload, type CallbackRejectionReason } from './callback.js';
export {
  createServiceClient,
  ServiceError,
  type ServiceClient,
  type ServiceClientOptions,
  type ServiceErrorKind,
  type BookInput,
  type ServiceBooking,
  type ServiceStatus,
  type ServiceCancellation,
} from './service-client.js';
export {
  createPaymentHandler,
  DuplicatePaymentError,
  OverpaymentError,
  AmountMismatchError,
  type ErrorContext,
  type LookupContext,
  type PaymentHandler,
  type PaymentHandlerOptions,
  type ReconcileOptions,
  type ReconcileReport,
  type PaymentResult,
  type OrderDetails,
  type PaidOrder,
  type RedirectContext,
} from './handler.js';
export { StoreUnavailableError } from './store-errors.js';
export { refuseMalformed } from './malformed.js';
export { createMemoryStore, type MemoryStoreOptions } from './memory-store.js';
export {
  type PaymentStore,
  type StoredBooking,
  type OrderState,
  type LeaseHold,
  type BookingStart,
  type BookingOpening,
  type BookingState,
  type BookingInsert,
  type BookingInsertion,
  type KnownResult,
  type ResultClaimRequest,
  type ResultClaim,
  type ResultRef,
  type OpenBookingClaim,
} from './store.js';
