import { defineConfig } from 'vite';
import { playground } from './demo/server/playground.js';

/**
 * `vite` serves the playground under demo/ with the sandbox and the merchant kit mounted;
 * `vite build` builds the npm package into dist/ (ESM, one file per module, Lit external so a page
 * never carries two Lits).
 */
export default defineConfig(({ command }) => {
  if (command === 'serve') {
    return {
      root: 'demo',
      server: { host: '127.0.0.1', port: 5173 },
      preview: { host: '127.0.0.1', port: 4173 },
      plugins: [playground()],
    };
  }
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
          'wallet-pay-button': 'src/wallet-pay-button.ts',
          'server/index': 'src/server/index.ts',
          'server/node': 'src/server/node.ts',
          'sandbox/index': 'src/sandbox/index.ts',
          'sandbox/cli': 'src/sandbox/cli.ts',
        },
        formats: ['es'],
      },
      rolldownOptions: {
        external: [/^lit(\/|$)/, /^@lit\//, /^node:/],
        output: {
          preserveModules: true,
          preserveModulesRoot: 'src',
          entryFileNames: '[name].js',
        },
      },
    },
  };
});
