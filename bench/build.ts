/**
 * Builds what the benchmark needs, itself, so `npm run bench` works on a fresh clone: the package
 * (`npm run build`, whose files the byte figures measure) and the benchmark page's script (Vite's
 * API, Lit's production build, minified, into a temporary directory).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minifyLitTemplates } from '../scripts/minify-templates.mjs';
import { viteBuild } from '../scripts/vite-build.mjs';
import { cdnBuild } from '../vite.config.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs the package's own build into dist/. */
export function buildPackage(): void {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** A built benchmark page: its directory holds `bench.js`; `dispose()` deletes it. */
export interface BuiltPage {
  dir: string;
  dispose(): void;
}

/** Bundles bench/pages/entry.ts (the element, the minimal Lit element, one shared Lit) for production. */
export async function buildBenchPage(): Promise<BuiltPage> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-pay-bench-'));
  try {
    await viteBuild({
      configFile: false,
      root: ROOT,
      mode: 'production',
      logLevel: 'warn',
      publicDir: false,
      // Both Lit cases use Lit's production build, as a merchant's production bundle would.
      resolve: { conditions: ['production', 'browser', 'module'] },
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      plugins: [minifyLitTemplates()],
      build: {
        outDir: dir,
        emptyOutDir: true,
        target: 'es2022',
        minify: true,
        sourcemap: false,
        lib: { entry: join(ROOT, 'bench/pages/entry.ts'), formats: ['es'], fileName: () => 'bench.js' },
        rolldownOptions: { output: { minify: true } },
      },
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Builds the minimal Lit button (bench/pages/minimal-button.ts) with the CDN build's own config: the
 * checkout benchmark's baseline page loads it as a merchant's page loads the element's CDN entry. The
 * directory holds `wallet-pay-button.min.js` (the CDN config's entry name), here the minimal button.
 */
export async function buildMinimalCdn(): Promise<BuiltPage> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-pay-bench-minimal-'));
  try {
    await viteBuild({ configFile: false, root: ROOT, mode: 'production', logLevel: 'warn', publicDir: false, ...cdnBuild({ entry: 'bench/pages/minimal-button.ts', outDir: dir }) });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
