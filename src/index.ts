/**
 * Package root: side-effect free, safe to import in Node (server-side rendering) and in browsers.
 * Registering the tag is `wallet-pay-button/define`'s job. Every export is named: what is not listed
 * here is internal and may change in any release.
 */
export { WalletPayButton, type WalletPayLabel, type WalletPayVariant } from './element/wallet-pay-button.js';
export {
  WalletPayEvent,
  type WalletPayEventDetail,
  type WalletPayEventMap,
  type WalletPayEventName,
} from './element/events.js';
export { STRINGS_EN, STRINGS_NE, stringsFor, type StringKey, type StringTable } from './element/strings.js';
export type { FlowError, FlowErrorKind, FlowEventMap, FlowEventType, FlowState, FlowStateName } from './core/flow/state.js';
export type { FlowTimings } from './core/flow/index.js';
export type { Clock } from './core/clock.js';
export type { PageNavigator } from './core/navigator.js';
export type { KeptBooking } from './core/session-store.js';
export type { PaymentSettings } from './core/settings.js';
export type { UrlRefusal } from './core/urls.js';
export {
  detectEnvironment,
  MOBILE_MAX_WIDTH,
  type Environment,
  type EnvironmentSetting,
  type EnvironmentSignals,
} from './core/environment.js';
export {
  CODES,
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
  type PaymentStatus,
  type ResponseCode,
  type StatusRequest,
  type StatusResult,
  type SuccessEnvelope,
  type WebPaymentInstruction,
} from './protocol/contract.js';
