/**
 * What the payment module needs of its element, as an interface: the payment module is loaded by the
 * element's first module, so it names the element by this shape instead of importing its class (that
 * import would close a circle between the two modules).
 */
import type { ReactiveControllerHost } from '@lit/reactive-element';
import type { Clock } from '../core/clock.js';
import type { FlowTimings } from '../core/flow/index.js';
import type { PageNavigator } from '../core/navigator.js';
import type { SettingsInput } from '../core/settings.js';
import type { HandoffStrings, StringTable } from './i18n/index.js';

/** What the payment's flow needs from its element. */
export interface PaymentHost extends ReactiveControllerHost, HTMLElement {
  /** A replacement navigator (tests, hosts with their own router); the browser's when unset. */
  navigation?: PageNavigator | null;
  /** Overrides of the flow's delays. */
  timings?: Partial<FlowTimings>;
  /** A replacement clock (tests); the window's when unset. */
  clock?: Clock | null;
}

/** The element as the payment module sees it. */
export interface PaymentElement extends PaymentHost, SettingsInput {
  /** The shadow root the panels render into. */
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The look (`variant` attribute), checked by the set-up check. */
  readonly variant: string;
  /** The wording (`label` attribute), checked by the set-up check. */
  label?: string | undefined;
  /** Android package and App Store id of the wallet app, for the store link. */
  androidPackage?: string | undefined;
  iosAppId?: string | undefined;
  /** The merchant's replacements of any text. */
  strings?: Partial<StringTable & HandoffStrings> | null | undefined;
}
