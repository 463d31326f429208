// `npm test` runs this first: it finds (or installs) the browsers of the browser tests and says which
// ones it uses.
import { ensureExecutables, neededForBrowserTests } from './browsers.mjs';

try {
  const found = await ensureExecutables(neededForBrowserTests());
  for (const [name, path] of Object.entries(found)) console.log(`${name}: ${path}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
