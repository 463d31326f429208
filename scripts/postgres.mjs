// Finds (or installs) a PostgreSQL server and starts throwaway ones for the tests and benchmarks.
// Order: $POSTGRES_BIN (a folder with initdb and postgres), Debian's /usr/lib/postgresql/<version>/bin,
// then whatever `pg_config --bindir` names.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync, chownSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function canInstallWithApt() {
  return process.platform === 'linux' && isRoot() && existsSync('/usr/bin/apt-get') && existsSync('/etc/debian_version');
}

/** Finds PostgreSQL, installing Debian's package when that is possible; throws a helpful error otherwise. */
export function ensurePostgres({ log = console.error } = {}) {
  const found = findPostgres();
  if (found) return found;
  if (canInstallWithApt()) {
    log("No PostgreSQL found: installing Debian's postgresql package (apt-get)...");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'postgresql'], { stdio: 'inherit', env });
    const installed = findPostgres();
    if (installed) return installed;
  }
  throw new Error(
    [
      'No PostgreSQL server was found for the tests. Any one of these fixes it:',
      '  - set POSTGRES_BIN to the folder holding initdb and postgres;',
      '  - on Debian or Ubuntu: sudo apt-get install postgresql;',
      '  - elsewhere: install PostgreSQL 13 or newer (brew install postgresql, the EDB installer, ...).',
    ].join('\n'),
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
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
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const [initCommand, initArgs] = asServerUser(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  execFileSync(initCommand, initArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await freePort();
  const [command, args] = asServerUser(join(bin, 'postgres'), [
    '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
    // A throwaway server: durability is not the point, speed is.
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200',
  ]);
  let server;
  let exited;
  async function launch() {
    server = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    server.stderr.on('data', (chunk) => {
      output += chunk;
      log(String(chunk));
    });
    exited = new Promise((resolve) => server.once('exit', resolve));
    await new Promise((resolve, reject) => {
      const check = () => {
        if (/ready to accept connections/.test(output)) resolve();
        else if (server.exitCode !== null) reject(new Error(`postgres exited (${server.exitCode}):\n${output}`));
      };
      server.stderr.on('data', check);
      server.once('exit', check);
    });
  }
  async function shutDown() {
    if (server.exitCode !== null || server.signalCode !== null) return;
    // Signal postgres itself (its pid is the first line of postmaster.pid): runuser does not pass
    // SIGINT on. SIGINT is PostgreSQL's fast shutdown.
    try {
      process.kill(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGINT');
    } catch {
      server.kill('SIGINT');
    }
    await exited;
  }
  await launch();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await shutDown();
      rmSync(dir, { recursive: true, force: true });
    },
    pause: shutDown,
    async resume() {
      if (server.exitCode === null && server.signalCode === null) return;
      await launch();
    },
  };
}
