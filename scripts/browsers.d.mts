import type { Browser, LaunchOptions } from 'playwright';

/** The executables the tests use: three engines (Chromium also as its headless shell), WebKit's browser binary, and a virtual display. */
export type ExecutableName = 'chromium' | 'chromiumHeadless' | 'firefox' | 'webkitDriver' | 'webkitBrowser' | 'xvfb';

/** Returns the path of one executable (its env variable, then the Debian path), or undefined. */
export function findExecutable(name: ExecutableName): Promise<string | undefined>;
/** Resolves the executables, installing Debian packages when possible; throws a helpful error otherwise. */
export function ensureExecutables<N extends ExecutableName>(
  names: readonly N[],
  options?: { log?: (line: string) => void },
): Promise<Record<N, string>>;
/** What the browser tests need: the three engines, and Xvfb when there is no display. */
export function neededForBrowserTests(env?: Record<string, string | undefined>): ExecutableName[];
/** One line per engine found, naming its version and executable. */
export function engineVersions(found: Partial<Record<ExecutableName, string>>): string[];
/** Returns the first Chromium executable found ($CHROMIUM_PATH, /usr/bin/chromium, Playwright's), or undefined. */
export function findChromium(): Promise<string | undefined>;
/** Finds Chromium, installing Debian's package when possible; throws a helpful error otherwise. */
export function ensureChromium(options?: { log?: (line: string) => void }): Promise<string>;
/** Flags for every Chromium launch (no lookups of non-local hosts; the features above turned off). */
/** The features Playwright turns off itself, repeated in our `--disable-features`. */
export const PLAYWRIGHT_DISABLED_FEATURES: string[];
/** The features we turn off besides (the address bar's WebUI drop-down). */
export const OUR_DISABLED_FEATURES: string[];
export const CHROMIUM_ARGS: string[];
/** Finds Chromium's headless shell, installing it when possible; Chromium itself when it cannot be had. */
export function ensureChromiumHeadless(options?: { log?: (line: string) => void }): Promise<string>;
/**
 * Launches Chromium with Playwright: its headless shell, or Chromium itself with `full: true` (for the
 * back/forward cache, which only the whole browser has); extra `args` are added to CHROMIUM_ARGS.
 */
export function launchChromium(options?: LaunchOptions & { full?: boolean }): Promise<Browser>;
