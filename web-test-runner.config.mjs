// Browser tests: every file under test/browser runs in Chromium under three profiles (desktop, an
// emulated Android phone, an emulated iPhone), and in Firefox and WebKit on the desktop profile
// (device emulation exists only in Chromium). Launchers for Firefox and WebKit: test/support/launchers.mjs;
// executables: scripts/browsers.mjs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher, devices } from '@web/test-runner-playwright';
import { CHROMIUM_ARGS, ensureChromiumHeadless } from './scripts/browsers.mjs';
import { firefoxLauncher, webkitLauncher } from './test/support/launchers.mjs';
import { testProxyMiddleware } from './test/support/proxy-middleware.mjs';

const executablePath = await ensureChromiumHeadless();

/**
 * The files named with `--files` on the command line. A group's own `files` would win over them, so
 * `--group firefox --files one.test.ts` would run the whole group: the groups take these instead.
 */
function filesFromCommandLine(argv = process.argv) {
  const files = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i].startsWith('--files=')) files.push(argv[i].slice('--files='.length));
    else if (argv[i] === '--files') while (i + 1 < argv.length && !argv[i + 1].startsWith('-')) files.push(argv[++i]);
  }
  return files;
}
const chosenFiles = filesFromCommandLine();
const ALL_TESTS = chosenFiles.length > 0 ? chosenFiles : ['test/browser/**/*.test.ts'];

/**
 * The one list of test files that run in Chromium only, each with the reason. Firefox and WebKit
 * run every other file.
 */
const CHROMIUM_ONLY = {
  'test/browser/element/wallet-pay-button/look-and-language.test.ts':
    'emulates prefers-color-scheme and prefers-reduced-motion (emulateMedia, also in its afterEach); ' +
    "Firefox's WebDriver BiDi and WebKit's WebDriver have no media-feature override",
  'test/browser/element/wallet-pay-button/press-spans-load-keyboard.test.ts':
    "holds the space bar down (sendKeys down, then up): WebKit's WebDriver only presses and types, and Firefox sets no :active " +
    "on a button the space bar holds, so there the press kept across the code's arrival is the mouse's (press-spans-load.test.ts runs everywhere)",
  'test/browser/element/handoff/qr-colour-scheme.test.ts':
    'emulates prefers-color-scheme (emulateMedia); the same checks under the default scheme run everywhere (qr.test.ts)',
};
for (const file of Object.keys(CHROMIUM_ONLY)) {
  // A stale entry (a file renamed or removed) fails here instead of lingering.
  if (!existsSync(new URL(file, import.meta.url))) throw new Error(`CHROMIUM_ONLY lists ${file}, which does not exist.`);
}

/** Chromium under one device profile; the device's viewport survives the runner's reset to 800x600. */
function chromium(device) {
  return playwrightLauncher({
    product: 'chromium',
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    createBrowserContext: ({ browser }) => browser.newContext(device ? { ...device } : {}),
    createPage: async ({ context }) => {
      const page = await context.newPage();
      if (device) {
        // web-test-runner resets the viewport before each file; keep the device's.
        const { viewport } = device;
        page.setViewportSize = async () => {
          await Object.getPrototypeOf(page).setViewportSize.call(page, viewport);
        };
      }
      return page;
    },
  });
}

const crossEngineTests = [...ALL_TESTS, ...Object.keys(CHROMIUM_ONLY).map((file) => `!${file}`)];

export default {
  nodeResolve: true,
  // `npx wtr --files <file> --group <group>` runs that file in that group; without --group, in every group.
  browsers: [chromium()],
  // Pages at once per Chromium group; Firefox and WebKit take one at a time (test/support/launchers.mjs).
  concurrency: 2,
  // Two groups at a time, in the order below: Firefox, the longest (one page at a time), first, beside
  // a Chromium group, then WebKit beside another. With Firefox fourth it ran on alone at the end, two
  // cores under one page: the whole run took 125 s against 116 s now (alone on two cores). At most four pages run at once either way.
  concurrentBrowsers: 2,
  // A scripted merchant proxy on the test server itself (loopback): see test/support/proxy-middleware.mjs.
  middleware: [testProxyMiddleware],
  testFramework: { config: { timeout: 10000 } },
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) }),
  ],
  // The group's name is on <html data-test-group> so test/browser/engines.test.ts can check the engine.
  testRunnerHtml: (testFramework, _config, group) => `<!doctype html>
<html lang="en" data-test-group="${group?.name ?? 'default'}">
  <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
  <body><script type="module" src="${testFramework}"></script></body>
</html>`,
  groups: [
    { name: 'firefox', files: crossEngineTests, browsers: [firefoxLauncher()] },
    { name: 'desktop', files: ALL_TESTS, browsers: [chromium()] },
    { name: 'webkit', files: crossEngineTests, browsers: [webkitLauncher()] },
    { name: 'android', files: ALL_TESTS, browsers: [chromium(devices['Pixel 7'])] },
    { name: 'iphone', files: ALL_TESTS, browsers: [chromium(devices['iPhone 14'])] },
  ],
};
