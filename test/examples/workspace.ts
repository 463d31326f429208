/**
 * A merchant's workspace for the examples: the built package packed with `npm pack` and unpacked as
 * `node_modules/wallet-pay-button` of a temporary folder, beside links to the repository's other
 * installed packages (the frameworks and runtimes). Each example is copied into that folder, so it
 * resolves `wallet-pay-button` to the published files, never to `src/`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const EXAMPLES = join(ROOT, 'examples');
export const BIN = join(ROOT, 'node_modules', '.bin');

/** A temporary workspace with the packed package installed; `dispose()` removes it. */
export interface Workspace {
  dir: string;
  /** Copies `examples/<name>` into the workspace and returns the copy's folder. */
  copy(name: string): string;
  dispose(): void;
}

/** Packs the built package (run `npm run build` first), or takes `npm test`'s tarball, and lays out a workspace around it. */
export function createWorkspace(): Workspace {
  if (!existsSync(join(ROOT, 'dist', 'server', 'index.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the example tests (`npm run test:examples` does).');
  }
  const dir = mkdtempSync(join(tmpdir(), 'wpb-examples-'));
  try {
    const modules = join(dir, 'node_modules');
    mkdirSync(modules);
    // The tarball `npm test` packed once (test/support/with-packed-package.mjs), or one of its own.
    const packed =
      process.env.WALLET_PAY_PACKED ??
      join(dir, execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').at(-1)!);
    const target = join(modules, 'wallet-pay-button');
    mkdirSync(target);
    execFileSync('tar', ['-xzf', packed, '-C', target, '--strip-components=1']);
    // The rest of node_modules as links: the frameworks, the runtimes, pg, lit.
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name === 'wallet-pay-button' || name.startsWith('.')) continue;
      symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
    }
    symlinkSync(join(ROOT, 'node_modules', '.bin'), join(modules, '.bin'));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    copy(name) {
      const source = join(EXAMPLES, name);
      if (!statSync(source).isDirectory()) throw new Error(`No example ${name}.`);
      const copy = join(dir, name);
      cpSync(source, copy, { recursive: true });
      return copy;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
