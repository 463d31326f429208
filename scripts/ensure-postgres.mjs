// `npm test` runs this first: it finds (or installs) PostgreSQL and says which one the tests use.
import { ensurePostgres } from './postgres.mjs';

try {
  console.log(`PostgreSQL: ${ensurePostgres()}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
