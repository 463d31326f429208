import { createRedisStore } from '../../../../src/server/redis.js';
import { countingRedis } from '../../../support/counting.js';
import { roundTripTests } from '../../../support/round-trips.js';
import { newClient, stopServer } from './redis-server.js';

roundTripTests('Redis store', async () => {
  const counting = countingRedis(await newClient());
  return { store: createRedisStore(counting.db), counting, close: stopServer };
});
