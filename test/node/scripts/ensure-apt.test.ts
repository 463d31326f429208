/**
 * scripts/ensure-apt.mjs: every apt-get the test command's installers run waits for apt's lock
 * (`-o DPkg::Lock::Timeout=300`) instead of failing at once while another install holds it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aptCommands } from '../../../scripts/ensure-apt.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wpb-apt-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Whether `args` carries the lock option as one `-o` and its value. */
const waitsForLock = (args: readonly string[]) => args.some((arg, i) => arg === '-o' && args[i + 1] === 'DPkg::Lock::Timeout=300');

test('each apt-get command line carries -o DPkg::Lock::Timeout=300', () => {
  for (const recommends of [false, true]) {
    const commands = aptCommands(['php-cli', 'php-sqlite3'], { recommends });
    assert.deepEqual(commands.map(([, args]) => args.find((arg) => !arg.startsWith('-') && !arg.includes('::'))), ['update', 'install']);
    for (const [program, args] of commands) {
      assert.equal(program, 'apt-get');
      assert.ok(waitsForLock(args), `apt-get ${args.join(' ')} does not wait for the lock`);
    }
    const install = commands[1]![1];
    assert.deepEqual(install.slice(-2), ['php-cli', 'php-sqlite3']);
    assert.equal(install.includes('--no-install-recommends'), !recommends);
  }
});

test('aptInstall runs those command lines, non-interactive (an apt-get on the PATH records what it was given)', () => {
  const log = join(dir, 'calls.log');
  writeFileSync(join(dir, 'apt-get'), `#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> "${log}"\n`);
  chmodSync(join(dir, 'apt-get'), 0o755);
  const script = `import { aptInstall } from ${JSON.stringify(join(ROOT, 'scripts/ensure-apt.mjs'))}; aptInstall(['redis-server']);`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, PATH: `${dir}:${process.env['PATH']}` }, stdio: 'pipe', timeout: 30_000 });
  assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), [
    'noninteractive -o DPkg::Lock::Timeout=300 update -qq',
    'noninteractive -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends redis-server',
  ]);
});

test('the installers of the test command install through it, never with an apt-get of their own', () => {
  const installers = readdirSync(join(ROOT, 'scripts')).filter((name) => /^ensure-.*\.mjs$|^backends\.mjs$/.test(name) && name !== 'ensure-apt.mjs');
  assert.ok(installers.includes('backends.mjs') && installers.includes('ensure-postgres.mjs'), installers.join(', '));
  for (const name of installers) {
    const source = readFileSync(join(ROOT, 'scripts', name), 'utf8');
    assert.doesNotMatch(source, /execFileSync\(\s*['"]apt-get['"]/, `${name} runs apt-get itself`);
    const imported = /import \{[^}]*\baptInstall\b[^}]*\} from '([^']+)'/.exec(source);
    if (imported) assert.equal(imported[1], './ensure-apt.mjs', `${name} takes aptInstall from ${imported[1]}`);
  }
  assert.match(readFileSync(join(ROOT, 'scripts/backends.mjs'), 'utf8'), /import \{ aptInstall \} from '\.\/ensure-apt\.mjs'/);
});
