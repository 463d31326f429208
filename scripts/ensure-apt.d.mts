/** How long an apt-get waits for the lock another install holds, in seconds. */
export const APT_LOCK_TIMEOUT_SECONDS: number;
/** The option every apt-get here is given, so it waits for the lock instead of failing. */
export const APT_LOCK_OPTION: readonly string[];
/** The apt-get command lines that install `packages`, in order (refresh, install), each `[program, args]`. */
export function aptCommands(packages: readonly string[], options?: { recommends?: boolean }): Array<[string, string[]]>;
/** Installs Debian packages with apt-get (non-interactive, waiting for apt's lock). */
export function aptInstall(packages: readonly string[], options?: { recommends?: boolean }): void;
