// The Chromium every browser test, e2e suite and benchmark uses; resolved with the other engines in
// browsers.mjs: its headless shell ($CHROMIUM_HEADLESS_PATH, Debian's /usr/bin/chromium-headless-shell),
// and Chromium itself ($CHROMIUM_PATH, Debian's /usr/bin/chromium, then Playwright's own download).
export { findChromium, ensureChromium, ensureChromiumHeadless, CHROMIUM_ARGS, launchChromium } from './browsers.mjs';
