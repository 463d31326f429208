// `npm test` runs this first: it finds (or installs) Redis and says which one the tests use.
import { ensureRedis, redisVersion } from './redis.mjs';

try {
  console.log(`Redis: ${redisVersion(ensureRedis())}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
