// The hand-off's lazy module (src/element/handoff/index.ts: QR encoder, panel, styles, English and
// Nepali texts) bundled the way a merchant's bundler or the CDN build would ship it (Lit external,
// Lit's production condition, minified, no comments) and measured. `node scripts/handoff-size.mjs`
// prints it and fails above the budget; the node test asserts the same budget.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureBytes, minifiedBundle } from './size.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** How `handoffSize()` names its result. */
export const HANDOFF_NAME = 'hand-off module (src/element/handoff/index.ts, Lit external)';

/** Gzip budget of the hand-off module in bytes (issue 15: encoder and panel at most 5 KB together). */
export const HANDOFF_BUDGET = 5 * 1024;

/** The hand-off module's minified code (one chunk: nothing in it is dynamic). */
export function handoffBundle() {
  return bundle('src/element/handoff/index.ts');
}

/**
 * The first module's English texts (src/element/i18n/en/labels.ts) alone, minified: what the element's
 * first module adds by importing them statically. The hand-off's offer is among them; the hand-off's
 * other texts must never be.
 */
export function offerBundle() {
  return bundle('src/element/i18n/en/labels.ts');
}

/** `entry` bundled and minified as the size script bundles the element's code (Lit external). */
function bundle(entry) {
  // The page already has Lit: the element's first module brought it.
  return minifiedBundle({ input: resolve(ROOT, entry), external: [/^lit($|\/)/, /^@lit\//] });
}

/** Raw, gzip (level 9) and brotli bytes of the hand-off module. */
export async function handoffSize() {
  return measureBytes(HANDOFF_NAME, await handoffBundle());
}

async function main() {
  const result = await handoffSize();
  const verdict = result.gzip > HANDOFF_BUDGET ? `${result.gzip - HANDOFF_BUDGET} bytes OVER` : `${HANDOFF_BUDGET - result.gzip} bytes under`;
  console.log(`${result.name}: ${result.raw} raw, ${result.gzip} gzip, ${result.brotli} brotli; ${verdict} its ${HANDOFF_BUDGET}-byte gzip budget.`);
  if (result.gzip > HANDOFF_BUDGET) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`handoff-size: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
