// `npm test` runs this first: it finds (or installs) the browsers of the browser tests and prints
// each engine's version, so a failure on another machine can be set against the versions known to
// pass (docs/testing.md).
import { engineVersions, ensureExecutables, neededForBrowserTests } from './browsers.mjs';

try {
  const found = await ensureExecutables(neededForBrowserTests());
  for (const line of engineVersions(found)) console.log(line);
  if (found.xvfb) console.log(`Xvfb: ${found.xvfb} (WebKit's display)`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
