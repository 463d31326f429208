// Finds (or installs) what the example proxies in examples/backends/ need: PHP 8 with pdo_sqlite for
// the PHP one, Python 3 (standard library, sqlite3) for the Python one. Order: $PHP_PATH / $PYTHON_PATH,
// then the program on the PATH. On Debian, as root, a missing PHP is installed with apt-get
// (`php-cli php-sqlite3`), waiting for apt's lock when another install holds it (scripts/ensure-apt.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { aptInstall } from './ensure-apt.mjs';
import { canInstallWithApt } from './host.mjs';

/** Runs `program args` and returns its stdout, or undefined when it cannot be run or fails. */
function run(program, args) {
  try {
    return execFileSync(program, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 }).trim();
  } catch {
    return undefined;
  }
}

/** The PHP executable when it is PHP 8 or newer with pdo_sqlite, else undefined. */
export function findPhp() {
  const program = process.env.PHP_PATH || 'php';
  const out = run(program, ['-r', 'echo PHP_MAJOR_VERSION, " ", extension_loaded("pdo_sqlite") ? "yes" : "no";']);
  if (!out) return undefined;
  const [major, sqlite] = out.split(' ');
  return Number(major) >= 8 && sqlite === 'yes' ? program : undefined;
}

/** The Python executable when it is Python 3 with sqlite3, else undefined. */
export function findPython() {
  for (const program of [process.env.PYTHON_PATH, 'python3'].filter(Boolean)) {
    const out = run(program, ['-c', 'import sqlite3, sys; print(sys.version_info[0])']);
    if (out === '3') return program;
  }
  return undefined;
}

/** Finds both, installing PHP with apt-get where possible; throws an error naming the fix otherwise. */
export function ensureBackends({ log = console.error } = {}) {
  let php = findPhp();
  if (!php && canInstallWithApt()) {
    log("No PHP 8 with pdo_sqlite found: installing Debian's php-cli and php-sqlite3 (apt-get)...");
    aptInstall(['php-cli', 'php-sqlite3']);
    php = findPhp();
  }
  const python = findPython();
  const missing = [];
  if (!php) missing.push('  PHP 8 with pdo_sqlite: set PHP_PATH, or on Debian/Ubuntu: sudo apt-get install php-cli php-sqlite3;');
  if (!python) missing.push('  Python 3 with sqlite3: set PYTHON_PATH, or install Python 3 (python3 on the PATH);');
  if (missing.length > 0) throw new Error(['The example proxies need programs that were not found:', ...missing].join('\n'));
  return { php, python };
}

/**
 * PHP-FPM (with pdo_sqlite) and nginx, for the PHP example's production recipe: $PHP_FPM_PATH / $NGINX_PATH,
 * then Debian's places. On Debian, as root, missing ones are installed with apt-get (`nginx-light
 * php8.2-fpm php8.2-sqlite3`); otherwise throws an error naming those packages.
 */
export function ensurePhpProduction({ log = console.error } = {}) {
  const fpmWithSqlite = (p) => (run(p, ['-m']) ?? '').split('\n').includes('pdo_sqlite');
  const sbinFpm = () => (existsSync('/usr/sbin') ? readdirSync('/usr/sbin').filter((n) => /^php-fpm[\d.]*$/.test(n)).sort().reverse().map((n) => `/usr/sbin/${n}`) : []);
  const find = () => ({
    phpFpm: [process.env.PHP_FPM_PATH, '/usr/sbin/php-fpm8.2', ...sbinFpm(), 'php-fpm'].filter(Boolean).find(fpmWithSqlite),
    nginx: [process.env.NGINX_PATH, '/usr/sbin/nginx', 'nginx'].filter(Boolean).find((p) => run(p, ['-v']) !== undefined),
  });
  let found = find();
  if ((!found.phpFpm || !found.nginx) && canInstallWithApt()) {
    log('No PHP-FPM with pdo_sqlite or no nginx found: installing Debian\'s nginx-light, php8.2-fpm and php8.2-sqlite3 (apt-get)...');
    aptInstall(['nginx-light', 'php8.2-fpm', 'php8.2-sqlite3']);
    found = find();
  }
  if (!found.phpFpm || !found.nginx) {
    throw new Error('The PHP example\'s production recipe needs PHP-FPM with pdo_sqlite and nginx: set PHP_FPM_PATH and NGINX_PATH, or on Debian: sudo apt-get install nginx-light php8.2-fpm php8.2-sqlite3');
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const found = ensureBackends();
    const production = ensurePhpProduction();
    console.log(`PHP: ${found.php}\nPython: ${found.python}\nPHP-FPM: ${production.phpFpm}\nnginx: ${production.nginx}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
