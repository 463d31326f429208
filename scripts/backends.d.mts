/** The PHP executable when it is PHP 8 or newer with pdo_sqlite, else undefined. */
export function findPhp(): string | undefined;
/** The Python executable when it is Python 3 with sqlite3, else undefined. */
export function findPython(): string | undefined;
/** Finds both, installing PHP with apt-get where possible (Debian, as root); throws an error naming the fix otherwise. */
export function ensureBackends(options?: { log?: (line: string) => void }): { php: string; python: string };
/** PHP-FPM (with pdo_sqlite) and nginx for the PHP example's production recipe, installing them with apt-get where possible (Debian, as root); throws an error naming the packages otherwise. */
export function ensurePhpProduction(options?: { log?: (line: string) => void }): { phpFpm: string; nginx: string };
