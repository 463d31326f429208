// `npm run size`: raw, gzip (level 9) and brotli (quality 11) bytes of every JS file the package
// ships, and of the element's own code (src/define.ts minified with Lit external). Fails above the
// budgets. `npm run size -- --ceilings` fails only above the regression ceilings (what this release
// measures, a little rounded up) and still prints how far each file is from its budget: CI runs that,
// so a change can never make the element bigger while the budgets are not yet met.
// The benchmark reuses `measureFiles`.
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DIST = join(ROOT, 'dist');

/** The element's own code, as `elementOwnCode()` names it in reports. */
export const OWN_CODE_NAME = "element's own code (src/define.ts, Lit external)";

/** Gzip budgets in bytes. Never raise one to make a change fit: shrink the change. */
export const BUDGETS = [
  { name: 'dist/cdn/wallet-pay-button.min.js', gzip: 10 * 1024 },
  { name: 'dist/cdn/wallet-pay-button.iife.min.js', gzip: 10 * 1024 },
  { name: OWN_CODE_NAME, gzip: 4608 },
];

/**
 * Regression ceilings in gzip bytes: the sizes this release measures, rounded up about 1%. Lower
 * them whenever the code shrinks. Raise one only for a behaviour the product needs, in the commit that
 * adds it and saying why (the raises so far: +121 bytes to keep an unfinished attempt's key across a
 * reload, so a reload during a booking cannot book twice; +120 bytes own code, +160 CDN (the CDN files
 * also became plain ASCII, 16 bytes) for relative URLs resolved against
 * the document's base URL, the language found across shadow roots, a redirecting proxy named in the
 * error instead of passing for a network failure, and an empty allowed-hosts refused before booking;
 * +20 bytes own code for a status or cancel answer about another booking named as such);
 * never to let a careless change through.
 * Once a file meets its budget, its ceiling is the budget.
 */
export const CEILINGS = [
  { name: 'dist/cdn/wallet-pay-button.min.js', gzip: 14950 },
  { name: 'dist/cdn/wallet-pay-button.iife.min.js', gzip: 14990 },
  { name: OWN_CODE_NAME, gzip: 9430 },
];

/** Sizes of one piece of code: raw, gzip level 9, brotli quality 11 (bytes). */
export function measureBytes(name, bytes) {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    name,
    raw: buffer.byteLength,
    gzip: gzipSync(buffer, { level: 9 }).byteLength,
    brotli: brotliCompressSync(buffer, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buffer.byteLength },
    }).byteLength,
  };
}

/** Measures files; each result is named by its path relative to the repository when inside it. */
export async function measureFiles(paths) {
  return Promise.all(
    paths.map(async (path) => {
      const absolute = resolve(ROOT, path);
      const inRepo = !relative(ROOT, absolute).startsWith('..');
      return measureBytes(inRepo ? relative(ROOT, absolute) : absolute, await readFile(absolute));
    }),
  );
}

/** Every `.js` file under dist/ (the npm build and the CDN files), sorted. */
export async function shippedScripts() {
  if (!existsSync(join(DIST, 'cdn'))) {
    throw new Error('dist/ holds no build (dist/cdn is missing): run `npm run build` first.');
  }
  const entries = await readdir(DIST, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Bundles `input` for production and minifies it the way the CDN build does (Lit's `production`
 * condition, no comments), leaving `external` imports out; returns the code of every chunk.
 */
async function minifiedBundle({ input, external = [], plugins = [] }) {
  const { build } = await import('vite');
  const output = await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    resolve: { conditions: ['production', 'browser', 'module'] },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    plugins,
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      rolldownOptions: {
        input,
        external,
        preserveEntrySignatures: 'strict',
        output: { format: 'es', minify: true, comments: { legal: false, annotation: false, jsdoc: false } },
      },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => result.output);
  return chunks
    .filter((chunk) => chunk.type === 'chunk')
    .map((chunk) => chunk.code)
    .join('\n');
}

/**
 * Bundles src/define.ts the way a merchant's bundler would see it (Lit external, minified like the
 * CDN files) and measures it: the bytes the element adds to a page that already has Lit.
 */
export async function elementOwnCode() {
  return measureBytes(OWN_CODE_NAME, await ownCodeBundle());
}

function ownCodeBundle() {
  return minifiedBundle({ input: join(ROOT, 'src/define.ts'), external: [/^lit(-html|-element)?(\/|$)/, /^@lit\//] });
}

/** How `ownLogicAlone()` names its result in reports. */
export const LOGIC_ALONE_NAME = "element's own code with every string and template text emptied (the logic alone)";

/**
 * Empties every string literal and every template text of `code` (shopper texts, messages, CSS, the
 * HTML of templates, import specifiers), keeping the quotes and everything else.
 */
export async function emptyStrings(code) {
  const { parseAst } = await import('vite');
  const cuts = [];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'Literal' && typeof node.value === 'string') cuts.push([node.start + 1, node.end - 1]);
    else if (node.type === 'TemplateElement') cuts.push([node.start, node.end]);
    for (const key of Object.keys(node)) if (node[key] && typeof node[key] === 'object') visit(node[key]);
  };
  visit(parseAst(code));
  return cuts
    .sort((a, b) => b[0] - a[0])
    .reduce((text, [start, end]) => text.slice(0, start) + text.slice(end), code);
}

/**
 * The element's own code with every string emptied: what its logic alone costs, before a single text,
 * style or template is counted. Above the own-code budget, it shows that no cut of texts meets it.
 */
export async function ownLogicAlone() {
  return measureBytes(LOGIC_ALONE_NAME, await emptyStrings(await ownCodeBundle()));
}

/** How `litAlone()` names its result in reports. */
export const LIT_ALONE_NAME = 'Lit alone (LitElement, html, css, nothing; production build)';

/**
 * Bundles just the parts of Lit the element imports, the way the CDN build does (production build,
 * minified), and measures them: the floor under every CDN file, and what a CDN budget leaves for the
 * element's own code.
 */
export async function litAlone() {
  const entry = 'virtual:lit-alone';
  const code = await minifiedBundle({
    input: entry,
    plugins: [
      {
        name: 'lit-alone',
        resolveId: (id) => (id === entry ? `\0${entry}` : null),
        load: (id) => (id === `\0${entry}` ? "export { LitElement, css, html, nothing } from 'lit';" : null),
      },
    ],
  });
  return measureBytes(LIT_ALONE_NAME, code);
}

/** Results above their budget, with how far above. */
export function overBudget(results, budgets = BUDGETS) {
  return budgets.flatMap((budget) => {
    const result = results.find((item) => item.name === budget.name);
    if (!result) return [{ ...budget, missing: true, over: 0, gzipBytes: 0 }];
    return result.gzip > budget.gzip ? [{ ...budget, missing: false, over: result.gzip - budget.gzip, gzipBytes: result.gzip }] : [];
  });
}

function table(results) {
  const width = Math.max(...results.map((result) => result.name.length));
  const budgetOf = (name) => BUDGETS.find((budget) => budget.name === name)?.gzip;
  const lines = [`${'file'.padEnd(width)}  ${'raw'.padStart(8)}  ${'gzip'.padStart(8)}  ${'brotli'.padStart(8)}  gzip budget`];
  for (const result of results) {
    const budget = budgetOf(result.name);
    lines.push(
      `${result.name.padEnd(width)}  ${String(result.raw).padStart(8)}  ${String(result.gzip).padStart(8)}  ${String(result.brotli).padStart(8)}  ${budget === undefined ? '' : `${budget} ${result.gzip > budget ? 'OVER' : 'ok'}`}`,
    );
  }
  return lines.join('\n');
}

function describe(item, limit) {
  return item.missing
    ? `size: ${item.name} was not found, so its ${limit} (${item.gzip} bytes gzip) cannot be checked.`
    : `size: ${item.name} is ${item.gzipBytes} bytes gzip, ${item.over} bytes over its ${limit} of ${item.gzip}.`;
}

async function main() {
  const ceilingsOnly = process.argv.includes('--ceilings');
  const results = [...(await measureFiles(await shippedScripts())), await elementOwnCode()];
  console.log(table(results));
  // The budget arithmetic: Lit is inside every CDN file, so a CDN budget leaves only the rest of it for
  // the element; the element's own code has its own budget beside it.
  const lit = await litAlone();
  const cdnBudget = BUDGETS[0].gzip;
  console.log(
    `\n${lit.name}: ${lit.raw} raw, ${lit.gzip} gzip, ${lit.brotli} brotli; a ${cdnBudget}-byte CDN budget leaves ${cdnBudget - lit.gzip} bytes gzip for the element inside it.`,
  );
  const logic = await ownLogicAlone();
  const ownBudget = BUDGETS[2].gzip;
  console.log(
    `${logic.name}: ${logic.raw} raw, ${logic.gzip} gzip, ${logic.brotli} brotli; ${logic.gzip > ownBudget ? `${logic.gzip - ownBudget} bytes over` : `${ownBudget - logic.gzip} bytes under`} the ${ownBudget}-byte own-code budget before any text, style or template.`,
  );
  const overGoal = overBudget(results);
  const overCeiling = overBudget(results, CEILINGS);
  if (overGoal.length === 0) console.log('\nAll sizes are within their budgets.');
  // With --ceilings a missed budget is news, not a failure; without, it is the failure.
  const tell = ceilingsOnly ? console.log : console.error;
  for (const item of overGoal) tell(`\n${describe(item, 'budget')}`);
  if (ceilingsOnly) {
    for (const item of overCeiling) console.error(`\n${describe(item, 'regression ceiling')}`);
    if (overCeiling.length === 0) console.log('\nNo file grew past its regression ceiling.');
  }
  if ((ceilingsOnly ? overCeiling : overGoal).length > 0) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`size: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
