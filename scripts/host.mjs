// What the scripts that find (or install) the test programs share: whether Debian's apt-get may be
// used, the installing itself, a free loopback port, and handing a folder to a system user.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { aptInstall } from './ensure-apt.mjs';

/** Whether this process runs as root (servers that refuse root then run as their system user). */
export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Whether missing programs may be installed here: Debian (or a derivative), as root, with apt-get. */
export function canInstallWithApt() {
  return process.platform === 'linux' && isRoot() && existsSync('/usr/bin/apt-get') && existsSync('/etc/debian_version');
}

// One apt-get for every installer: ensure-apt.mjs's waits for apt's lock, where a second apt-get would
// fail at once while an unattended upgrade or another test run installs. Re-exported for the scripts
// that take it from here.
export { aptInstall };

/**
 * Finds a program with `find`; when it is missing and apt-get may be used (`canInstall`, by default
 * {@link canInstallWithApt}), installs Debian's `packages` and looks again; otherwise throws an error
 * whose lines (`fixes`) name the fixes.
 */
export function findOrInstall({ find, label, packages, fixes, log = console.error, canInstall = canInstallWithApt }) {
  const found = find();
  if (found) return found;
  if (canInstall()) {
    log(`No ${label} found: installing Debian's ${packages.join(' ')} (apt-get)...`);
    aptInstall(packages);
    const installed = find();
    if (installed) return installed;
  }
  throw new Error([`No ${label} was found for the tests. Any one of these fixes it:`, ...fixes.map((fix) => `  - ${fix}`)].join('\n'));
}

/**
 * The ports the system hands out itself (a server on port 0, the local end of every connection): Linux's
 * `ip_local_port_range`, else the IANA range most systems use.
 */
export function ephemeralPorts(read = () => readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')) {
  try {
    const [low, high] = read().trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low > 0 && high >= low) return { low, high };
  } catch {
    // Not Linux: the IANA range.
  }
  return { low: 49152, high: 65535 };
}

/**
 * A port free on 127.0.0.1 right now, for a server that cannot take port 0: picked at random outside
 * the ports the system hands out itself. A port the system picked (and took back) could be handed to
 * another process's server on port 0, or to the local end of a connection, before the caller's server
 * listens: the caller then met "address already in use", or its client reached another test's server.
 */
export async function freePort(range = ephemeralPorts()) {
  const { low, high } = range;
  // Below the system's range (above the usual servers' ports) when there is room, else above it.
  const [from, to] = low - 10_000 >= 1_000 ? [10_000, low - 1] : [high + 1, 65_535];
  if (to - from + 1 < 1_000) {
    throw new Error(`The system hands out ports ${low}-${high} itself, which leaves no 1,000 ports for the tests between 10000 and 65535: narrow net.ipv4.ip_local_port_range.`);
  }
  for (let tries = 0; tries < 50; tries += 1) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port on 127.0.0.1 between ${from} and ${to} after 50 tries.`);
}

/** Whether a server could listen on `port` of 127.0.0.1 now (nothing holds it). */
export function canListen(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** As root, gives `dir` to the system user `user` (the one a server that refuses root runs as). */
export function giveToServerUser(dir, user) {
  if (!isRoot()) return;
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
}
