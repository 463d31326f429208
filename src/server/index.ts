/**
 * `wallet-pay-button/server`: the merchant server kit. Signatures, callback verification, a typed
 * client of the payment service, and a fetch-style request handler for the element's contract.
 * Web APIs only, so it runs in Node 20 and edge runtimes; the `node:http` adapter (`toNodeListener`)
 * lives in `./node.ts`, outside this entry, so an edge bundle never pulls in Node modules.
 */
export {
  createSignature,
  verifySignature,
  verifyMessage,
  signatureMessage,
  SignatureInputError,
  SIGNED_FIELDS,
  WEB_PAYMENT_SIGNED_FIELDS,
  parseSignedFieldNames,
  formatSignedValue,
  signMessage,
  type SignedValue,
  type SignedPayload,
} from '../protocol/signature.js';
export {
  verifyCallback,
  CallbackVerificationError,
  CALLBACK_FIELDS,
  type CallbackPayload,
  type CallbackRejectionReason,
} from './callback.js';
export { readRawJsonObject, RawJsonError, type RawJsonMember, type RawJsonErrorReason } from '../protocol/raw-json.js';
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
  transactionUuid,
  type PaymentHandler,
  type PaymentHandlerOptions,
  type ReconcileOptions,
  type ReconcileReport,
  type PaymentResult,
  type OrderDetails,
  type RedirectContext,
} from './handler.js';
export { createMemoryStore, type MemoryStoreOptions } from './memory-store.js';
export {
  type PaymentStore,
  type StoredBooking,
  type ResultClaim,
  type OpenBookingClaim,
  type OrderState,
  type BookingStart,
  type BookingOpening,
  type BookingState,
} from './store.js';
