/**
 * The package as a merchant gets it: `npm pack` of the built repository, installed with npm into a
 * fresh project in a temporary directory. Nothing of the repository is reachable from there, so what
 * is not in the tarball is missing, as it would be from the registry.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './support.js';

const run = promisify(execFile);

/** A shop project with the packed package installed; `dispose()` deletes it. */
export interface InstalledShop {
  /** The project's directory (its package.json is `"type": "module"`). */
  dir: string;
  /** `dir/node_modules/wallet-pay-button`. */
  packageDir: string;
  dispose(): Promise<void>;
}

/**
 * Packs the repository (it must be built: `npm run build`) and installs the tarball, with its
 * dependencies from the registry, into a new project. `extra` are more packages to install beside it.
 */
export async function installPackedShop(extra: string[] = []): Promise<InstalledShop> {
  const dir = await mkdtemp(join(tmpdir(), 'wallet-pay-shop-'));
  try {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const [packed] = JSON.parse(stdout) as [{ filename: string }];
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'a-shop', private: true, type: 'module' }, null, 2));
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', `./${packed.filename}`, ...extra], {
      cwd: dir,
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { dir, packageDir: join(dir, 'node_modules', 'wallet-pay-button'), dispose: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
