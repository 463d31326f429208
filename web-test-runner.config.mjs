// Browser tests: every file under test/browser runs in Chromium under three profiles
// (desktop, an emulated Android phone, an emulated iPhone).
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher, devices } from '@web/test-runner-playwright';
import { ensureChromium, CHROMIUM_ARGS } from './scripts/chromium.mjs';
import { testProxyMiddleware } from './test/support/proxy-middleware.mjs';

const executablePath = await ensureChromium();

/** Chromium under one device profile; the device's viewport survives the runner's reset to 800x600. */
function launcher(device) {
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

/** A group that runs every browser test under one device profile. */
function profile(name, device) {
  return { name, files: 'test/browser/**/*.test.ts', browsers: [launcher(device)] };
}

export default {
  nodeResolve: true,
  // `npx wtr --files <file>` runs that file on the desktop profile (the groups below run everything).
  browsers: [launcher()],
  concurrency: 2,
  // A scripted merchant proxy on the test server itself (loopback): see test/support/proxy-middleware.mjs.
  middleware: [testProxyMiddleware],
  testFramework: { config: { timeout: 10000 } },
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) }),
  ],
  testRunnerHtml: (testFramework) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
  <body><script type="module" src="${testFramework}"></script></body>
</html>`,
  groups: [
    profile('desktop'),
    profile('android', devices['Pixel 7']),
    profile('iphone', devices['iPhone 14']),
  ],
};
