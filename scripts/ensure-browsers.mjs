// `npm test` runs this first: it finds (or installs) the browsers of the browser tests and prints
// each engine's version, so a failure on another machine can be set against the versions known to
// pass (CONTRIBUTING.md).
import { engineVersions, ensureChromiumHeadless, ensureExecutables, neededForBrowserTests } from './browsers.mjs';

try {
  const found = await ensureExecutables(neededForBrowserTests());
  // Chromium's headless shell, which most tests launch: installed here where it can be; without it they
  // launch Chromium itself, and each process that launches one says so once.
  const shell = await ensureChromiumHeadless();
  if (shell !== found.chromium) found.chromiumHeadless = shell;
  for (const line of engineVersions(found)) console.log(line);
  if (found.xvfb) console.log(`Xvfb: ${found.xvfb} (WebKit's display)`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
