import { build, defineConfig, type Plugin, type UserConfig } from 'vite';
import type { PreRenderedChunk } from 'rolldown';
import { playground } from './demo/server/playground.js';
import { cdnIntegrity } from './scripts/cdn-integrity.mjs';
import { minifyLitTemplates } from './scripts/minify-templates.mjs';
import pkg from './package.json' with { type: 'json' };

/**
 * `vite` serves the playground under demo/ with the sandbox and the merchant kit mounted;
 * `vite build` builds the npm package into dist/ (ESM, one file per module, Lit external so a page
 * never carries two Lits; dynamic imports stay dynamic); `vite build --mode cdn` builds the CDN files
 * into dist/cdn/ (Lit inside, for a plain `<script>` tag): the ESM entry with its chunks beside it, the
 * classic IIFE file as one self-contained file, and integrity.json. Both builds minify the text of
 * Lit's `html`, `svg` and `css` templates (scripts/minify-templates.mjs), so the source stays readable.
 */
export default defineConfig(({ command, mode }) => {
  if (command === 'serve') {
    return {
      root: 'demo',
      server: { host: '127.0.0.1', port: 5173 },
      preview: { host: '127.0.0.1', port: 4173 },
      plugins: [playground()],
    };
  }
  return mode === 'cdn' ? cdnBuild() : npmBuild();
});

/** Bare imports the npm build leaves to the merchant's bundler: Lit, React, Node's built-ins. */
const NPM_EXTERNALS = [/^lit(-html|-element)?(\/|$)/, /^@lit\//, /^react(-dom)?(\/|$)/, /^node:/, /^yaml$/, /^playwright$/];

function npmBuild(): UserConfig {
  return {
    plugins: [minifyLitTemplates()],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: true,
      minify: false,
      lib: {
        entry: {
          index: 'src/index.ts',
          define: 'src/define.ts',
          react: 'src/react.ts',
          'protocol/index': 'src/protocol/index.ts',
          'wallet-pay-button': 'src/element/wallet-pay-button.ts',
          'server/index': 'src/server/index.ts',
          'server/node': 'src/server/node.ts',
          'server/postgres': 'src/server/postgres.ts',
          'server/mysql': 'src/server/mysql.ts',
          'server/redis': 'src/server/redis.ts',
          'server/store-suite': 'src/server/store-suite.ts',
          'server/providers': 'src/server/providers.ts',
          'server/provider-suite': 'src/server/provider-suite.ts',
          'sandbox/index': 'src/sandbox/index.ts',
          'sandbox/cli': 'src/sandbox/cli.ts',
          'check/index': 'src/check/index.ts',
          'check/cli': 'src/check/cli.ts',
          'testing/index': 'src/testing/index.ts',
        },
        formats: ['es'],
      },
      rolldownOptions: {
        external: NPM_EXTERNALS,
        output: {
          preserveModules: true,
          preserveModulesRoot: 'src',
          entryFileNames: '[name].js',
        },
      },
    },
  };
}

/** The CDN ESM entry's file name; its chunks sit beside it. */
export const CDN_ENTRY_FILE = 'wallet-pay-button.min.js';
/** The classic script's file name. */
export const CDN_IIFE_FILE = 'wallet-pay-button.iife.min.js';

/**
 * Names of the CDN chunks, by the module a chunk is the dynamic import of (its path ends with the key):
 * the size script tells the payment code from the Nepali texts by these names. A chunk of any other
 * module (one shared by two dynamic imports, say) is `chunk-[hash].min.js`.
 */
export const CDN_CHUNK_NAMES: Readonly<Record<string, string>> = {
  '/element/payment': 'payment',
  '/element/i18n/ne/texts': 'ne',
  '/element/handoff/index': 'handoff',
  '/element/setup-sentences': 'setup',
  '/element/inapp-panel': 'inapp',
  '/element/inapp-continue': 'continue',
};

/** `payment-[hash].min.js`, `ne-[hash].min.js`, else `chunk-[hash].min.js`. */
export function cdnChunkFileName(chunk: Pick<PreRenderedChunk, 'facadeModuleId'>): string {
  const module = (chunk.facadeModuleId ?? '').replace(/\\/g, '/').replace(/\.[cm]?[jt]sx?$/, '');
  const name = Object.entries(CDN_CHUNK_NAMES).find(([suffix]) => module.endsWith(suffix))?.[1] ?? 'chunk';
  return `${name}-[hash].min.js`;
}

/** What the CDN build builds: the element by default; a test builds a fixture the same way. */
export interface CdnBuildOptions {
  /** The module that registers the element. */
  entry?: string;
  /** Where the files go. */
  outDir?: string;
}

/**
 * The classic script's build turns each relative `import("./x.js")` of our own modules into a static
 * namespace import: the file stays one self-contained script, and the bundler keeps the modules flat.
 * Left to inline the dynamic imports itself, it wraps every module in a lazy initialiser, which costs
 * the file about 1.3 KB gzip.
 */
export function staticDynamicImports(): Plugin {
  return {
    name: 'wallet-pay:static-dynamic-imports',
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('import(')) return null;
      const heads: string[] = [];
      const out = code.replace(/\bimport\(\s*(['"`])(\.{1,2}\/[^'"`]+)\1\s*\)/g, (_match, _quote, specifier: string) => {
        const name = `__static_${heads.length}`;
        heads.push(`import * as ${name} from ${JSON.stringify(specifier)};`);
        return `Promise.resolve(${name})`;
      });
      return heads.length ? { code: `${heads.join('\n')}\n${out}`, map: null } : null;
    },
  };
}

/** After the ESM files are written, builds the classic script into the same directory. */
function classicScript(options: CdnBuildOptions): Plugin {
  let root = process.cwd();
  return {
    name: 'wallet-pay:classic-script',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async closeBundle() {
      await build({ configFile: false, root, logLevel: 'warn', ...cdnBuild({ ...options, classic: true }) });
    },
  };
}

/**
 * The CDN build: the ESM entry with its chunks beside it, then (a second build, started when the first
 * is written) the classic IIFE file as one file; integrity.json is rewritten after each.
 */
export function cdnBuild(options: CdnBuildOptions & { classic?: boolean } = {}): UserConfig {
  const { entry = 'src/define.ts', outDir = 'dist/cdn', classic = false } = options;
  return {
    plugins: [minifyLitTemplates(), ...(classic ? [staticDynamicImports()] : [classicScript({ entry, outDir })]), cdnIntegrity()],
    // Lit's `production` export condition: its production build, without the dev-mode warning
    // and checks a shopper's console has no use for.
    resolve: { conditions: ['production', 'browser', 'module'] },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: !classic,
      target: 'es2022',
      sourcemap: false,
      minify: true,
      lib: {
        entry,
        name: 'WalletPayButton',
        // The `es` output keeps the dynamic imports as chunks beside the entry, imported as
        // `import("./payment-….min.js")`, relative to the entry's own URL.
        formats: [classic ? 'iife' : 'es'],
        fileName: (format) => (format === 'es' ? CDN_ENTRY_FILE : CDN_IIFE_FILE),
      },
      rolldownOptions: {
        // The chunks import what they share with the entry (Lit, the element) from the entry itself, which
        // the page has already run; a strict signature would move all of it into a third, shared chunk.
        preserveEntrySignatures: 'allow-extension',
        output: {
          chunkFileNames: cdnChunkFileName,
          // Without this the `es` output keeps its whitespace (see shared toolchain notes).
          minify: true,
          // The Nepali texts as \u escapes: a classic script on a page that is not UTF-8, from a server
          // that names no charset, is decoded with the page's encoding and would garble them. Costs a
          // few gzip bytes.
          charset: 'ascii',
          // Pure-call annotations only help a later bundler, and Lit's per-file licence notices repeat the one banner below.
          comments: { legal: false, annotation: false, jsdoc: false },
          // Lit's BSD-3-Clause licence asks for its notice in every redistribution.
          postBanner: `/*! wallet-pay-button ${pkg.version} (MIT) | Lit (BSD-3-Clause, Google LLC) */`,
        },
      },
    },
  };
}
