export * from './booked.js';
export * from './navigate.js';
export * from './webview.js';
export * from './pending.js';
export * from './success.js';
export * from './failure.js';
export * from './cancel.js';
export * from './error.js';
