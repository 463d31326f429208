// Finds (or installs) a MariaDB server and starts throwaway ones for the tests and benchmarks.
// Order: $MARIADB_BIN (a folder with mariadbd and mariadb-install-db), then the usual Debian places.
import { existsSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findOrInstall, freePort, giveToServerUser, isRoot } from './host.mjs';
import { copyOfInitialised, serverProcess, throwawayControls } from './throwaway.mjs';

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

/** Finds MariaDB, installing Debian's package when that is possible; throws a helpful error otherwise. */
export function ensureMariadb({ log = console.error } = {}) {
  return findOrInstall({
    find: findMariadb,
    label: 'MariaDB server',
    packages: ['mariadb-server'],
    fixes: [
      'set MARIADB_BIN to the folder holding mariadbd and mariadb-install-db;',
      'on Debian or Ubuntu: sudo apt-get install mariadb-server;',
      'elsewhere: install MariaDB 10.11 or newer.',
    ],
    log,
  });
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
  giveToServerUser(dir, 'mysql');
  const installOptions = [...user, '--auth-root-authentication-method=normal', '--skip-test-db', '--skip-name-resolve'];
  copyOfInitialised({
    name: 'mariadb',
    key: [install, ...installOptions],
    user: 'mysql',
    data,
    init(folder) {
      execFileSync(install, [`--datadir=${folder}`, ...installOptions], { stdio: ['ignore', 'ignore', 'pipe'] });
    },
  });
  const port = await freePort();
  const args = [
    '--no-defaults', `--datadir=${data}`, ...user, `--port=${port}`, '--bind-address=127.0.0.1',
    `--socket=${join(dir, 's.sock')}`, `--pid-file=${join(dir, 'server.pid')}`, '--skip-grant-tables', '--skip-name-resolve',
    '--max-connections=300', '--innodb-buffer-pool-size=32M',
    `--innodb-flush-log-at-trx-commit=${durable ? 1 : 0}`, '--skip-log-bin', ...(durable ? [] : ['--innodb-doublewrite=0']),
  ];
  const server = serverProcess({ command: bin, args, name: 'mariadbd', ready: /ready for connections/, log });
  await server.launch();
  return {
    uri: `mysql://root@127.0.0.1:${port}/`,
    port,
    ...throwawayControls(server, dir),
  };
}
