/**
 * scripts/ensure-apt.mjs: every apt-get the test command's installers run waits for apt's lock
 * (`-o DPkg::Lock::Timeout=300`) instead of failing at once while another install holds it, those
 * that install through scripts/host.mjs (PostgreSQL, MariaDB, Redis, the browsers) included.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aptCommands, aptInstall } from '../../../scripts/ensure-apt.mjs';
import { aptInstall as hostAptInstall } from '../../../scripts/host.mjs';

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

/** Runs `script` (an ES module) with an apt-get on the PATH that records what it was given; its lines. */
function withRecordingAptGet(name: string, script: string): { calls: string[]; out: string } {
  const bin = join(dir, name);
  mkdirSync(bin);
  const log = join(bin, 'calls.log');
  writeFileSync(join(bin, 'apt-get'), `#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> "${log}"\n`);
  chmodSync(join(bin, 'apt-get'), 0o755);
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, PATH: `${bin}:${process.env['PATH']}` },
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 30_000,
  });
  return { calls: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [], out };
}

test("host.mjs installs with ensure-apt.mjs's aptInstall: findOrInstall (PostgreSQL, MariaDB, Redis) waits for the lock", () => {
  assert.equal(hostAptInstall, aptInstall, "host.mjs's aptInstall is ensure-apt.mjs's");
  const script = `import { findOrInstall } from ${JSON.stringify(join(ROOT, 'scripts/host.mjs'))};
let installed = false;
const found = findOrInstall({
  find: () => (installed ? '/usr/bin/redis-server' : undefined),
  label: 'Redis', packages: ['redis-server'], fixes: ['install it'],
  log: () => { installed = true; },
  canInstall: () => true,
});
console.log(found);`;
  const { calls, out } = withRecordingAptGet('host', script);
  assert.equal(out.trim(), '/usr/bin/redis-server');
  assert.deepEqual(calls, [
    'noninteractive -o DPkg::Lock::Timeout=300 update -qq',
    'noninteractive -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends redis-server',
  ]);
});

test('host.mjs, and every script that installs through it, runs no apt-get of its own', () => {
  const host = readFileSync(join(ROOT, 'scripts/host.mjs'), 'utf8');
  assert.doesNotMatch(host, /['"]apt-get['"]/, 'host.mjs runs apt-get itself');
  assert.match(host, /import \{ aptInstall \} from '\.\/ensure-apt\.mjs'/);
  const throughHost = readdirSync(join(ROOT, 'scripts')).filter((name) => {
    if (!name.endsWith('.mjs')) return false;
    const imported = /import \{([^}]*)\} from '\.\/host\.mjs'/.exec(readFileSync(join(ROOT, 'scripts', name), 'utf8'));
    return imported !== null && /\b(aptInstall|findOrInstall)\b/.test(imported[1]!);
  });
  assert.deepEqual(throughHost.sort(), ['browsers.mjs', 'mariadb.mjs', 'postgres.mjs', 'redis.mjs']);
  for (const name of throughHost) {
    assert.doesNotMatch(readFileSync(join(ROOT, 'scripts', name), 'utf8'), /(execFileSync|execSync|spawnSync|spawn)\(\s*['"]apt-get['"]/, `${name} runs apt-get itself`);
  }
});
