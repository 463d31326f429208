/**
 * Package root: side-effect free, safe to import in Node (server-side rendering) and in browsers.
 * Registering the tag is `wallet-pay-button/define`'s job.
 */
export * from './core/environment.js';
export * from './protocol/contract.js';
export * from './core/urls.js';
export * from './core/booking-client.js';
export * from './core/flow.js';
export * from './core/navigator.js';
export * from './core/session-store.js';
export * from './element/strings.js';
export * from './element/events/index.js';
export { WalletPayButton, type WalletPayLabel, type WalletPayVariant } from './element/wallet-pay-button.js';
