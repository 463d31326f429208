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
 * The paths `npm pack` ships: the listing of the tarball `npm test` packed once
 * (test/support/with-packed-package.mjs), else of a dry run.
 */
export async function packedPaths(): Promise<string[]> {
  const tarball = process.env.WALLET_PAY_PACKED;
  if (tarball) {
    const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
    return stdout.split('\n').filter((line) => line && !line.endsWith('/')).map((line) => line.replace(/^package\//, ''));
  }
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 });
  const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
  return packed.files.map((file) => file.path);
}

/**
 * Packs the repository (it must be built: `npm run build`), or takes the tarball `npm test` packed
 * once, and installs it, with its dependencies from the registry, into a new project. `extra` are
 * more packages to install beside it.
 */
export async function installPackedShop(extra: string[] = []): Promise<InstalledShop> {
  const dir = await mkdtemp(join(tmpdir(), 'wallet-pay-shop-'));
  try {
    let tarball = process.env.WALLET_PAY_PACKED;
    if (!tarball) {
      const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
      tarball = join(dir, (JSON.parse(stdout) as [{ filename: string }])[0].filename);
    }
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'a-shop', private: true, type: 'module' }, null, 2));
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', tarball, ...extra], {
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
