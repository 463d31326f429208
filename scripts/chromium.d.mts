import type { Browser, LaunchOptions } from 'playwright';

/** Returns the first Chromium executable found ($CHROMIUM_PATH, /usr/bin/chromium, Playwright's), or undefined. */
export function findChromium(): Promise<string | undefined>;
/** Finds Chromium, installing Debian's package when possible; throws a helpful error otherwise. */
export function ensureChromium(options?: { log?: (line: string) => void }): Promise<string>;
/** Finds Chromium's headless shell, installing it when possible; Chromium itself when it cannot be had. */
export function ensureChromiumHeadless(options?: { log?: (line: string) => void }): Promise<string>;
/** Flags for every launch (no lookups of non-local hosts). */
export const CHROMIUM_ARGS: string[];
/** Launches Chromium's headless shell with Playwright, or Chromium itself with `full: true`; extra `args` are added to CHROMIUM_ARGS. */
export function launchChromium(options?: LaunchOptions & { full?: boolean }): Promise<Browser>;
