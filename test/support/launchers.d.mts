import type { Page, Viewport } from 'puppeteer-core';
import type { BrowserLauncher } from '@web/test-runner-core';

/** True for exactly the error of a Firefox that lacks `emulation.setScreenOrientationOverride`. */
export function isMissingScreenOrientation(error: unknown): boolean;
/** Makes `page.setViewport` set the viewport in a Firefox that lacks the screen orientation override. */
export function tolerateMissingScreenOrientation<P extends Pick<Page, 'setViewport' | 'mainFrame'>>(page: P): P;
/** Firefox (desktop) for web-test-runner. */
export function firefoxLauncher(): BrowserLauncher;
/** WebKit (desktop) for web-test-runner. */
export function webkitLauncher(): BrowserLauncher;
export type { Viewport };
