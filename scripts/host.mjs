// What the scripts that find (or install) the test programs share: whether Debian's apt-get may be
// used, the installing itself, a free loopback port, and handing a folder to a system user.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';

/** Whether this process runs as root (servers that refuse root then run as their system user). */
export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Whether missing programs may be installed here: Debian (or a derivative), as root, with apt-get. */
export function canInstallWithApt() {
  return process.platform === 'linux' && isRoot() && existsSync('/usr/bin/apt-get') && existsSync('/etc/debian_version');
}

/** Installs Debian packages with apt-get (non-interactive), after refreshing the package lists. */
export function aptInstall(packages, { recommends = false } = {}) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...(recommends ? [] : ['--no-install-recommends']), ...packages], { stdio: 'inherit', env });
}

/**
 * Finds a program with `find`; when it is missing and apt-get may be used, installs Debian's
 * `packages` and looks again; otherwise throws an error whose lines (`fixes`) name the fixes.
 */
export function findOrInstall({ find, label, packages, fixes, log = console.error }) {
  const found = find();
  if (found) return found;
  if (canInstallWithApt()) {
    log(`No ${label} found: installing Debian's ${packages.join(' ')} (apt-get)...`);
    aptInstall(packages);
    const installed = find();
    if (installed) return installed;
  }
  throw new Error([`No ${label} was found for the tests. Any one of these fixes it:`, ...fixes.map((fix) => `  - ${fix}`)].join('\n'));
}

/** A port free on 127.0.0.1 right now (the system picks it), for a server that cannot take port 0. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** As root, gives `dir` to the system user `user` (the one a server that refuses root runs as). */
export function giveToServerUser(dir, user) {
  if (!isRoot()) return;
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
}
