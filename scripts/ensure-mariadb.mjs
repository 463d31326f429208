// `npm test` runs this first: it finds (or installs) MariaDB and says which one the tests use.
import { ensureMariadb, mariadbVersion } from './mariadb.mjs';

try {
  const { server } = ensureMariadb();
  console.log(`MariaDB: ${mariadbVersion(server)}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
