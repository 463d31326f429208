/**
 * `wallet-pay-button/server`: the merchant server kit as a merchant writes it. A fetch-style request
 * handler for the element's contract, the memory store for tests and demos, the types of the handler's
 * options and hooks, and the errors its hooks and `onError` see: what docs/server.md lists under "What
 * each entry exports", and nothing else. The rest has an entry of its own: the providers
 * (`./providers`), a store of your own (`./store-suite`), an adapter of your own (`./provider-suite`).
 * Web APIs only, so it runs in Node 20 and edge runtimes; the `node:http` adapter (`toNodeListener`)
 * lives in `./node.ts`, outside this entry, so an edge bundle never pulls in Node modules.
 */
export {
  createPaymentHandler,
  DuplicatePaymentError,
  OverpaymentError,
  AmountMismatchError,
  type ErrorContext,
  type LookupContext,
  type PaymentHandler,
  type PaymentHandlerOptions,
  type PaymentResult,
  type OrderDetails,
  type RedirectContext,
} from './handler.js';
export { StoreUnavailableError } from './store-errors.js';
export { refuseMalformed } from './malformed.js';
export { createMemoryStore } from './memory-store.js';
export type { PaymentStore } from './store.js';
