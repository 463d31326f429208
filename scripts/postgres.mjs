// Finds (or installs) a PostgreSQL server and starts throwaway ones for the tests and benchmarks.
// Order: $POSTGRES_BIN (a folder with initdb and postgres), Debian's /usr/lib/postgresql/<version>/bin,
// then whatever `pg_config --bindir` names.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findOrInstall, freePort, giveToServerUser, isRoot } from './host.mjs';
import { copyOfInitialised, serverProcess, throwawayControls } from './throwaway.mjs';

const DEBIAN_ROOT = '/usr/lib/postgresql';

/** Returns the folder holding `initdb` and `postgres`, or undefined. */
export function findPostgres() {
  const fromEnv = process.env.POSTGRES_BIN;
  if (fromEnv) {
    if (!existsSync(join(fromEnv, 'initdb'))) throw new Error(`POSTGRES_BIN is set to ${fromEnv}, but there is no initdb there.`);
    return fromEnv;
  }
  if (existsSync(DEBIAN_ROOT)) {
    const versions = readdirSync(DEBIAN_ROOT).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const bin = join(DEBIAN_ROOT, version, 'bin');
      if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return bin;
    }
  }
  try {
    const bin = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (existsSync(join(bin, 'initdb'))) return bin;
  } catch {
    // No pg_config on the path: fall through.
  }
  return undefined;
}

/** Finds PostgreSQL, installing Debian's package when that is possible; throws a helpful error otherwise. */
export function ensurePostgres({ log = console.error } = {}) {
  return findOrInstall({
    find: findPostgres,
    label: 'PostgreSQL server',
    packages: ['postgresql'],
    fixes: [
      'set POSTGRES_BIN to the folder holding initdb and postgres;',
      'on Debian or Ubuntu: sudo apt-get install postgresql;',
      'elsewhere: install PostgreSQL 13 or newer (brew install postgresql, the EDB installer, ...).',
    ],
    log,
  });
}

/** initdb and postgres refuse to run as root: as root, run them as the `postgres` system user. */
function asServerUser(command, args) {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/**
 * Starts a throwaway PostgreSQL server on 127.0.0.1 (a free port, data in a temporary folder) and
 * resolves once it accepts connections. `stop()` shuts it down and removes the folder.
 */
export async function startPostgres({ log = () => {} } = {}) {
  const bin = ensurePostgres();
  const dir = mkdtempSync(join(tmpdir(), 'wpb-postgres-'));
  const data = join(dir, 'data');
  giveToServerUser(dir, 'postgres');
  chmodSync(dir, 0o700);
  const initOptions = ['-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'];
  copyOfInitialised({
    name: 'postgres',
    key: [join(bin, 'initdb'), ...initOptions],
    user: 'postgres',
    data,
    init(folder) {
      const [initCommand, initArgs] = asServerUser(join(bin, 'initdb'), ['-D', folder, ...initOptions]);
      execFileSync(initCommand, initArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    },
  });
  const port = await freePort();
  const [command, args] = asServerUser(join(bin, 'postgres'), [
    '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
    // A throwaway server: durability is not the point, speed is.
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200',
  ]);
  const server = serverProcess({
    command,
    args,
    name: 'postgres',
    ready: /ready to accept connections/,
    log,
    // Signal postgres itself (its pid is the first line of postmaster.pid): runuser does not pass
    // signals on.
    signalServer(signal, child) {
      try {
        process.kill(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]), signal);
      } catch {
        child.kill(signal);
      }
    },
  });
  await server.launch();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    // SIGINT is PostgreSQL's fast shutdown.
    ...throwawayControls(server, dir, 'SIGINT'),
  };
}
