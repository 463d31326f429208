// Finds (or installs) a Redis server and starts throwaway ones for the tests and benchmarks.
// Order: $REDIS_SERVER (the path of redis-server or valkey-server), then redis-server and
// valkey-server in the usual places.
import { existsSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findOrInstall, freePort } from './host.mjs';
import { serverProcess, throwawayControls } from './throwaway.mjs';

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

/** Finds Redis, installing Debian's package when that is possible; throws a helpful error otherwise. */
export function ensureRedis({ log = console.error } = {}) {
  return findOrInstall({
    find: findRedis,
    label: 'Redis server',
    packages: ['redis-server'],
    fixes: [
      'set REDIS_SERVER to the path of redis-server (or valkey-server);',
      'on Debian or Ubuntu: sudo apt-get install redis-server;',
      'elsewhere: install Redis 6.2 or newer, or Valkey.',
    ],
    log,
  });
}

/** The server's version line, e.g. `Redis server v=7.0.15 ...`. */
export function redisVersion(server = ensureRedis()) {
  return execFileSync(server, ['--version'], { encoding: 'utf8' }).trim();
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
  const server = serverProcess({ command: bin, args, name: 'redis-server', ready: /Ready to accept connections/, readyWithinMs: 30_000, log });
  await server.launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    ...throwawayControls(server, dir),
  };
}
