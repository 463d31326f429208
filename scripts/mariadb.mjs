// Finds (or installs) a MariaDB server and starts throwaway ones for the tests and benchmarks.
// Order: $MARIADB_BIN (a folder with mariadbd and mariadb-install-db), then the usual Debian places.
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

const PLACES = [
  { server: '/usr/sbin/mariadbd', install: '/usr/bin/mariadb-install-db' },
  { server: '/usr/bin/mariadbd', install: '/usr/bin/mariadb-install-db' },
  { server: '/usr/local/bin/mariadbd', install: '/usr/local/bin/mariadb-install-db' },
];

/** Returns `{ server, install }` (the paths of mariadbd and mariadb-install-db), or undefined. */
export function findMariadb() {
  const fromEnv = process.env.MARIADB_BIN;
  if (fromEnv) {
    const found = { server: join(fromEnv, 'mariadbd'), install: join(fromEnv, 'mariadb-install-db') };
    if (!existsSync(found.server) || !existsSync(found.install)) throw new Error(`MARIADB_BIN is set to ${fromEnv}, but mariadbd and mariadb-install-db are not both there.`);
    return found;
  }
  return PLACES.find((place) => existsSync(place.server) && existsSync(place.install));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function canInstallWithApt() {
  return process.platform === 'linux' && isRoot() && existsSync('/usr/bin/apt-get') && existsSync('/etc/debian_version');
}

/** Finds MariaDB, installing Debian's package when that is possible; throws a helpful error otherwise. */
export function ensureMariadb({ log = console.error } = {}) {
  const found = findMariadb();
  if (found) return found;
  if (canInstallWithApt()) {
    log("No MariaDB found: installing Debian's mariadb-server package (apt-get)...");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'mariadb-server'], { stdio: 'inherit', env });
    const installed = findMariadb();
    if (installed) return installed;
  }
  throw new Error(
    [
      'No MariaDB server was found for the tests. Any one of these fixes it:',
      '  - set MARIADB_BIN to the folder holding mariadbd and mariadb-install-db;',
      '  - on Debian or Ubuntu: sudo apt-get install mariadb-server;',
      '  - elsewhere: install MariaDB 10.11 or newer.',
    ].join('\n'),
  );
}

/** The server's version line, e.g. `mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu`. */
export function mariadbVersion(server = ensureMariadb().server) {
  return execFileSync(server, ['--version'], { encoding: 'utf8' }).trim();
}

/**
 * Starts a throwaway MariaDB server on 127.0.0.1 (a free port, data in a temporary folder, no
 * passwords) and resolves once it accepts connections. `stop()` shuts it down and removes the folder;
 * `pause()` and `resume()` stop and start it on the same port with the same data, `kill()` kills it
 * (SIGKILL). `durable`: each commit flushed to disk before it is acknowledged (InnoDB's default),
 * else once a second (faster, for tests that never kill it).
 */
export async function startMariadb({ log = () => {}, durable = false } = {}) {
  const { server: bin, install } = ensureMariadb();
  const dir = mkdtempSync(join(tmpdir(), 'wpb-mariadb-'));
  const data = join(dir, 'data');
  // As root the server runs as the `mysql` system user, which must own its folder.
  const user = isRoot() ? ['--user=mysql'] : [];
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'mysql'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'mysql'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  execFileSync(install, [`--datadir=${data}`, ...user, '--auth-root-authentication-method=normal', '--skip-test-db', '--skip-name-resolve'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await freePort();
  const args = [
    '--no-defaults', `--datadir=${data}`, ...user, `--port=${port}`, '--bind-address=127.0.0.1',
    `--socket=${join(dir, 's.sock')}`, `--pid-file=${join(dir, 'server.pid')}`, '--skip-grant-tables', '--skip-name-resolve',
    '--max-connections=300', '--innodb-buffer-pool-size=32M',
    `--innodb-flush-log-at-trx-commit=${durable ? 1 : 0}`, '--skip-log-bin', ...(durable ? [] : ['--innodb-doublewrite=0']),
  ];
  let server;
  let exited;
  async function launch() {
    server = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    server.stderr.on('data', (chunk) => {
      output += chunk;
      log(String(chunk));
    });
    exited = new Promise((resolve) => server.once('exit', resolve));
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mariadbd was not ready within 60 s:\n${output}`)), 60_000);
      const check = () => {
        if (/ready for connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        } else if (server.exitCode !== null) {
          clearTimeout(timer);
          reject(new Error(`mariadbd exited (${server.exitCode}):\n${output}`));
        }
      };
      server.stderr.on('data', check);
      server.once('exit', check);
    });
  }
  async function shutDown(signal = 'SIGTERM') {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.kill(signal);
    await exited;
  }
  await launch();
  return {
    uri: `mysql://root@127.0.0.1:${port}/`,
    port,
    async stop() {
      await shutDown();
      rmSync(dir, { recursive: true, force: true });
    },
    pause: () => shutDown(),
    kill: () => shutDown('SIGKILL'),
    async resume() {
      if (server.exitCode === null && server.signalCode === null) return;
      await launch();
    },
  };
}
