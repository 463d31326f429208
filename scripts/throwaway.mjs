// Runs one throwaway server process for the tests and benchmarks (PostgreSQL, MariaDB, Redis): starts
// it, waits (within a time limit) for the line that says it accepts connections, and stops it with a
// signal. `launch()` may be called again after a stop: same command, same port, same data.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { giveToServerUser } from './host.mjs';

/**
 * Fills `data` (a path that does not exist yet) with a copy of a freshly initialised data folder.
 * Initialising (initdb, mariadb-install-db) takes seconds of a loaded machine, copying a fraction of
 * that, so the first caller initialises a template once and every later one copies it. The template
 * sits in the temporary folder under a name made of `key` (the program, its file's time, the options),
 * the user and `name`; it is made complete under another name and then renamed, so a caller sees a whole
 * template or none, and it is never written again. `init(folder)` fills a folder; `user` (as root) is
 * the system user that owns the folders.
 */
export function copyOfInitialised({ name, key, init, data, user }) {
  const program = key[0];
  const digest = createHash('sha256')
    .update(JSON.stringify([...key, statSync(program).mtimeMs, process.getuid?.() ?? 0]))
    .digest('hex')
    .slice(0, 16);
  const template = join(tmpdir(), `wpb-${name}-template-${digest}`);
  if (!existsSync(template)) {
    const building = mkdtempSync(join(tmpdir(), `wpb-${name}-initialising-`));
    try {
      giveToServerUser(building, user);
      init(join(building, 'data'));
      renameSync(building, template);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      // Another file finished the same template first: use theirs.
      if (!existsSync(template)) throw error;
    }
  }
  // -a keeps the owner (the server's user, as root) and the modes the servers insist on.
  execFileSync('cp', ['-a', join(template, 'data'), data], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * `name`: for messages; `ready`: the pattern of the server's ready line (read from stdout and stderr);
 * `readyWithinMs`: how long a start may take before it fails with the output so far; `signalServer`:
 * how a signal reaches the server, when it is not the spawned process itself (runuser does not pass
 * signals on).
 */
export function serverProcess({ command, args, name, ready, readyWithinMs = 60_000, log = () => {}, signalServer }) {
  let child;
  let exited;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  async function launch() {
    child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // Not ready in time: it is not left running (nor keeping the test's process alive).
        child.kill('SIGKILL');
        reject(new Error(`${name} was not ready within ${readyWithinMs / 1000} s:\n${output}`));
      }, readyWithinMs);
      const check = () => {
        if (ready.test(output)) {
          clearTimeout(timer);
          resolve();
        } else if (child.exitCode !== null || child.signalCode !== null) {
          clearTimeout(timer);
          reject(new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${output}`));
        }
      };
      const take = (chunk) => {
        output += chunk;
        log(String(chunk));
        check();
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      child.once('exit', check);
    });
  }
  async function stop(signal = 'SIGTERM') {
    if (!running()) return;
    if (signalServer) signalServer(signal, child);
    else child.kill(signal);
    await exited;
  }
  return {
    launch,
    stop,
    /** Starts it again after a stop or a kill; does nothing while it runs. */
    async resume() {
      if (!running()) await launch();
    },
  };
}

/**
 * What a test does with a throwaway server: `stop()` (and remove its folder `dir`), `pause()` (a clean
 * stop with `stopSignal`), `kill()` (SIGKILL), `resume()`, on the same port with the same data.
 */
export function throwawayControls(server, dir, stopSignal = 'SIGTERM') {
  return {
    async stop() {
      await server.stop(stopSignal);
      rmSync(dir, { recursive: true, force: true });
    },
    pause: () => server.stop(stopSignal),
    kill: () => server.stop('SIGKILL'),
    resume: server.resume,
  };
}
