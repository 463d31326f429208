/**
 * The environment settings: a forced path or the spec's rule (detect-environment.ts) with the in-app
 * browsers' table, which comes with the payment code, not with the element's first module.
 */
import { pathOf, type Environment, type EnvironmentSetting, type EnvironmentSignals } from './detect-environment.js';
import { inAppBrowser } from './in-app-browsers.js';

export { isEnvironmentSetting, MOBILE_MAX_WIDTH, type Environment, type EnvironmentSetting, type EnvironmentSignals } from './detect-environment.js';

/** Chooses the payment path from the shopper's environment: the spec's rule, with the known in-app browsers. */
export function detectEnvironment(signals: EnvironmentSignals): Environment {
  return pathOf(signals, inAppBrowser);
}

/** Applies a forced setting, or the rule when the setting is `auto`. */
export function resolveEnvironment(setting: EnvironmentSetting, signals: EnvironmentSignals): Environment {
  return setting === 'auto' ? detectEnvironment(signals) : setting;
}
