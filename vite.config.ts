import { defineConfig, type UserConfig } from 'vite';
import { playground } from './demo/server/playground.js';
import pkg from './package.json' with { type: 'json' };

/**
 * `vite` serves the playground under demo/ with the sandbox and the merchant kit mounted;
 * `vite build` builds the npm package into dist/ (ESM, one file per module, Lit external so a page
 * never carries two Lits); `vite build --mode cdn` builds the two self-contained CDN files into
 * dist/cdn/ (Lit inside, for a plain `<script>` tag).
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
const NPM_EXTERNALS = [/^lit(-html|-element)?(\/|$)/, /^@lit\//, /^react(-dom)?(\/|$)/, /^node:/];

function npmBuild(): UserConfig {
  return {
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
          'wallet-pay-button': 'src/element/wallet-pay-button.ts',
          'server/index': 'src/server/index.ts',
          'server/node': 'src/server/node.ts',
          'server/postgres': 'src/server/postgres.ts',
          'sandbox/index': 'src/sandbox/index.ts',
          'sandbox/cli': 'src/sandbox/cli.ts',
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

function cdnBuild(): UserConfig {
  return {
    // Lit's `production` export condition: its production build, without the dev-mode warning
    // and checks a shopper's console has no use for.
    resolve: { conditions: ['production', 'browser', 'module'] },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: 'dist/cdn',
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      minify: true,
      lib: {
        entry: 'src/define.ts',
        name: 'WalletPayButton',
        formats: ['es', 'iife'],
        fileName: (format) => (format === 'es' ? 'wallet-pay-button.min.js' : 'wallet-pay-button.iife.min.js'),
      },
      rolldownOptions: {
        output: {
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
