/**
 * The environment settings: a forced path or the spec's rule (detect-environment.ts, re-exported here).
 */
import { detectEnvironment, type Environment, type EnvironmentSetting, type EnvironmentSignals } from './detect-environment.js';

export { detectEnvironment, MOBILE_MAX_WIDTH, type Environment, type EnvironmentSetting, type EnvironmentSignals } from './detect-environment.js';

/** Applies a forced setting, or the rule when the setting is `auto`. */
export function resolveEnvironment(setting: EnvironmentSetting, signals: EnvironmentSignals): Environment {
  return setting === 'auto' ? detectEnvironment(signals) : setting;
}

/** True when a string names an environment setting. */
export function isEnvironmentSetting(value: unknown): value is EnvironmentSetting {
  return value === 'auto' || value === 'desktop' || value === 'mobile' || value === 'webview' || value === 'inapp';
}
