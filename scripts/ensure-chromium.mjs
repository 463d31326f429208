// `npm test` runs this first: it finds (or installs) Chromium and says which one it uses.
import { ensureChromium } from './chromium.mjs';

try {
  const path = await ensureChromium();
  console.log(`Chromium: ${path}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
