/**
 * The one reader of the element's settings. It reads them when one changes (and when the element is
 * attached again, and at a press, where the spec's environment rule reads the page of that moment) and
 * hands the one result on: the environment to the button's rendering, the checked settings to the
 * payment. The check itself (URLs, the order, every set-up problem) is part of the payment code and is
 * plugged in with {@link SettingsController.connect} once that code is in: a page that only shows the
 * button never loads it.
 */
import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { MOBILE_MAX_WIDTH, isEnvironmentSetting, pathOf, type Environment, type EnvironmentSignals } from '../core/detect-environment.js';
import { isInAppBrowser } from '../core/in-app-test.js';
import type { SettingsResult } from '../core/settings.js';

/**
 * The viewport's width as the environment rule compares it (`innerWidth` at most 768): 768 when it is
 * at most that wide, else 769. Asked of a media query, which measures the same width (scrollbar
 * included, in CSS pixels) without a layout: reading `innerWidth` lays the page out first in Chromium,
 * 4 to 12 ms on a slow phone (4x CPU throttling), before the button's first paint. `768.98px` lets a
 * fractional width that `innerWidth` rounds down to 768 match, as it does.
 */
function viewportWidth(win: Window): number {
  return win.matchMedia?.(`(max-width: ${MOBILE_MAX_WIDTH}.98px)`).matches ? MOBILE_MAX_WIDTH : MOBILE_MAX_WIDTH + 1;
}

/** What the controller needs of its element. */
interface SettingsHost extends ReactiveControllerHost, HTMLElement {
  /** The `environment` setting as written (`auto` when unset). */
  environment?: string | null | undefined;
}

/**
 * Reads and checks the host's settings with the page's facts of the moment and hands the result on
 * (the payment code's reader, which returns what it read).
 */
type SettingsCheck = (signals: EnvironmentSignals) => SettingsResult;

/** Reads the element's settings when they change and hands one result to the rendering and the payment. */
export class SettingsController implements ReactiveController {
  readonly #host: SettingsHost;
  #check?: SettingsCheck;
  #stale = true;
  #environment: Environment | undefined;
  #result: SettingsResult | undefined;

  constructor(host: SettingsHost) {
    this.#host = host;
    host.addController(this);
  }

  /**
   * The path the settings resolve to now (`desktop` shows the offer to pay on the phone); `undefined`
   * while the `environment` attribute is no setting there is (the set-up check names it).
   */
  get environment(): Environment | undefined {
    if (this.#stale) this.read();
    return this.#environment;
  }

  /** The checked settings, once the payment code is in. */
  get result(): SettingsResult | undefined {
    return this.#result;
  }

  /** A setting changed: read again before the next render. */
  changed(): void {
    this.#stale = true;
  }

  /** Attached (again): the payment is handed its settings again before the next render. */
  hostConnected(): void {
    this.#stale = true;
    if (this.#check) this.#host.requestUpdate();
  }

  hostUpdate(): void {
    if (this.#stale) this.read();
  }

  /** Plugs in the payment code's check, which hands each result to the payment; reads at once. */
  connect(check: SettingsCheck): void {
    this.#check = check;
    this.read();
  }

  /** Reads the settings now, with the page's facts of this moment, and hands the result on. */
  read(): void {
    this.#stale = false;
    const win = this.#host.ownerDocument.defaultView;
    const signals: EnvironmentSignals = win
      ? { userAgent: win.navigator.userAgent, maxTouchPoints: win.navigator.maxTouchPoints, innerWidth: viewportWidth(win) }
      : { userAgent: '', maxTouchPoints: 0, innerWidth: 1024 };
    const setting = this.#host.environment ?? 'auto';
    // Before the payment code is in, the rule knows an in-app browser by one expression that agrees
    // with the in-app browsers' table (in-app-test.ts), which comes with that code; then the check's path wins.
    this.#environment = isEnvironmentSetting(setting) ? (setting === 'auto' ? pathOf(signals, isInAppBrowser) : setting) : undefined;
    if (this.#check) {
      const read = (this.#result = this.#check(signals));
      if (read.ok) this.#environment = read.settings.environment;
    }
  }
}
