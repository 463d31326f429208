/**
 * `wallet-pay-button/protocol`: the JSON contract between the element and the merchant's own server,
 * for a merchant who writes that server without the kit, or types the answers of the one they have.
 * Types, constants and one pure reader (eSewa's signed return, Web Crypto only); no side effects, no
 * DOM. Every export is named here and listed in docs/contract.md; what is not listed is internal and
 * may change in any release.
 */
export {
  ATTEMPT_HEADER,
  CODES,
  HTTP_STATUS_OF_CODE,
  IDEMPOTENCY_HEADER,
  PAYMENT_STATUSES,
  type BookRequest,
  type BookResult,
  type CancelRequest,
  type CancelResult,
  type Channel,
  type FailureEnvelope,
  type JsonValue,
  type OrderReference,
  type OrderRequest,
  type OrderResult,
  type PaymentStatus,
  type ResponseCode,
  type StatusRequest,
  type StatusResult,
  type SuccessEnvelope,
  type WebPaymentInstruction,
} from './contract.js';
export { readEpayReturn, type EpayReturn, type EpayReturnReading } from '../providers/epay/return.js';
