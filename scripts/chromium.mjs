// The Chromium every browser test, e2e suite and benchmark uses; resolved with the other engines in
// browsers.mjs ($CHROMIUM_PATH, Debian's /usr/bin/chromium, then Playwright's own download).
export { findChromium, ensureChromium, CHROMIUM_ARGS, launchChromium } from './browsers.mjs';
