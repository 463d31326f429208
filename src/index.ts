/**
 * Package root: side-effect free, safe to import in Node (server-side rendering) and in browsers.
 * Registering the tag is `wallet-pay-button/define`'s job.
 */
export * from './environment.js';
export * from './contract.js';
