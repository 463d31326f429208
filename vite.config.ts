import { defineConfig } from 'vite';

/**
 * `vite` serves the playground under demo/; `vite build` builds the npm package into dist/
 * (ESM, one file per module, Lit external so a page never carries two Lits).
 */
export default defineConfig(({ command }) => {
  if (command === 'serve') {
    return {
      root: 'demo',
      server: { host: '127.0.0.1', port: 5173 },
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
