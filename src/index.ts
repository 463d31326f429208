/**
 * Package root: side-effect free, safe to import in Node (server-side rendering) and in browsers.
 * Registering the tag is `wallet-pay-button/define`'s job; the proxy's JSON types and codes are
 * `wallet-pay-button/protocol`'s. Every export is named here and listed in docs/element.md: the
 * element, its events, its words, its looks, and the types its public properties are declared with.
 * What is not listed is internal and may change in any release.
 */
export { WalletPayButton, type WalletPayLabel, type WalletPayVariant } from './element/wallet-pay-button.js';
export {
  WalletPayEvent,
  type WalletPayEventDetail,
  type WalletPayEventMap,
  type WalletPayEventName,
} from './element/events.js';
export { STRINGS_EN, STRINGS_NE, type HandoffStrings, type StringKey, type StringTable } from './element/i18n/index.js';
export { renderWalletPayButton, earlyPressScript, type AttributeValue, type RenderOptions } from './element/server-render.js';
// The types of the element's public properties (`environment`, `paymentState`, `timings`, `clock`,
// `navigation`), so a merchant can name what they assign or read.
export type { EnvironmentSetting } from './core/environment.js';
export type { FlowState } from './core/flow/state.js';
export type { FlowTimings } from './core/flow/index.js';
export type { Clock } from './core/clock.js';
export type { PageNavigator } from './core/navigator.js';
