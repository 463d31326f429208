/** The PHP executable when it is PHP 8 or newer with pdo_sqlite, else undefined. */
export function findPhp(): string | undefined;
/** The Python executable when it is Python 3 with sqlite3, else undefined. */
export function findPython(): string | undefined;
/** Finds both, installing PHP with apt-get where possible (Debian, as root); throws an error naming the fix otherwise. */
export function ensureBackends(options?: { log?: (line: string) => void }): { php: string; python: string };
