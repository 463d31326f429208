// `node test/support/with-packed-package.mjs COMMAND ARGS...`: packs the built package once
// (`npm pack`, run `npm run build` first), runs the command with WALLET_PAY_PACKED set to the
// tarball's path, then deletes the tarball and exits with the command's code. The test files that
// install the package (test/package, test/examples) take that tarball instead of each packing their
// own; run alone, without the variable, each packs for itself.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node test/support/with-packed-package.mjs COMMAND [ARGS...]');
  process.exit(2);
}
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wallet-pay-packed-'));
let code = 1;
try {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const [packed] = JSON.parse(out);
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, WALLET_PAY_PACKED: join(dir, packed.filename) } });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  code = await new Promise((resolve) => child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
