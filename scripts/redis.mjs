// Finds (or installs) a Redis server and starts throwaway ones for the tests and benchmarks.
// Order: $REDIS_SERVER (the path of redis-server or valkey-server), then redis-server and
// valkey-server in the usual places.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PLACES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/bin/valkey-server', '/usr/local/bin/valkey-server', '/opt/homebrew/bin/redis-server'];

/** Returns the path of redis-server (or valkey-server), or undefined. */
export function findRedis() {
  const fromEnv = process.env.REDIS_SERVER;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`REDIS_SERVER is set to ${fromEnv}, but there is no such file.`);
    return fromEnv;
  }
  return PLACES.find((place) => existsSync(place));
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function canInstallWithApt() {
  return process.platform === 'linux' && isRoot() && existsSync('/usr/bin/apt-get') && existsSync('/etc/debian_version');
}

/** Finds Redis, installing Debian's package when that is possible; throws a helpful error otherwise. */
export function ensureRedis({ log = console.error } = {}) {
  const found = findRedis();
  if (found) return found;
  if (canInstallWithApt()) {
    log("No Redis found: installing Debian's redis-server package (apt-get)...");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], { stdio: 'inherit', env });
    const installed = findRedis();
    if (installed) return installed;
  }
  throw new Error(
    [
      'No Redis server was found for the tests. Any one of these fixes it:',
      '  - set REDIS_SERVER to the path of redis-server (or valkey-server);',
      '  - on Debian or Ubuntu: sudo apt-get install redis-server;',
      '  - elsewhere: install Redis 6.2 or newer, or Valkey.',
    ].join('\n'),
  );
}

/** The server's version line, e.g. `Redis server v=7.0.15 ...`. */
export function redisVersion(server = ensureRedis()) {
  return execFileSync(server, ['--version'], { encoding: 'utf8' }).trim();
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

/**
 * Starts a throwaway Redis server on 127.0.0.1 (a free port, data in a temporary folder) with the
 * durable settings docs/server.md names: the append-only file, fsynced on every write, and no
 * snapshots. `stop()` shuts it down and removes the folder; `pause()` shuts it down (SIGTERM), `kill()`
 * kills it (SIGKILL: what it acknowledged must survive), `resume()` starts it on the same port with
 * the same data.
 */
export async function startRedis({ log = () => {} } = {}) {
  const bin = ensureRedis();
  const dir = mkdtempSync(join(tmpdir(), 'wpb-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no', '--protected-mode', 'yes'];
  let server;
  let exited;
  async function launch() {
    server = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (chunk) => {
      output += chunk;
      log(String(chunk));
    };
    server.stdout.on('data', take);
    server.stderr.on('data', take);
    exited = new Promise((resolve) => server.once('exit', resolve));
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server was not ready within 30 s:\n${output}`)), 30_000);
      const check = () => {
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        } else if (server.exitCode !== null) {
          clearTimeout(timer);
          reject(new Error(`redis-server exited (${server.exitCode}):\n${output}`));
        }
      };
      server.stdout.on('data', check);
      server.stderr.on('data', check);
      server.once('exit', check);
    });
  }
  async function shutDown(signal) {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.kill(signal);
    await exited;
  }
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await shutDown('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
    pause: () => shutDown('SIGTERM'),
    kill: () => shutDown('SIGKILL'),
    async resume() {
      if (server.exitCode === null && server.signalCode === null) return;
      await launch();
    },
  };
}
