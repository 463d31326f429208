// How the test command's installers run apt-get: non-interactive, and waiting up to five minutes for
// apt's lock when another install holds it (an unattended upgrade, a second `npm test`), where apt-get
// would otherwise fail at once with "Could not get lock /var/lib/dpkg/lock-frontend".
import { execFileSync } from 'node:child_process';

/** How long an apt-get waits for the lock another install holds, in seconds. */
export const APT_LOCK_TIMEOUT_SECONDS = 300;

/** The option every apt-get here is given, so it waits for the lock instead of failing. */
export const APT_LOCK_OPTION = ['-o', `DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT_SECONDS}`];

/**
 * The apt-get command lines that install `packages`, in order: refresh the package lists, then install
 * (without recommended packages unless `recommends`). Each is `[program, args]`.
 */
export function aptCommands(packages, { recommends = false } = {}) {
  return [
    ['apt-get', [...APT_LOCK_OPTION, 'update', '-qq']],
    ['apt-get', [...APT_LOCK_OPTION, 'install', '-y', '-qq', ...(recommends ? [] : ['--no-install-recommends']), ...packages]],
  ];
}

/** Installs Debian packages with apt-get (non-interactive, waiting for apt's lock). */
export function aptInstall(packages, options = {}) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const [program, args] of aptCommands(packages, options)) execFileSync(program, args, { stdio: 'inherit', env });
}
