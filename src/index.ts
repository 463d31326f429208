/**
 * Package root: side-effect free, safe to import in Node (server-side rendering) and in browsers.
 * Registering the tag is `wallet-pay-button/define`'s job.
 */
export * from './environment.js';
export * from './contract.js';
export * from './urls.js';
export * from './booking-client.js';
export * from './flow.js';
export * from './strategies.js';
export * from './navigator.js';
export * from './session-store.js';
export * from './strings.js';
export * from './events/index.js';
export { WalletPayButton, type WalletPayLabel, type WalletPayVariant } from './wallet-pay-button.js';
